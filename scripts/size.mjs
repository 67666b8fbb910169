// The client entry in a browser bundle (R-80): dist/client.js bundled and minified with esbuild,
// as a bundler would for a page, must load neither fp-ts nor io-ts and stay under 6 KiB gzipped.
// The react-admin data provider (R-101) is measured without
// ra-core and react-admin (an admin page has them already: ra-core is marked external) and must
// stay under 8 KiB gzipped; it shares the paging limits' and filter types' chunks with the typed
// layer, which bring some of fp-ts along (ADR 0113). Prints the size of each entry point's
// bundle; exits 1 when the client or the provider breaks its promise. The build bundles fp-ts and
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

/** The entries whose bundle is held to a size (bytes gzipped), and whether it must be free of fp-ts and io-ts. */
const LIMITS = { client: { bytes: 6 * 1024, light: true }, 'react-admin': { bytes: 8 * 1024, light: false } }
let ok = true
for (const entry of ['index', 'rules', 'client', 'react-admin']) {
  const result = await build({
    entryPoints: [`dist/${entry}.js`],
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
  const inputs = Object.keys(result.metafile.inputs)
  const heavy = [...new Set(heavyModules(inputs))]
  console.log(
    `budget-rules${entry === 'index' ? '' : `/${entry}`}${entry === 'react-admin' ? ' (without ra-core)' : ''}: ${(code.length / 1024).toFixed(1)} KiB minified, ${(gzipped / 1024).toFixed(1)} KiB gzipped${heavy.length > 0 ? ` (with fp-ts/io-ts: ${heavy.length} modules)` : ''}`
  )
  const limit = LIMITS[entry]
  if (limit !== undefined && ((limit.light && heavy.length > 0) || gzipped > limit.bytes)) {
    console.error(
      `budget-rules/${entry} must ${limit.light ? 'load neither fp-ts nor io-ts and ' : ''}stay under ${limit.bytes} bytes gzipped`
    )
    ok = false
  }
}
process.exit(ok ? 0 : 1)
