/**
 * Where the update decision's time goes: the parts of `respondBudgetUpdate` timed one by one on
 * the first decision case (an admin renames a budget), beside the whole facade and the plain
 * reading of the contract. A diagnostic, not part of `npm run bench`: the parts are internal
 * modules, so it runs the sources (esbuild bundles it, fp-ts and io-ts as ES modules, as in the
 * built package). Run: npx esbuild bench/decision-parts.ts --bundle --platform=node
 * --format=esm --main-fields=module,main --outfile=reports/decision-parts.mjs && node reports/decision-parts.mjs
 */
import { either } from 'fp-ts'
import { Bench } from 'tinybench'
import { authenticate } from '../src/auth/session'
import { decodeUpdateBody } from '../src/budget/patch'
import { checkRow, readRow } from '../src/budget/stored'
import { decideUpdate } from '../src/budget/update'
import { validateUpdate } from '../src/budget/validation'
import { BudgetContext } from '../src/facade/budget-context'
import { respondBudgetUpdate } from '../src/facade/budget-update'
import { contexts } from './decision/contexts'
import { respondPlain } from './decision/plain'

const c = contexts.adminRenames
const budget = c.budget as object
const row = readRow(budget)
const checked = checkRow(row)
if (either.isLeft(checked)) throw new Error('the case budget is malformed')
const sent = decodeUpdateBody(c.request.body)
if (either.isLeft(sent)) throw new Error('the case body is malformed')
const update = { rights: 'full' as const, budget: checked.right, sent: sent.right, today: c.today as never }

const bench = new Bench({ time: 500, warmupTime: 100 })
bench
  .add('respondBudgetUpdate (the whole facade)', () => respondBudgetUpdate(c))
  .add('plain JavaScript (the whole reply)', () => respondPlain(c))
  .add('the context checked (BudgetContext.is)', () => BudgetContext.is(c))
  .add('rows 1-4 (authenticate)', () => authenticate(c.request, c.session))
  .add('the budget read (readRow)', () => readRow(budget))
  .add('the budget checked (checkRow, R-17)', () => checkRow(row))
  .add('the body decoded (decodeUpdateBody)', () => decodeUpdateBody(c.request.body))
  .add('JSON.parse of the body alone', () => JSON.parse(c.request.body) as unknown)
  .add('rows 9-13 (decideUpdate)', () => decideUpdate(update))
  .add('row 12 alone (validateUpdate)', () => validateUpdate(update, update.sent))
await bench.run()
console.table(
  bench.tasks.map((t) => ({
    part: t.name,
    'mean (µs)': ((t.result as { latency: { mean: number } }).latency.mean * 1000).toFixed(3)
  }))
)
