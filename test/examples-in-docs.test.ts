import { describe, expect, it } from 'vitest'
import { entryPoints, type Example, examplesIn, exportsLackingDocs, findExamples, runExample } from './doc-examples'

// Every @example in src/ runs as written, by the convention test/doc-examples.ts states:
// `expr //=> value` is an assertion, `//=> throws TypeError('...')` a throw, the rest statements.
const examples = findExamples()

describe('the @example blocks of src/', () => {
  it('are found in every corner of src/', () => {
    // A floor, so that a broken extraction (no examples found) cannot pass as "all ran".
    expect(examples.length).toBeGreaterThanOrEqual(150)
    expect(new Set(examples.map((e) => e.file.split('/')[1])).size).toBeGreaterThanOrEqual(12)
  })

  it.each(examples.map((e) => [`${e.file}:${e.line} ${e.symbol}`, e] as const))('%s runs as written', async (_, e) => {
    await runExample(e)
  })
})

// The harness must fail a wrong example; each of these is wrong in one way. They are written as
// if in src/index.ts, whose exports (the package root's, `nextWindow` among them) are in scope.
const wrong = (code: string): Example => ({ file: 'src/index.ts', line: 10, symbol: 'nextWindow', code })

describe('a wrong example fails', () => {
  it.each([
    ['a wrong value', 'nextWindow({ start: 0, end: 100 }, 100) //=> { start: 100, end: 199 }', /src\/index\.ts:10: nextWindow/],
    ['an extra field', 'nextWindow({ start: 0, end: 100 }, 100) //=> { start: 100, end: 200, size: 100 }', /to strictly equal/],
    ['a missing field', 'nextWindow({ start: 0, end: 100 }, 100) //=> { start: 100 }', /to strictly equal/],
    [
      'undefined for a missing field',
      'nextWindow({ start: 0, end: 100 }, 100) //=> { start: 100, end: 200, size: undefined }',
      /to strictly equal/
    ],
    ['`...` in a value', 'nextWindow({ start: 0, end: 100 }, 100) //=> { start: 100, ... }', /not an expression/],
    ['prose for a value', 'nextWindow({ start: 0, end: 100 }, 100) //=> the next window', /not an expression/],
    ['a mere comment for an assertion', 'nextWindow({ start: 0, end: 100 }, 100) // the next window', /asserts nothing/],
    [
      'a value on the lines below',
      'nextWindow({ start: 0, end: 100 }, 100)\n//=> { start: 100,\n//     end: 201 }',
      /:10: nextWindow/
    ],
    [
      'an expression over lines',
      'nextWindow(\n  { start: 0, end: 100 },\n  99\n)\n//=> { start: 100, end: 200 }',
      /:10: nextWindow/
    ],
    [
      'a later assertion',
      'const w = { start: 0, end: 100 }\nnextWindow(w, 100) //=> { start: 100, end: 200 }\nnextWindow(w, 7) //=> { start: 7, end: 107 }',
      /:12: nextWindow\(w, 7\)/
    ],
    ['a name the file does not export', 'decideWindow({ start: 0, end: 100 }, 100) //=> null', /decideWindow is not defined/],
    [
      'a name the package does not export',
      "import { decideMoney } from 'budget-rules'\ndecideMoney() //=> null",
      /'budget-rules' exports no decideMoney/
    ],
    ['an import from elsewhere', "import { map } from 'lodash'\nmap //=> null", /not 'lodash'/],
    [
      'a throw that does not happen',
      'nextWindow({ start: 0, end: 100 }, 100) //=> throws TypeError("no")',
      /instead of throwing/
    ],
    [
      'a throw of another class',
      "nextWindow({ start: 0, end: 100 }, Number.NaN) //=> throws RangeError('x')",
      /instance of RangeError/
    ],
    [
      'a throw with another message',
      "nextWindow({ start: 0, end: 100 }, Number.NaN) //=> throws TypeError('received is wrong')",
      /received is wrong/
    ],
    ['a throw where a value is expected', 'nextWindow({ start: 0, end: 100 }, Number.NaN) //=> null', /threw TypeError/],
    [
      'a right for a left',
      "import { either } from 'fp-ts'\neither.left(nextWindow({ start: 0, end: 1 }, 1)) //=> right({ start: 1, end: 2 })",
      /to strictly equal/
    ],
    ['an assertion after no expression', 'const w = { start: 0, end: 100 }\n//=> null', /follows no expression/],
    [
      'a statement that throws',
      'nextWindow({ start: 0, end: 100 }, -1)\nnextWindow({ start: 0, end: 100 }, 100) //=> { start: 100, end: 200 }',
      /^src\/index\.ts:10: .*received is -1/
    ]
  ])('%s', async (_, code, message) => {
    await expect(runExample(wrong(code))).rejects.toThrow(message)
  })

  it('and the same examples, right, pass', async () => {
    await runExample(
      wrong('const w = { start: 0, end: 100 }\nnextWindow(w, 100) //=> { start: 100, end: 200 }\nnextWindow(w, 7) //=> null')
    )
    await runExample(
      wrong(
        "nextWindow({ start: 0, end: 100 }, Number.NaN)\n//=> throws TypeError('nextWindow: received is NaN, not a whole number >= 0')"
      )
    )
    await runExample(
      wrong(
        "import { either } from 'fp-ts'\nimport { nextWindow as next } from 'budget-rules'\neither.right(next({ start: 0, end: 1 }, 0)) //=> right(null)"
      )
    )
  })

  it('the extraction takes each @example up to the next tag, titles and fences aside', () => {
    const text = [
      '/**',
      ' * Summary.',
      ' *',
      ' * @example Two windows',
      ' * nextWindow(w, 1) //=> null',
      ' *',
      ' * @example',
      ' * ```ts',
      ' * nextWindow(w, 2) //=> null',
      ' * ```',
      ' * prose',
      ' * @since 0.1.0',
      ' */',
      'export const nextWindow = 1'
    ].join('\n')
    expect(examplesIn('src/x.ts', text)).toStrictEqual([
      { file: 'src/x.ts', line: 5, symbol: 'nextWindow', code: 'nextWindow(w, 1) //=> null' },
      { file: 'src/x.ts', line: 9, symbol: 'nextWindow', code: 'nextWindow(w, 2) //=> null' }
    ])
  })
})

describe('the API reference', () => {
  it('the check names each export without a summary or an @example', () => {
    expect(exportsLackingDocs(['test/doc-examples.fixture.ts'])).toStrictEqual([
      'summaryOnly (test/doc-examples.fixture.ts): an @example',
      'exampleOnly (test/doc-examples.fixture.ts): a summary',
      'bare (test/doc-examples.fixture.ts): a summary and an @example',
      'Pair (test/doc-examples.fixture.ts): a summary'
    ])
  }, 60_000)
  it('documents every export of its entry points (typedoc.json) with a summary and an @example', () => {
    expect(exportsLackingDocs(entryPoints())).toStrictEqual([])
  }, 60_000)
})
