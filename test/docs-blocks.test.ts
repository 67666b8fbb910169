/**
 * Every TypeScript and JavaScript block of README.md and docs/*.md compiles (issue 38): each is
 * written as a module of its own into a project inside the repository, where `budget-rules`
 * resolves to the build through package.json "exports" as it does for a user, and `tsc` checks
 * them all, strict. A TypeScript block is type-checked; a JavaScript block is checked for its
 * syntax and that what it imports exists. Needs `npm run build` first (`npm test` builds).
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`)
]
const FENCE = /^```(ts|typescript|tsx|js|javascript|mjs)\n([\s\S]*?)^```$/gm

interface Block {
  readonly page: string
  readonly line: number
  readonly typescript: boolean
  readonly code: string
}

const blocks: ReadonlyArray<Block> = PAGES.flatMap((page) => {
  const text = readFileSync(join(ROOT, page), 'utf8')
  return [...text.matchAll(FENCE)].map((m) => ({
    page,
    line: text.slice(0, m.index).split('\n').length,
    typescript: !['js', 'javascript', 'mjs'].includes(m[1] as string),
    code: m[2] as string
  }))
})

const DIR = join(ROOT, 'test', '.docs-blocks')
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')

afterAll(() => {
  rmSync(DIR, { recursive: true, force: true })
})

describe('the code blocks of README.md and docs/', () => {
  it('are found on the pages that teach the API', () => {
    expect(new Set(blocks.map((b) => b.page))).toEqual(
      new Set(['README.md', 'docs/admin.md', 'docs/client.md', 'docs/conformance.md', 'docs/embedding.md', 'docs/openapi.md'])
    )
  })

  it('compile, strict, against the built package', () => {
    rmSync(DIR, { recursive: true, force: true })
    mkdirSync(DIR, { recursive: true })
    const files = blocks.map((b) => {
      const name = `${b.page.replace(/[/.]/g, '_')}-${b.line}.${b.typescript ? 'ts' : 'mjs'}`
      // A block is a module of its own, so that two blocks may declare the same names.
      writeFileSync(join(DIR, name), `${b.code}\nexport {}\n`)
      return name
    })
    writeFileSync(
      join(DIR, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2022', 'dom'],
          types: ['node'],
          allowJs: true,
          checkJs: false,
          noEmit: true,
          skipLibCheck: true
        },
        files
      })
    )
    const run = spawnSync(process.execPath, [tsc, '-p', DIR, '--pretty', 'false'], { cwd: ROOT, encoding: 'utf8' })
    // Each error named by page and line: `docs/embedding.md:42: error TS…`.
    const errors = run.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const m = /^test\/\.docs-blocks\/(.+?)-(\d+)\.(?:ts|mjs)\((\d+),\d+\): (.*)$/.exec(line)
        return m === null
          ? line
          : `${(m[1] as string).replace(/_md$/, '.md').replace(/^docs_/, 'docs/')}:${Number(m[2]) + Number(m[3])}: ${m[4] as string}`
      })
    expect({ status: run.status, errors }).toEqual({ status: 0, errors: [] })
  }, 180_000)
})
