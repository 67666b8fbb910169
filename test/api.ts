/**
 * The package's two typed entry points as one module, for the tests: the root (facades, client
 * functions and the types they take and return) and `budget-rules/rules` (the typed layer).
 * Tests of a single module import that module instead.
 */
export * from '../src/index'
export * from '../src/rules'
// Names that are a type in the root and a codec too in rules: the codec (value and type).
export { Budget, Session } from '../src/rules'
