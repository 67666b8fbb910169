/**
 * The types tell the truth (R-104): for every entry point of package.json "exports", under ESM and
 * CommonJS, the names its built declaration file declares as values are exactly the names its
 * built module exports at run time. A name declared as a value that the module lacks type-checks
 * in a user's code and fails when it runs (`Budget.is(x)`: no such export under ESM, `undefined`
 * under CommonJS). Needs `npm run build` first (`npm test` builds).
 *
 * The declared side is read with the TypeScript compiler's checker, following each export through
 * the chunks it is re-exported from: an export is a value when its final symbol has a value
 * meaning and no link of the chain is a type-only export (`export { type X }`). The run-time side
 * is what Node gives, in a process of its own.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

interface Target {
  readonly types: string
  readonly default: string
}
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { import: Target; require: Target }>
}
const entries = Object.entries(manifest.exports).flatMap(([key, value]) =>
  typeof value === 'string' ? [] : [{ key, esm: value.import, cjs: value.require }]
)

/** Every declaration file the entry points name, in one program (one checker for all). */
const program = (() => {
  let built: ts.Program | undefined
  return () =>
    (built ??= ts.createProgram(
      entries.flatMap(({ esm, cjs }) => [join(ROOT, esm.types), join(ROOT, cjs.types)]),
      {
        strict: true,
        noEmit: true,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        types: []
      }
    ))
})()

/** The names `file` declares as values: its exports usable in an expression. */
const declaredValues = (file: string): ReadonlyArray<string> => {
  const checker = program().getTypeChecker()
  const source = program().getSourceFile(file)
  const module = source === undefined ? undefined : checker.getSymbolAtLocation(source)
  if (module === undefined) throw new Error(`${file}: no module`)
  const isValue = (symbol: ts.Symbol): boolean => {
    let current = symbol
    for (;;) {
      if ((current.declarations ?? []).some(ts.isTypeOnlyImportOrExportDeclaration)) return false
      if ((current.flags & ts.SymbolFlags.Alias) === 0) return (current.flags & ts.SymbolFlags.Value) !== 0
      current = checker.getImmediateAliasedSymbol(current) ?? checker.getAliasedSymbol(current)
    }
  }
  return checker
    .getExportsOfModule(module)
    .filter(isValue)
    .map((symbol) => symbol.name)
    .sort()
}

/** The names `file` exports when Node loads it, as `import()` or as `require()`. */
const runtimeKeys = (file: string, how: 'import' | 'require'): ReadonlyArray<string> => {
  const path = join(ROOT, file)
  const script =
    how === 'import'
      ? `console.log(JSON.stringify(Object.keys(await import(${JSON.stringify(`file://${path}`)}))))`
      : `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(path)}))))`
  const out = execFileSync(process.execPath, how === 'import' ? ['--input-type=module', '-e', script] : ['-e', script], {
    cwd: ROOT,
    encoding: 'utf8'
  })
  return (JSON.parse(out) as Array<string>).sort()
}

describe('the declarations tell the truth (R-104)', () => {
  it('reads every entry point of package.json "exports"', () => {
    expect(entries.map((e) => e.key)).toEqual([
      '.',
      './rules',
      './client',
      './sql',
      './arbitraries',
      './conformance',
      './openapi',
      './react-admin',
      './decisions'
    ])
  })

  it('counts a codec as a value and a type alone as none (the checker is read rightly)', () => {
    // Budget is a codec and a type (src/budget/stored.ts), BudgetJson only a type (src/budget/model.ts).
    const values = declaredValues(join(ROOT, 'dist/rules.d.ts'))
    expect([values.includes('Budget'), values.includes('BudgetJson')]).toEqual([true, false])
  })

  for (const { key, esm, cjs } of entries) {
    it(`${key}: the values dist declares are the keys the module has, under ESM and CommonJS`, () => {
      const declared = { esm: declaredValues(join(ROOT, esm.types)), cjs: declaredValues(join(ROOT, cjs.types)) }
      const runtime = { esm: runtimeKeys(esm.default, 'import'), cjs: runtimeKeys(cjs.default, 'require') }
      expect(declared.esm.length).toBeGreaterThan(0)
      expect(declared).toEqual(runtime)
    }, 60_000)
  }
})
