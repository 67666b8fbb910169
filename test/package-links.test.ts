import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

// The docs ship in the package: every relative link in README.md and docs/ must reach a
// file the package holds (package.json `files`), so a reader of the installed package never
// follows a link out of it. The screenshots the README shows are the exception: they stay in the
// repository (R-102: no screenshots in the package), where the README shows them; an image must
// still reach a file there.

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
    const targets = [...text.matchAll(/(!?)\[[^\]]*\]\(([^)\s]+)\)/g)]
      .map((m) => ({ image: m[1] === '!', target: (m[2] ?? '').split('#')[0] ?? '' }))
      .filter(({ target }) => target !== '' && !/^[a-z]+:/i.test(target))
    const broken = targets.filter(({ image, target }) => {
      const path = relative('.', normalize(join(dirname(file), target)))
      return !existsSync(path) || (!image && !shipped(path)) || (image && !/\.(png|svg)$/.test(path))
    })
    expect(broken).toEqual([])
  })
})
