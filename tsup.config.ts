import { defineConfig } from 'tsup'

// Three entry points: the root (facades and client functions), `rules` (the typed layer)
// and `client` (no fp-ts, no io-ts). Modules they share become chunks, so a rule exists once.
export default defineConfig({
  entry: { index: 'src/index.ts', rules: 'src/rules.ts', client: 'src/client.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  treeshake: true,
  splitting: true
})
