// Builds dist/. `node scripts/build.mjs` (`npm run build`): the library and the bin (tsup), then
// the decision explorer and the admin console (scripts/explorer.ts, scripts/admin.ts).
// `node scripts/build.mjs --changed` (`npm start`, before it runs dist/cli.js): only the parts the
// reference server needs, the bin, the explorer and the console, and of those only the ones whose
// sources changed since this script built them, or whose output is missing or was written since
// by something else; nothing at all when every part is current.
//
// What each part was built from is kept in node_modules/.cache/budget-rules/build.json: a hash of
// the content of its sources (every file under the paths it names, the dependencies through
// package.json and package-lock.json) and of its output. Content, not modification times: a
// checkout that rewrites a file with the same text rebuilds nothing. A test
// (test/build/sources.test.ts) holds each part's sources to what esbuild reads when it builds it.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const STAMPS = join(ROOT, 'node_modules', '.cache', 'budget-rules', 'build.json')
const bin = (name) => join(ROOT, 'node_modules', '.bin', name)
const DEPENDENCIES = ['package.json', 'package-lock.json']

/** The parts `npm start` needs: their sources, their output (the files the server reads), and how each is built. */
export const PARTS = {
  cli: {
    sources: ['src', 'tsup.config.ts', 'tsup.cli.config.ts', ...DEPENDENCIES],
    output: ['dist/cli.js'],
    build: [bin('tsup'), '--config', 'tsup.cli.config.ts', '--silent']
  },
  explorer: {
    sources: ['src', 'explorer', 'docs/decisions', 'scripts/explorer.ts', 'scripts/page.ts', ...DEPENDENCIES],
    output: ['dist/explorer/index.html', 'dist/explorer/main.js', 'dist/explorer/style.css'],
    build: [bin('tsx'), 'scripts/explorer.ts']
  },
  admin: {
    sources: ['src', 'examples/admin', 'scripts/admin.ts', 'scripts/page.ts', ...DEPENDENCIES],
    output: ['dist/admin/index.html', 'dist/admin/main.js'],
    build: [bin('tsx'), 'scripts/admin.ts']
  }
}

/** Every file under `path` (a file or a folder), relative to the root, in a fixed order. */
const filesUnder = (path) =>
  statSync(join(ROOT, path)).isDirectory()
    ? readdirSync(join(ROOT, path))
        .sort()
        .flatMap((name) => filesUnder(join(path, name)))
    : [path]

/** Each file's hash, read once however many parts name it. */
const digests = new Map()
const digestOf = (file) => {
  if (!digests.has(file)) {
    const path = join(ROOT, file)
    digests.set(file, existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : null)
  }
  return digests.get(file)
}

/** A hash of the files' names and contents; null when one is missing. */
const hashOf = (files) => {
  const hash = createHash('sha256')
  for (const file of files) {
    const digest = digestOf(file)
    if (digest === null) return null
    hash.update(`${file}\0${digest}\0`)
  }
  return hash.digest('hex')
}

const sourcesHash = (part) => hashOf(PARTS[part].sources.flatMap(filesUnder))
const outputHash = (part) => {
  // Read anew: a build may just have rewritten them.
  for (const file of PARTS[part].output) digests.delete(file)
  return hashOf(PARTS[part].output)
}

const readStamps = () => {
  try {
    return JSON.parse(readFileSync(STAMPS, 'utf8'))
  } catch {
    return {}
  }
}

/**
 * Removes what the bin's last build wrote (dist/cli.js and its chunks: the .js files at the top
 * of dist/ that the library's build did not write, as its metafile lists them), so that chunks of
 * an older bin, whose names are hashes of their content, do not pile up beside the new ones.
 */
const removeBin = () => {
  const dist = join(ROOT, 'dist')
  if (!existsSync(dist)) return
  const metafile = join(dist, 'metafile-esm.json')
  const library = new Set(existsSync(metafile) ? Object.keys(JSON.parse(readFileSync(metafile, 'utf8')).outputs) : [])
  for (const name of readdirSync(dist)) if (name.endsWith('.js') && !library.has(`dist/${name}`)) rmSync(join(dist, name))
}

const run = ([command, ...args]) => {
  const status = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' }).status
  if (status !== 0) process.exit(status ?? 1)
}

/** Builds every part, or with `changedOnly` those whose sources or output changed since. */
const build = (changedOnly) => {
  const stamps = readStamps()
  const before = Object.fromEntries(Object.keys(PARTS).map((part) => [part, sourcesHash(part)]))
  /** Why a part is built: null when it is current. */
  const why = (part) =>
    !changedOnly
      ? 'npm run build'
      : stamps[part] === undefined
        ? 'not built by this script yet'
        : stamps[part].sources !== before[part]
          ? 'its sources changed'
          : stamps[part].output !== outputHash(part)
            ? 'its output is missing or was written by something else'
            : null
  const stale = Object.keys(PARTS).filter((part) => why(part) !== null)
  // tsup builds the library and the bin at once.
  if (!changedOnly) run([bin('tsup'), '--silent'])
  for (const part of stale) {
    if (changedOnly) {
      console.log(`building ${PARTS[part].output.join(', ')}: ${why(part)}`)
      if (part === 'cli') removeBin()
      run(PARTS[part].build)
    } else if (part !== 'cli') run(PARTS[part].build)
    stamps[part] = { sources: before[part], output: outputHash(part) }
  }
  if (stale.length > 0) {
    mkdirSync(dirname(STAMPS), { recursive: true })
    writeFileSync(STAMPS, `${JSON.stringify(stamps, null, 2)}\n`)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) build(process.argv.includes('--changed'))
