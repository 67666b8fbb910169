import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

// The docs ship in the package: every relative link in README.md and docs/ must reach a
// file the package holds (package.json `files`), so a reader of the installed package never
// follows a link out of it.

const packageFiles = (JSON.parse(readFileSync('package.json', 'utf8')) as { files: ReadonlyArray<string> }).files

const markdownUnder = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return path === join('docs', 'api') ? [] : markdownUnder(path)
    return entry.name.endsWith('.md') ? [path] : []
  })

const shipped = (path: string): boolean => packageFiles.some((f) => path === f || path.startsWith(`${f}/`))

describe('links in the docs that ship', () => {
  const files = ['README.md', ...markdownUnder('docs')]

  it.each(files)('%s links only to files inside the package', (file) => {
    const text = readFileSync(file, 'utf8')
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => (m[1] ?? '').split('#')[0] ?? '')
      .filter((t) => t !== '' && !/^[a-z]+:/i.test(t))
    const broken = targets.filter((t) => {
      const path = relative('.', normalize(join(dirname(file), t)))
      return !existsSync(path) || !shipped(path)
    })
    expect(broken).toEqual([])
  })
})
