/**
 * Decoding a typical index query (a window and three typed filters) into a page request.
 * The library's side is `decodePageRequest`: the query string to the typed request, which is
 * what `qs` or `URLSearchParams` plus hand validation give a user; `planIndex` would add the
 * authentication and the session's scope, which these do not do. Every contender answers in one
 * shape: the window, the sort, and each filter as field, operator and typed values (instants in
 * milliseconds).
 */
import qs from 'qs'
import { root, rules } from './library'
import type { Case } from './case'

const { endpoints } = root
const { decodePageRequest } = rules

const QUERY = new URLSearchParams([
  ['_start', '0'],
  ['_end', '100'],
  ['_order', 'desc'],
  ['status[$in]', '["pending"]'],
  ['amount[$gte]', '1000'],
  ['created_at[$lt]', '2026-11-22T00:00:00Z']
])
  .toString()
  .replaceAll('+', '%20')

interface Decoded {
  readonly start: number
  readonly end: number
  readonly field: string
  readonly order: 'asc' | 'desc'
  readonly filters: ReadonlyArray<{ readonly field: string; readonly op: string; readonly values: ReadonlyArray<unknown> }>
}

const library = (): Decoded => {
  const { result } = decodePageRequest(endpoints.bankTransactions, QUERY)
  if (result._tag === 'Left') throw new Error(`decodePageRequest refused: ${JSON.stringify(result.left)}`)
  const { window, sort, filters } = result.right
  return {
    start: window.start,
    end: window.end,
    field: sort.field,
    order: sort.order,
    filters: filters.map(({ field, op, values }) => ({
      field,
      op,
      values: values.map((v) => (typeof v === 'object' ? v.seconds * 1000 + v.nanos / 1e6 : v))
    }))
  }
}

// -------------------------------------------------------------------------------------
// by hand: what a user checks once the string is split
// -------------------------------------------------------------------------------------

const SORTABLE = new Set(['created_at', 'updated_at', 'amount'])
const STATUSES = new Set(['authorized', 'pending'])
const OPS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin'])
const INTEGER = /^-?(0|[1-9]\d*)$/
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

const bad = (what: string): never => {
  throw new Error(`400: ${what}`)
}

const integerOf = (s: string | undefined, fallback: number): number =>
  s === undefined ? fallback : INTEGER.test(s) ? Number(s) : bad(`${s} is not an integer`)

const typedValue = (field: string, raw: string): unknown => {
  switch (field) {
    case 'status':
      return STATUSES.has(raw) ? raw : bad(`status ${raw}`)
    case 'amount':
      return integerOf(raw, 0)
    case 'created_at':
    case 'updated_at':
      return INSTANT.test(raw) && !Number.isNaN(Date.parse(raw)) ? Date.parse(raw) : bad(`${field} ${raw}`)
    case 'id':
      return raw
    default:
      return bad(`unknown field ${field}`)
  }
}

const filterOf = (field: string, op: string, raw: string) => {
  if (!OPS.has(op)) bad(`operator ${op}`)
  const list = op === '$in' || op === '$nin'
  const parsed: unknown = list ? JSON.parse(raw) : [raw]
  if (!Array.isArray(parsed) || !parsed.every((v): v is string => typeof v === 'string')) return bad(`${field} list`)
  return { field, op, values: parsed.map((v) => typedValue(field, v)) }
}

const windowOf = (
  start: string | undefined,
  end: string | undefined,
  field = 'created_at',
  order = 'asc'
): Omit<Decoded, 'filters'> => {
  const s = integerOf(start, 0)
  const e = integerOf(end, s + 25)
  if (s < 0 || e < s) bad('_start and _end')
  if (e - s > 2000) throw new Error('416: more than 2000 records')
  if (!SORTABLE.has(field)) bad(`_field ${field}`)
  return order === 'asc' || order === 'desc' ? { start: s, end: e, field, order } : bad(`_order ${order}`)
}

const FILTER_KEY = /^([a-z_]+)\[(\$[a-z]+)\]$/

const withURLSearchParams = (): Decoded => {
  const params = new URLSearchParams(QUERY)
  const filters = []
  for (const [key, raw] of params) {
    if (key.startsWith('_')) continue
    const m = FILTER_KEY.exec(key)
    filters.push(m === null ? filterOf(key, '$eq', raw) : filterOf(m[1] as string, m[2] as string, raw))
  }
  const text = (k: string) => params.get(k) ?? undefined
  return { ...windowOf(text('_start'), text('_end'), text('_field'), text('_order')), filters }
}

const withQs = (): Decoded => {
  const parsed = qs.parse(QUERY)
  const text = (k: string) => {
    const v = parsed[k]
    return v === undefined ? undefined : typeof v === 'string' ? v : bad(`${k} twice`)
  }
  const filters = []
  for (const [field, value] of Object.entries(parsed)) {
    if (field.startsWith('_')) continue
    if (typeof value === 'string') filters.push(filterOf(field, '$eq', value))
    else if (typeof value === 'object' && !Array.isArray(value))
      for (const [op, raw] of Object.entries(value)) filters.push(filterOf(field, op, typeof raw === 'string' ? raw : bad(op)))
    else bad(field)
  }
  return { ...windowOf(text('_start'), text('_end'), text('_field'), text('_order')), filters }
}

/** One case: the same typed request from the library, `qs` and `URLSearchParams`. */
export const cases = (): Promise<ReadonlyArray<Case>> =>
  Promise.resolve([
    {
      suite: 'query',
      title: 'a window and 3 typed filters ($in, $gte, $lt)',
      contenders: [
        {
          name: 'budget-rules decodePageRequest',
          kind: 'library',
          run: () => decodePageRequest(endpoints.bankTransactions, QUERY),
          answer: library
        },
        { name: 'qs.parse + hand validation', kind: 'peer', run: withQs },
        { name: 'URLSearchParams + hand validation', kind: 'baseline', run: withURLSearchParams }
      ]
    }
  ])
