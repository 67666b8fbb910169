import { defineConfig, type Options } from 'tsup'

// The entry points: the root (facades and client functions), `rules` (the typed layer),
// `client` (no fp-ts, no io-ts), `sql` (page requests as SQL text), and `arbitraries` and
// `conformance` (fast-check, a peer dependency: ), and `openapi` (the API's OpenAPI
// document, R-100), and `react-admin` (a data provider, R-101; ra-core, an optional peer, stays
// external), and `decisions` (decision records and replay, R-120, R-122). Modules they share become
// chunks, so a rule exists once. The CLI, the package's bin (which also serves the reference
// server), is built apart: ESM only, no types, its own bundle of the core it uses.
//
// fp-ts and io-ts are bundled, from their ES modules, so that only what the library uses is
// loaded: Node resolves a bare `fp-ts` to its CommonJS index, which loads all 123 of its modules
// (about 115 ms of a cold start, where the bundle costs about 12 ms; ADR 0080). Their types stay
// dependencies: the typed layer's declarations name them.
//
// No source maps: the package holds what a user runs or reads, and a map of code that is
// not minified adds a third of the code's size for little. The library's build writes esbuild's
// metafiles instead (dist/metafile-esm.json, metafile-cjs.json; not shipped), which say what
// each file of dist bundles (scripts/size.mjs, scripts/pack-size.mjs read them).
const common: Options = {
  target: 'node20',
  sourcemap: false,
  treeshake: true,
  splitting: true,
  noExternal: ['fp-ts', 'io-ts'],
  esbuildOptions: (options: { mainFields?: Array<string> }) => {
    options.mainFields = ['module', 'main']
  }
}

/** The library: the entry points, ESM and CommonJS, with their types. */
const library: Options = {
  ...common,
  entry: {
    index: 'src/index.ts',
    rules: 'src/rules.ts',
    client: 'src/client.ts',
    sql: 'src/sql.ts',
    arbitraries: 'src/arbitraries.ts',
    conformance: 'src/conformance.ts',
    openapi: 'src/openapi.ts',
    'react-admin': 'src/react-admin.ts',
    decisions: 'src/decisions.ts'
  },
  external: ['ra-core'],
  format: ['esm', 'cjs'],
  // The ESM build has one entry more, exported by none of package.json: src/ui-rules.ts, which
  // gives the UI's rules chunks apart from io-ts's (R-107, ADR 0131). The CommonJS build is not
  // split, and needs none.
  esbuildOptions: (options, context) => {
    common.esbuildOptions?.(options, context)
    if (context.format === 'esm')
      options.entryPoints = { ...(options.entryPoints as Record<string, string>), 'ui-rules': 'src/ui-rules.ts' }
  },
  dts: true,
  metafile: true,
  clean: true
}

/**
 * The bin, and the reference server it serves; built alone by `npm start` when its sources
 * changed (tsup.cli.config.ts, scripts/build.mjs), which keeps the rest of dist/ as it is.
 */
export const cli: Options = { ...common, entry: { cli: 'src/cli/main.ts' }, format: ['esm'], dts: false, clean: false }

export default defineConfig([library, cli])
