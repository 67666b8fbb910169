import { defineConfig } from 'tsup'

// The entry points: the root (facades and client functions), `rules` (the typed layer),
// `client` (no fp-ts, no io-ts) and `sql` (page requests as SQL text). Modules they share become
// chunks, so a rule exists once. The CLI, the package's bin (which also serves the reference
// server), is built apart: ESM only, no types, its own bundle of the core it uses.
const common = { target: 'node20', sourcemap: true, treeshake: true, splitting: true } as const

export default defineConfig([
  {
    ...common,
    entry: { index: 'src/index.ts', rules: 'src/rules.ts', client: 'src/client.ts', sql: 'src/sql.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    clean: true
  },
  { ...common, entry: { cli: 'src/cli/main.ts' }, format: ['esm'], dts: false, clean: false }
])
