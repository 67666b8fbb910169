// The client entry in a browser bundle (R-80): dist/client.js bundled and minified with esbuild,
// as a bundler would for a page, must load neither fp-ts nor io-ts and stay under 6 KiB gzipped.
// So must the UI's rules (R-107): a page that imports only `permittedUpdateFields`,
// `lockedUpdateFields` and `upcomingPeriods` from the root, tree-shaken (ADR 0131).
// The react-admin data provider (R-101) is measured without
// ra-core and react-admin (an admin page has them already: ra-core is marked external) and must
// stay under 15 KiB gzipped; it decodes its queries with the service's own page-request decoder,
// which brings fp-ts's Either along (ADR 0113, ADR 0121). Prints the size of each entry point's
// bundle and the UI rules' page; exits 1 when the client, the provider or the UI rules break their promise. The build bundles fp-ts and
// io-ts into dist's chunks (tsup.config.ts), so their modules are found through the build's
// metafile (dist/metafile-esm.json), which lists what each file of dist holds.
import { build } from 'esbuild'
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'

const built = JSON.parse(readFileSync('dist/metafile-esm.json', 'utf8')).outputs

/** The fp-ts and io-ts modules a bundle's inputs hold: each input is a file of dist, or a module of its own. */
const heavyModules = (inputs) =>
  inputs.flatMap((path) =>
    Object.keys(built[path]?.inputs ?? { [path]: null }).filter((source) => /node_modules\/(fp-ts|io-ts)\//.test(source))
  )

/** What each bundle is built from: an entry point of dist, or a page's module importing from the root. */
const BUNDLES = [
  ...['index', 'rules', 'client', 'react-admin'].map((entry) => ({
    name: `budget-rules${entry === 'index' ? '' : `/${entry}`}${entry === 'react-admin' ? ' (without ra-core)' : ''}`,
    entry,
    input: { entryPoints: [`dist/${entry}.js`] }
  })),
  {
    name: 'UI rules (permittedUpdateFields, lockedUpdateFields, upcomingPeriods)',
    entry: 'ui',
    input: {
      stdin: {
        contents: "export { permittedUpdateFields, lockedUpdateFields, upcomingPeriods } from 'budget-rules'",
        resolveDir: '.'
      },
      alias: { 'budget-rules': './dist/index.js' }
    }
  }
]

/** The bundles held to a size (bytes gzipped), and whether each must be free of fp-ts and io-ts. */
const LIMITS = {
  client: { bytes: 6 * 1024, light: true },
  'react-admin': { bytes: 15 * 1024, light: false },
  ui: { bytes: 6 * 1024, light: true }
}
let ok = true
for (const { name, entry, input } of BUNDLES) {
  const result = await build({
    ...input,
    external: ['ra-core'],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent'
  })
  const code = result.outputFiles[0].contents
  const gzipped = gzipSync(code).length
  // The files the bundle holds code of: esbuild reads every chunk an entry imports, but may keep none of it.
  const [output] = Object.values(result.metafile.outputs)
  const inputs = Object.entries(output.inputs).flatMap(([path, { bytesInOutput }]) => (bytesInOutput > 0 ? [path] : []))
  const heavy = [...new Set(heavyModules(inputs))]
  console.log(
    `${name}: ${(code.length / 1024).toFixed(1)} KiB minified, ${(gzipped / 1024).toFixed(1)} KiB gzipped${heavy.length > 0 ? ` (with fp-ts/io-ts: ${heavy.length} modules)` : ''}`
  )
  const limit = LIMITS[entry]
  if (limit !== undefined && ((limit.light && heavy.length > 0) || gzipped > limit.bytes)) {
    console.error(`${name} must ${limit.light ? 'load neither fp-ts nor io-ts and ' : ''}stay under ${limit.bytes} bytes gzipped`)
    ok = false
  }
}
process.exit(ok ? 0 : 1)
