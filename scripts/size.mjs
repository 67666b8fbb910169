// The client entry in a browser bundle (R-80): dist/client.js bundled and minified with esbuild,
// as a bundler would for a page, must load neither fp-ts nor io-ts and stay under 6 KiB gzipped.
// The build bundles fp-ts and io-ts into dist's chunks (tsup.config.ts), so their modules are
// found through the chunks' source maps. Prints the size of each entry point's bundle; exits 1
// when the client breaks either promise.
import { build } from 'esbuild'
import { existsSync, readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'

/** The fp-ts and io-ts modules a bundle's inputs hold, by their own path or their source map's. */
const heavyModules = (inputs) =>
  inputs.flatMap((path) => {
    const sources = existsSync(`${path}.map`) ? JSON.parse(readFileSync(`${path}.map`, 'utf8')).sources : [path]
    return sources.filter((source) => /node_modules\/(fp-ts|io-ts)\//.test(source))
  })

const LIMIT = 6 * 1024
let ok = true
for (const entry of ['index', 'rules', 'client']) {
  const result = await build({
    entryPoints: [`dist/${entry}.js`],
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
    `budget-rules${entry === 'index' ? '' : `/${entry}`}: ${(code.length / 1024).toFixed(1)} KiB minified, ${(gzipped / 1024).toFixed(1)} KiB gzipped${heavy.length > 0 ? ` (with fp-ts/io-ts: ${heavy.length} modules)` : ''}`
  )
  if (entry === 'client' && (heavy.length > 0 || gzipped > LIMIT)) {
    console.error(`budget-rules/client must load neither fp-ts nor io-ts and stay under ${LIMIT} bytes gzipped`)
    ok = false
  }
}
process.exit(ok ? 0 : 1)
