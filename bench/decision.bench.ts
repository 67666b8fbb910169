/**
 * The update decision (PATCH /v1/budgets/{id}, `respondBudgetUpdate`) against what a user would
 * write instead: the contract read by hand in plain JavaScript, and the same with its permission
 * and status rules in json-rules-engine or its permissions in CASL (bench/decision/). Every
 * contender answers with the reply without `reasons`, the rules consulted, which only the
 * library gives; the library's timed call still builds them.
 */
import type { BudgetContext } from '../src/index'
import { root } from './library'
import type { Case, Contender } from './case'
import { respondWithCasl } from './decision/casl'
import { contexts } from './decision/contexts'
import { respondPlain } from './decision/plain'
import { respondWithRulesEngine } from './decision/rules-engine'

const { respondBudgetUpdate } = root

const contenders = (context: BudgetContext): ReadonlyArray<Contender> => [
  {
    name: 'budget-rules respondBudgetUpdate',
    kind: 'library',
    run: () => respondBudgetUpdate(context),
    answer: () => {
      const { reasons, ...reply } = respondBudgetUpdate(context)
      // The rules consulted are the library's own extra: there, then left out of the comparison.
      if (reasons.length === 0) throw new Error('respondBudgetUpdate gave no reasons')
      return reply
    }
  },
  { name: 'plain JavaScript', kind: 'baseline', run: () => respondPlain(context) },
  { name: 'json-rules-engine', kind: 'peer', run: () => respondWithRulesEngine(context) },
  { name: 'CASL', kind: 'peer', run: () => respondWithCasl(context) }
]

const decisionCase = (title: string, context: BudgetContext): Case => ({
  suite: 'decision',
  title: `${title} (replies compared without reasons)`,
  contenders: contenders(context),
  // Issue 29: within a quarter of the plain reading, refused or not.
  goals: [{ against: 'plain JavaScript', atMost: 1.25 }]
})

/** The five update requests, each answered alike by every contender before any is timed. */
export const cases = (): Promise<ReadonlyArray<Case>> =>
  Promise.resolve([
    decisionCase('an admin renames a budget: 200', contexts.adminRenames),
    decisionCase("the budget's manager changes its description: 200", contexts.managerDescribes),
    decisionCase('a manager changes manager_id: 403', contexts.managerChangesManager),
    decisionCase('an admin sends a blank name, an impossible date, a negative amount: 422', contexts.adminInvalid),
    decisionCase('an admin renames a monthly budget whose period ended 100 days ago: 200', contexts.adminRenamesLapsed)
  ])
