/**
 * respondBudgetIndex: GET /v1/budgets (contract section 8, R-17, R-112). The company's budgets as
 * stored, each checked and brought to today, then paged, filtered and sorted; a malformed budget
 * is the server's 500 naming it, and a stranger is refused before any budget is looked at.
 */
import { describe, expect, it } from 'vitest'
import { type BudgetIndexContext, respondBudgetIndex } from '../api'
import { baseBudget, headers, JSON_HEADERS, memberPageReasons as decided, monthly, session } from '../fixtures'

const context = (query: string, budgets: ReadonlyArray<object>, extra: Partial<BudgetIndexContext> = {}): BudgetIndexContext => ({
  request: { headers: headers(), query },
  session: session('member'),
  budgets,
  today: '2026-11-22',
  request_id: 'req-1',
  ...extra
})

/** The 500 of a malformed stored budget, its message naming what is wrong. */
const storedError = (mistake: string) => ({
  status: 500,
  headers: JSON_HEADERS,
  body: { error: 'internal_error', message: `Internal server error: ${mistake}` }
})

/** Monthly, its period 2026-10-18..2026-11-18 over by 2026-11-22: the period of today starts on 2026-11-18. */
const lapsed = monthly({ id: 'b-2', name: 'Alpha', period_starts_on: '2026-10-18', period_ends_on: '2026-11-18' })
const closed = { ...baseBudget, id: 'b-3', name: 'Zulu', status: 'closed' }

describe('respondBudgetIndex', () => {
  it('pages the budgets that match, sorted, each as of today, with the reasons of every step', () => {
    expect(respondBudgetIndex(context('_field=name&status=open', [baseBudget, lapsed, closed]))).toStrictEqual({
      status: 200,
      headers: {
        'X-Total-Count': '2',
        'Content-Range': '0-1/2',
        'Access-Control-Expose-Headers': 'Content-Range, X-Total-Count',
        ...JSON_HEADERS
      },
      body: [
        {
          id: 'b-2',
          name: 'Alpha',
          access: 'everyone',
          currency: 'CLP',
          mode: 'funded',
          status: 'open',
          created_on: '2025-10-18',
          period_starts_on: '2026-11-18'
        },
        {
          id: 'b-1',
          name: 'Travel',
          access: 'everyone',
          currency: 'CLP',
          mode: 'funded',
          status: 'open',
          created_on: '2025-10-18',
          period_starts_on: '2025-10-18'
        }
      ],
      reasons: [
        ...decided(2, '[0, 25) by name asc', 'status $eq'),
        { rule: 'budget.stored', detail: '3 stored budgets are consistent' },
        { rule: 'budget.advance', detail: 'each budget as of 2026-11-22' },
        { rule: 'page.records', detail: '3 budgets, 2 match' },
        { rule: 'page.slice', detail: '2 records from 0' },
        { rule: 'page.headers', detail: 'Content-Range 0-1/2' }
      ]
    })
  })

  it('replies 500 naming the first malformed budget by its id (R-17)', () => {
    const budgets = [baseBudget, { ...baseBudget, id: 'b-2', balance_cents: -1 }, { ...baseBudget, id: 'b-3', name: 7 }]
    expect(respondBudgetIndex(context('', budgets))).toStrictEqual({
      ...storedError('budgets[1].balance_cents is -1, not (Cents | null)'),
      reasons: [
        ...decided(0, '[0, 25) by created_on asc', 'no filters'),
        { rule: 'budget.stored', detail: 'malformed stored budget b-2: balance_cents is -1, not (Cents | null)' }
      ]
    })
  })

  it('replies 500 naming a malformed budget without a string id by its place, each of its faults listed', () => {
    const budgets = [baseBudget, { ...baseBudget, id: 7, name: 8 }]
    expect(respondBudgetIndex(context('', budgets))).toStrictEqual({
      ...storedError('budgets[1].id is 7, not string; budgets[1].name is 8, not string'),
      reasons: [
        ...decided(0, '[0, 25) by created_on asc', 'no filters'),
        { rule: 'budget.stored', detail: 'malformed stored budget at 1: id is 7, not string; name is 8, not string' }
      ]
    })
  })

  it('replies 401 to a caller without a key before any budget is looked at (R-112)', () => {
    const malformed = { ...baseBudget, balance_cents: -1 }
    expect(respondBudgetIndex(context('', [malformed], { request: { headers: {}, query: '' } }))).toStrictEqual({
      status: 401,
      headers: { 'X-Request-Id': 'req-1' },
      body: null,
      reasons: [{ rule: 'auth.bearer', detail: 'no Authorization header' }]
    })
  })

  it('replies an empty page when the company has no budgets', () => {
    expect(respondBudgetIndex(context('', []))).toStrictEqual({
      status: 200,
      headers: {
        'X-Total-Count': '0',
        'Content-Range': '*/0',
        'Access-Control-Expose-Headers': 'Content-Range, X-Total-Count',
        ...JSON_HEADERS
      },
      body: [],
      reasons: [
        ...decided(0, '[0, 25) by created_on asc', 'no filters'),
        { rule: 'budget.stored', detail: '0 stored budgets are consistent' },
        { rule: 'budget.advance', detail: 'each budget as of 2026-11-22' },
        { rule: 'page.records', detail: '0 budgets, 0 match' },
        { rule: 'page.slice', detail: '0 records from 0' },
        { rule: 'page.headers', detail: 'Content-Range */0' }
      ]
    })
  })
})
