// What the npm package weighs (R-102, ADR 0118): `npm pack --dry-run` lists the files the tarball
// holds and its size packed and unpacked; each file is put in one part, and the part's size is
// printed unpacked and gzipped (its files as one stream, as the tarball compresses them):
//   - the library: the entry points' code and types (the files of dist/metafile-*.json, which the
//     library's build writes, and the .d.ts/.d.cts beside them);
//   - the CLI and the reference server: the rest of dist's code (dist/cli.js and its chunks);
//   - the built pages: dist/explorer/ and dist/admin/;
//   - what a user reads: README, LICENSE, docs/, examples/, package.json.
// Exits 1 when the tarball is over its budget packed or unpacked, or the library over its own,
// or when a file is in none of the parts (something new ships: it needs a part and a reason).
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { Buffer } from 'node:buffer'
import { gzipSync } from 'node:zlib'

const KiB = 1024
const MiB = 1024 * KiB
/** The budgets (ADR 0118): round figures above what the package weighed when they were set; the tarball's raised once, to the 4 MiB ceiling. */
const BUDGET = { packed: 1.25 * MiB, unpacked: 4 * MiB, library: 1.5 * MiB }

const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8' })
if (pack.status !== 0) {
  console.error(`npm pack --dry-run failed:\n${pack.stderr}`)
  process.exit(1)
}
const [tarball] = JSON.parse(pack.stdout)

const built = new Set(
  ['esm', 'cjs'].flatMap((format) => Object.keys(JSON.parse(readFileSync(`dist/metafile-${format}.json`, 'utf8')).outputs))
)
const PARTS = [
  ['library (code and types)', (path) => built.has(path) || /^dist\/[^/]+\.d\.c?ts$/.test(path)],
  ['CLI and reference server', (path) => /^dist\/[^/]+\.js$/.test(path)],
  ['built pages', (path) => path.startsWith('dist/explorer/') || path.startsWith('dist/admin/')],
  [
    'README, LICENSE, docs, examples',
    (path) => ['README.md', 'LICENSE', 'package.json'].includes(path) || /^(docs|examples)\//.test(path)
  ]
]

const parts = PARTS.map(([name]) => ({ name, files: [], bytes: 0 }))
const stray = []
for (const { path, size } of tarball.files) {
  const at = PARTS.findIndex(([, holds]) => holds(path))
  if (at < 0) stray.push(path)
  else {
    parts[at].files.push(path)
    parts[at].bytes += size
  }
}

const kib = (n) => `${(n / KiB).toFixed(1)} KiB`
const mib = (n) => `${(n / MiB).toFixed(2)} MiB`
console.log(
  `${tarball.filename}: ${mib(tarball.size)} packed (budget ${mib(BUDGET.packed)}), ${mib(tarball.unpackedSize)} unpacked (budget ${mib(BUDGET.unpacked)}), ${tarball.entryCount} files`
)
for (const part of parts) {
  const gzipped = gzipSync(Buffer.concat(part.files.map((f) => readFileSync(f)))).length
  const share = ((100 * part.bytes) / tarball.unpackedSize).toFixed(0)
  console.log(`  ${part.name}: ${part.files.length} files, ${kib(part.bytes)} unpacked (${share}%), ${kib(gzipped)} gzipped`)
}

const problems = [
  ...(tarball.size > BUDGET.packed
    ? [`the tarball is ${mib(tarball.size)} packed, over its budget of ${mib(BUDGET.packed)}`]
    : []),
  ...(tarball.unpackedSize > BUDGET.unpacked
    ? [`the package is ${mib(tarball.unpackedSize)} unpacked, over its budget of ${mib(BUDGET.unpacked)}`]
    : []),
  ...(parts[0].bytes > BUDGET.library
    ? [`the library's code and types are ${mib(parts[0].bytes)}, over their budget of ${mib(BUDGET.library)}`]
    : []),
  ...stray.map((path) => `${path} ships but is in no part of scripts/pack-size.mjs`)
]
for (const problem of problems) console.error(problem)
process.exit(problems.length === 0 ? 0 : 1)
