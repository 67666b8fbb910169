/**
 * Runs the `@example` blocks of the JSDoc in src/ (test/examples-in-docs.test.ts), so that the
 * API reference never shows an example the library does not do.
 *
 * The convention an example follows:
 *
 * - `expr //=> value` asserts that `expr` deep-equals `value` (vitest `toStrictEqual`: same
 *   keys, no extra `undefined` fields). Both are JavaScript/TypeScript expressions; `expr` may
 *   span the lines above the `//=>` (back to the previous statement), and `value` may go on over
 *   the `//` lines below it until it is a whole expression. `right(x)` and `left(x)` are fp-ts
 *   Eithers; a partial object is written as a real expression: `{ ...budget, name: 'Travel' }`.
 * - `expr //=> throws TypeError('message')` asserts that `expr` throws an error of exactly that
 *   class with exactly that message.
 * - Every other line is a statement, run in order before the assertions below it (`const`,
 *   `import`, comments). An example asserts at least once.
 * - In scope: the exports of the file the example is written in; what the example imports from
 *   `budget-rules` (src/index.ts), `budget-rules/<entry>` (src/<entry>.ts or
 *   src/<entry>/index.ts), `fp-ts`, `io-ts` or `fast-check` (named imports); `right` and `left`; and the fixtures below. A
 *   name the example declares itself hides them.
 * - Fixtures (fresh and frozen for each example), as docs/api.md shows them (read from there): `budget`
 *   (b-1 "Team lunch" of company c-1, open, funded with a balance of 20,000 cents, managed by
 *   u-7, monthly from 2025-10-18 at 50,000 cents, the period in progress 2026-11-18..2026-12-18),
 *   `session` (user u-1, email verified, admin of c-1), `headers` (`Authorization: Bearer k`,
 *   `company-id: c-1`), `records` (bank transactions tx-1 authorized 1200, tx-2 pending 800,
 *   tx-3 pending 4500, created 2026-11-20, -21 and -22 at 09:00Z). Anything else an example
 *   spells out; `today` is written as a date (`'2026-11-22'`).
 *
 * Text on the `@example` line is a title; when the block holds a fenced code block, only the
 * fenced code runs.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { either } from 'fp-ts'
import ts from 'typescript'
import { expect } from 'vitest'

export const ROOT = resolve(import.meta.dirname, '..')
const SRC = join(ROOT, 'src')

// -------------------------------------------------------------------------------------
// fixtures
// -------------------------------------------------------------------------------------

/**
 * The data examples may use without spelling it out, as docs/api.md (the API reference's index
 * page) shows it to readers: its JSON block, read here so that the page and the runs agree. Each
 * example gets fresh, frozen copies.
 */
export const fixtures = (): Fixtures => deepFreeze(JSON.parse(FIXTURES_JSON) as Fixtures)

interface Fixtures {
  readonly budget: Readonly<Record<string, unknown>>
  readonly session: Readonly<Record<string, unknown>>
  readonly headers: Readonly<Record<string, string>>
  readonly records: ReadonlyArray<Readonly<Record<string, unknown>>>
}

const FIXTURES_JSON = ((): string => {
  const page = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8')
  const block = /<!-- fixtures -->\n```json\n([\s\S]*?)\n```\n<!-- \/fixtures -->/.exec(page)?.[1]
  if (block === undefined) throw new Error('docs/api.md holds no fixtures block')
  return block
})()

const deepFreeze = <A>(a: A): A => {
  if (typeof a === 'object' && a !== null) {
    for (const v of Object.values(a)) deepFreeze(v)
    Object.freeze(a)
  }
  return a
}

// -------------------------------------------------------------------------------------
// finding the examples
// -------------------------------------------------------------------------------------

export interface Example {
  /** The file, relative to the repository root (`src/paging/window.ts`). */
  readonly file: string
  /** The line of the file where the example's code starts (1-based). */
  readonly line: number
  /** The name the comment documents, or `module` for a file's opening comment. */
  readonly symbol: string
  readonly code: string
}

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? sourceFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []))
    .sort()

const DECLARATION =
  /^\s*export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:const|let|var|function\*?|interface|type|class|enum|namespace)\s+([\w$]+)|^\s*export\s+\*\s+as\s+([\w$]+)/

/** Every `@example` in the JSDoc comments of `text` (the file `file`). */
export const examplesIn = (file: string, text: string): Array<Example> => {
  const found: Array<Example> = []
  for (const m of text.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const startLine = text.slice(0, m.index).split('\n').length
    const after = text.slice(m.index + m[0].length).replace(/^\s*\n/, '')
    const d = DECLARATION.exec(after.split('\n')[0] ?? '')
    const symbol = d === null ? 'module' : (d[1] ?? d[2] ?? 'module')
    // The comment's lines without their leading ` * `, each with its line in the file.
    const lines = (m[1] ?? '').split('\n').map((l, i) => ({ text: l.replace(/^\s*\*? ?/, ''), line: startLine + i }))
    for (let i = 0; i < lines.length; i++) {
      if (!/^@example\b/.test(lines[i]?.text ?? '')) continue
      let end = i + 1
      while (end < lines.length && !/^@\w/.test(lines[end]?.text ?? '')) end++
      let block = lines.slice(i + 1, end)
      if (block.some((l) => l.text.startsWith('```'))) {
        const fenced: typeof block = []
        let inside = false
        for (const l of block) {
          if (l.text.startsWith('```')) inside = !inside
          else if (inside) fenced.push(l)
        }
        block = fenced
      }
      while (block.length > 0 && block[0]?.text.trim() === '') block = block.slice(1)
      while (block.length > 0 && block[block.length - 1]?.text.trim() === '') block = block.slice(0, -1)
      found.push({ file, line: block[0]?.line ?? lines[i]?.line ?? startLine, symbol, code: block.map((l) => l.text).join('\n') })
      i = end - 1
    }
  }
  return found
}

/** Every `@example` in src/, file by file. */
export const findExamples = (): Array<Example> =>
  sourceFiles(SRC).flatMap((f) => examplesIn(relative(ROOT, f).split('\\').join('/'), readFileSync(f, 'utf8')))

// -------------------------------------------------------------------------------------
// compiling an example
// -------------------------------------------------------------------------------------

interface Assertion {
  readonly line: number
  readonly expr: string
  readonly value: string
  readonly throws: boolean
}

export interface Import {
  readonly from: string
  /** Local name to exported name; `*` for a namespace import. */
  readonly names: ReadonlyArray<readonly [local: string, exported: string]>
}

export interface Compiled {
  readonly imports: ReadonlyArray<Import>
  /** The example as the body of a function: JavaScript, with `__check`/`__throws` calls. */
  readonly body: string
  readonly assertions: ReadonlyArray<Assertion>
}

/** Syntax errors of `code` as TypeScript, or an empty list. */
const syntaxErrors = (code: string): Array<string> =>
  (
    ts.transpileModule(code, {
      reportDiagnostics: true,
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext }
    }).diagnostics ?? []
  ).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))

const isWholeExpression = (value: string) => value.trim() !== '' && syntaxErrors(`(${value}\n);`).length === 0

const parse = (code: string) => ts.createSourceFile('example.ts', code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS)

/** Thrown for an example that does not follow the convention. */
export class ExampleError extends Error {
  override readonly name = 'ExampleError'
}

/** The example `e` as a function body, its imports taken out; throws an ExampleError. */
export const compileExample = (e: Example): Compiled => {
  const at = (offset: number) => `${e.file}:${e.line + offset}`
  const code = e.code.split('\n')

  // Imports are statements of the example as a whole (the values sit in comments).
  const imports: Array<Import> = []
  const whole = parse(e.code)
  for (const s of whole.statements) {
    if (!ts.isImportDeclaration(s)) continue
    const clause = s.importClause
    const from = (s.moduleSpecifier as ts.StringLiteral).text
    const names: Array<readonly [string, string]> = []
    if (clause !== undefined && clause.phaseModifier !== ts.SyntaxKind.TypeKeyword) {
      if (clause.name !== undefined) throw new ExampleError(`${at(0)}: default import from '${from}'; import names`)
      const bindings = clause.namedBindings
      if (bindings !== undefined && ts.isNamespaceImport(bindings)) names.push([bindings.name.text, '*'])
      if (bindings !== undefined && ts.isNamedImports(bindings))
        for (const el of bindings.elements) if (!el.isTypeOnly) names.push([el.name.text, (el.propertyName ?? el.name).text])
    }
    imports.push({ from, names })
    // Blank the import out, keeping the lines where they are.
    const first = whole.getLineAndCharacterOfPosition(s.getStart()).line
    const last = whole.getLineAndCharacterOfPosition(s.getEnd()).line
    for (let l = first; l <= last; l++) code[l] = ''
  }

  const assertions: Array<Assertion> = []
  const out: Array<string> = []
  let pending: Array<{ readonly text: string; readonly line: number }> = []
  for (let i = 0; i < code.length;) {
    const text = code[i] ?? ''
    const arrow = text.indexOf('//=>')
    if (arrow < 0) {
      pending.push({ text, line: i })
      i++
      continue
    }
    if (text.slice(0, arrow).trim() !== '') pending.push({ text: text.slice(0, arrow), line: i })
    let value = text.slice(arrow + 4).trim()
    let j = i + 1
    while (!isWholeExpression(value.replace(/^throws\b/, '')) && j < code.length && /^\s*\/\//.test(code[j] ?? '')) {
      value += `\n${(code[j] ?? '').replace(/^\s*\/\/\s?/, '')}`
      j++
    }
    const throws = /^throws\b/.test(value)
    if (throws) value = value.replace(/^throws\b/, '').trim()
    if (!isWholeExpression(value))
      throw new ExampleError(
        `${at(i)}: the value after //=> is not an expression: ${value}\n${syntaxErrors(`(${value}\n);`).join('\n')}`
      )

    // The expression is the last statement of what came since the previous assertion.
    const chunk = pending.map((p) => p.text).join('\n')
    const sf = parse(chunk)
    const errors = syntaxErrors(chunk)
    if (errors.length > 0) throw new ExampleError(`${at(pending[0]?.line ?? i)}: ${errors.join('\n')}`)
    const last = sf.statements[sf.statements.length - 1]
    if (last === undefined || !ts.isExpressionStatement(last)) throw new ExampleError(`${at(i)}: //=> follows no expression`)
    const exprLine = pending[sf.getLineAndCharacterOfPosition(last.getStart()).line]?.line ?? i
    const expr = last.expression.getText(sf)
    const assertion = { line: e.line + exprLine, expr, value, throws }
    out.push(chunk.slice(0, last.getFullStart()))
    out.push(`${throws ? '__throws' : '__check'}(${assertions.length}, () => (${expr}\n), () => (${value}\n));`)
    assertions.push(assertion)
    pending = []
    i = j
  }
  out.push(pending.map((p) => p.text).join('\n'))
  if (assertions.length === 0) throw new ExampleError(`${at(0)}: the example asserts nothing (no //=>)`)

  const source = out.join('\n')
  const errors = syntaxErrors(source)
  if (errors.length > 0) throw new ExampleError(`${at(0)}: ${errors.join('\n')}`)
  const js = ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: false }
  }).outputText
  return { imports, body: js, assertions }
}

// -------------------------------------------------------------------------------------
// running an example
// -------------------------------------------------------------------------------------

type Module = Readonly<Record<string, unknown>>

/** The modules an example may import: the package's entry points in src/, fp-ts and io-ts. */
const load = async (from: string): Promise<Module> => {
  if (from === 'budget-rules') return (await import(join(SRC, 'index.ts'))) as Module
  if (from.startsWith('budget-rules/')) {
    const entry = from.slice('budget-rules/'.length)
    for (const candidate of [`${entry}.ts`, join(entry, 'index.ts')]) {
      try {
        readFileSync(join(SRC, candidate))
      } catch {
        continue
      }
      return (await import(join(SRC, candidate))) as Module
    }
    throw new ExampleError(`no entry point ${from} in src/`)
  }
  if (from === 'fp-ts' || from.startsWith('fp-ts/') || from === 'io-ts' || from === 'fast-check')
    return (await import(from)) as Module
  throw new ExampleError(`examples import from budget-rules, fp-ts, io-ts or fast-check, not '${from}'`)
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/** Runs the example; rejects with the first assertion that fails, naming its line. */
export const runExample = async (e: Example): Promise<void> => {
  const { imports, body, assertions } = compileExample(e)
  const scope: Record<string, unknown> = { ...fixtures(), right: either.right, left: either.left }
  const own = (await import(join(ROOT, e.file))) as Module
  for (const [k, v] of Object.entries(own)) scope[k] = v
  for (const i of imports) {
    const m = await load(i.from)
    for (const [local, exported] of i.names) {
      if (exported !== '*' && !(exported in m)) throw new ExampleError(`${e.file}:${e.line}: '${i.from}' exports no ${exported}`)
      scope[local] = exported === '*' ? m : m[exported]
    }
  }
  const where = (k: number) => {
    const a = assertions[k]
    return a === undefined ? e.file : `${e.file}:${a.line}: ${a.expr}`
  }
  scope.__check = (k: number, actual: () => unknown, expected: () => unknown) => {
    let got: unknown
    try {
      got = actual()
    } catch (err) {
      throw new Error(`${where(k)} threw ${String(err)}`, { cause: err })
    }
    expect(got, where(k)).toStrictEqual(valueOf(k, expected))
  }
  const valueOf = (k: number, expected: () => unknown) => {
    try {
      return expected()
    } catch (err) {
      throw new Error(`${where(k)}: the value after //=> threw ${String(err)}`, { cause: err })
    }
  }
  scope.__throws = (k: number, actual: () => unknown, expected: () => unknown) => {
    const want = valueOf(k, expected)
    if (!(want instanceof Error)) throw new ExampleError(`${where(k)}: //=> throws needs an error, e.g. TypeError('...')`)
    let got: unknown
    try {
      got = actual()
    } catch (err) {
      expect(err, where(k)).toBeInstanceOf(want.constructor)
      expect((err as Error).constructor, where(k)).toBe(want.constructor)
      expect((err as Error).message, where(k)).toBe(want.message)
      return
    }
    throw new Error(`${where(k)} returned ${JSON.stringify(got)} instead of throwing ${String(want)}`)
  }
  const names = Object.keys(scope).filter((n) => IDENTIFIER.test(n))
  // The example's own declarations live in an inner block, so that they may hide a fixture.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- running the example is the point
  const run = new Function(...names, `'use strict';\n{\n${body}\n}`) as (...args: Array<unknown>) => unknown
  try {
    run(...names.map((n) => scope[n]))
  } catch (err) {
    // A statement (not an assertion) failed: name the example.
    if (err instanceof Error && !err.message.startsWith(e.file)) err.message = `${e.file}:${e.line}: ${err.message}`
    throw err
  }
}

// -------------------------------------------------------------------------------------
// the API reference: every export documented
// -------------------------------------------------------------------------------------

/** The entry points of the API reference (typedoc.json, JSON with comments), relative to the repository root. */
export const entryPoints = (): Array<string> => {
  const file = join(ROOT, 'typedoc.json')
  const read = ts.parseConfigFileTextToJson(file, readFileSync(file, 'utf8'))
  if (read.error !== undefined) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'))
  return (read.config as { entryPoints: Array<string> }).entryPoints
}

/**
 * Each export reachable from `entries` (a namespace export's members too) whose JSDoc lacks a
 * summary or an `@example`, as `name (file): what is missing`.
 */
export const exportsLackingDocs = (entries: ReadonlyArray<string>): Array<string> => {
  const program = ts.createProgram(
    entries.map((e) => join(ROOT, e)),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      // Only declarations and their comments are read: no type is checked, so no @types.
      types: [],
      noLib: true
    }
  )
  const checker = program.getTypeChecker()
  const lacking: Array<string> = []
  const walk = (module: ts.Symbol, prefix: string) => {
    for (const exported of checker.getExportsOfModule(module)) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      const declarations = target.declarations ?? []
      const isNamespace = declarations.some(ts.isSourceFile)
      // A namespace (`export * as problem`) is documented where it is exported.
      const documented = isNamespace ? (exported.declarations ?? []).map((d) => d.parent) : declarations
      // A name may stand for a value and a type (`Session`, the codec and its type): each has a
      // summary, and one of them an example.
      const docs = documented.map((d) => ts.getJSDocCommentsAndTags(d).filter(ts.isJSDoc))
      const summarised = (js: ReadonlyArray<ts.JSDoc>) =>
        js.some((j) => (ts.getTextOfJSDocComment(j.comment) ?? '').trim() !== '')
      const missing = [
        ...(docs.length > 0 && docs.every(summarised) ? [] : ['a summary']),
        ...(docs.flat().some((j) => (j.tags ?? []).some((t) => t.tagName.text === 'example')) ? [] : ['an @example'])
      ]
      const file = relative(ROOT, declarations[0]?.getSourceFile().fileName ?? '?')
      if (missing.length > 0) lacking.push(`${prefix}${exported.name} (${file}): ${missing.join(' and ')}`)
      if (isNamespace) walk(target, `${prefix}${exported.name}.`)
    }
  }
  for (const e of entries) {
    const sf = program.getSourceFile(join(ROOT, e))
    const module = sf === undefined ? undefined : checker.getSymbolAtLocation(sf)
    if (module === undefined) throw new Error(`typedoc entry point ${e} not found`)
    walk(module, entries.length > 1 ? `${e}: ` : '')
  }
  return lacking
}
