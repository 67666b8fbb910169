/**
 * The react-admin data provider over the service: each call planned by ./request.ts
 * (the query, the body, or the refusal of what the service would refuse), sent through the
 * `fetch` it is given with the caller's key and company, and the reply read back: the records
 * and X-Total-Count of a page, the budget an update returns, or ra-core's `HttpError` with the
 * service's message (`parseErrorResponse`) and, on 422, each field's first message where a
 * react-admin form shows it. The only I/O is that `fetch`; a reply that never comes is a
 * rejection after `timeoutMs`, never a hang.
 *
 * @example
 * const provider = reactAdminDataProvider({ url: 'http://127.0.0.1:3000', token: 'demo-member', companyId: 'c-acme' })
 * // const { data, total } = await provider.getList('bank_transactions', { pagination: { page: 1, perPage: 25 }, sort: { field: 'amount', order: 'DESC' }, filter: {} })
 * typeof provider.getList //=> 'function'
 *
 * @since 0.3.0
 */
import { type DataProvider, HttpError } from 'ra-core'
import { parseErrorResponse } from '../client/error'
import { describeValue, typeError } from '../json/describe'
import { isJsonObject } from '../json/value'
import { planAction, planCreate, planList, planMany, planOne, planUpdate, type Planned, type Send, unavailable } from './request'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The reply of a `fetch`, as far as the provider reads it: the status and its text, the
 * headers (`get`), and the body as text.
 *
 * @example
 * const reply: FetchReply = new Response('[]', { status: 200, headers: { 'X-Total-Count': '0' } })
 * reply.headers.get('x-total-count') //=> '0'
 *
 * @category model
 * @since 0.3.0
 */
export interface FetchReply {
  readonly status: number
  readonly statusText: string
  readonly headers: {
    /** The value of a header, in any case of its name; null when absent. */
    get(name: string): string | null
  }
  /** The whole body as text. */
  text(): Promise<string>
}

/**
 * A `fetch` as the provider calls it: a URL and `{ method, headers, body?, signal }`.
 * `globalThis.fetch` is one; a test passes a recording one.
 *
 * @example
 * const fetch: FetchLike = (url, init) => Promise.resolve(new Response(`${init.method} ${url}`))
 * typeof fetch //=> 'function'
 *
 * @category model
 * @since 0.3.0
 */
export type FetchLike = (
  url: string,
  init: {
    readonly method: string
    readonly headers: Record<string, string>
    readonly body?: string
    readonly signal: AbortSignal
  }
) => Promise<FetchReply>

/**
 * What the provider is built from: the service's base URL, the API key, the company the calls
 * run in (company-id), and optionally the `fetch` to send with (default `globalThis.fetch`)
 * and how long a reply may take (default 30,000 ms).
 *
 * @example
 * const options: ReactAdminOptions = { url: 'http://127.0.0.1:3000', token: 'demo-admin', companyId: 'c-acme', timeoutMs: 10_000 }
 * reactAdminDataProvider(options).getOne === undefined //=> false
 *
 * @category model
 * @since 0.3.0
 */
export interface ReactAdminOptions {
  readonly url: string
  readonly token: string
  readonly companyId: string
  readonly fetch?: FetchLike
  readonly timeoutMs?: number
}

/**
 * What one click of an action sends: the record's id, the amount (top-up and withdraw), and the
 * click's Idempotency-Key (a new one is made when none is given: give the same key to a retry of
 * the same click).
 *
 * @example
 * const click: ActionParams = { id: 'b-travel', amount_cents: 5000, idempotencyKey: 'click-1' }
 * click.amount_cents //=> 5000
 *
 * @category model
 * @since 0.3.0
 */
export interface ActionParams {
  readonly id: string
  readonly amount_cents?: number
  readonly idempotencyKey?: string
}

/**
 * The data provider, and the service's actions react-admin has no method for: authorizing a
 * transaction, topping a budget up, withdrawing from it. Each resolves with `{ data }`, the
 * record the service returns, or rejects as the other methods do (a 409 with the service's
 * message).
 *
 * @example
 * const provider: BudgetRulesDataProvider = reactAdminDataProvider({ url: 'http://127.0.0.1:3000', token: 'demo-admin', companyId: 'c-acme' })
 * // await provider.topUp({ id: 'b-travel', amount_cents: 5000 })
 * typeof provider.authorize //=> 'function'
 *
 * @category model
 * @since 0.3.0
 */
export type BudgetRulesDataProvider = DataProvider & {
  /** Authorizes a pending bank transaction: `POST /v1/banking/bank_transactions/{id}/authorize`. */
  readonly authorize: (params: ActionParams) => Promise<{ data: Record<string, unknown> }>
  /** Tops a budget up by `amount_cents`: `POST /v1/budgets/{id}/top_up`. */
  readonly topUp: (params: ActionParams) => Promise<{ data: Record<string, unknown> }>
  /** Withdraws `amount_cents` from a budget: `POST /v1/budgets/{id}/withdraw`. */
  readonly withdraw: (params: ActionParams) => Promise<{ data: Record<string, unknown> }>
}

/** How long a reply may take unless told: a slow page of 2000 records comes well within it. */
const DEFAULT_TIMEOUT_MS = 30_000
/** The longest a timer holds (2^31 - 1 ms). */
const MAX_TIMEOUT_MS = 2_147_483_647

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** A version 4 UUID from the platform's random source, which browsers give on plain http too (randomUUID needs https). */
const idempotencyKey = (): string => {
  const b = globalThis.crypto.getRandomValues(new Uint8Array(16))
  b[6] = ((b[6] as number) & 0x0f) | 0x40
  b[8] = ((b[8] as number) & 0x3f) | 0x80
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** A reply read whole. */
interface Reply {
  readonly status: number
  readonly statusText: string
  readonly headers: FetchReply['headers']
  readonly text: string
}

/**
 * The HttpError of a reply that is not 2xx: the service's message, else the status
 * text; on 422, `body.errors` holds each field's first message, as react-admin forms read it.
 */
const rejection = (reply: Reply): HttpError => {
  const problem = parseErrorResponse({ status: reply.status, headers: reply.headers, body: reply.text })
  const message = problem.message ?? (reply.statusText !== '' ? reply.statusText : `HTTP ${reply.status}`)
  const json = parseJson(reply.text)
  const body = json === undefined ? null : json
  if (reply.status !== 422 || problem.field_errors === undefined) return new HttpError(message, reply.status, body)
  const errors = Object.fromEntries(
    Object.entries(problem.field_errors).flatMap(([field, texts]) => (texts[0] === undefined ? [] : [[field, texts[0]]]))
  )
  return new HttpError(message, reply.status, { ...(isJsonObject(json) ? json : {}), errors })
}

/** The HttpError of a 2xx reply whose body is not what the endpoint sends. */
const unreadable = (send: Send, reply: Reply, what: string): HttpError =>
  new HttpError(`The reply to ${send.method} ${send.path} is not ${what}`, reply.status, parseJson(reply.text) ?? null)

const refused = (refusal: Exclude<Planned, Send>): Promise<never> =>
  Promise.reject(
    new HttpError(
      refusal.message,
      refusal.status,
      // The body the service would send: its 416 names no error.
      refusal.status === 416
        ? { message: refusal.message }
        : { error: refusal.status === 405 ? 'method_not_allowed' : 'bad_request', message: refusal.message }
    )
  )

// -------------------------------------------------------------------------------------
// provider
// -------------------------------------------------------------------------------------

/**
 * An ra-core `DataProvider` over the service, for the company `companyId` as the
 * holder of `token`. Resources: `budgets`, `bank_transactions`, `companies` (lists, getOne,
 * getMany, getManyReference; update on `budgets`) and `bank_recipients` (create). A call the
 * service would refuse for its shape rejects with a 400 `HttpError` naming the field, a method
 * it has no endpoint for with a 405, both without sending; a failed `fetch`, an abort or no
 * reply within `timeoutMs` with an `HttpError` of status 0. Options that are not of their
 * types are a `TypeError` at once.
 *
 * @example
 * const provider = reactAdminDataProvider({ url: 'http://127.0.0.1:3000/', token: 'demo-manager', companyId: 'c-acme' })
 * // await provider.update('budgets', { id: 'b-travel', data: { ...travel, name: 'Trips' }, previousData: travel })
 * // sends PATCH http://127.0.0.1:3000/v1/budgets/b-travel {"budget":{"name":"Trips"}}
 * Object.keys(provider)
 * //=> ['getList', 'getOne', 'getMany', 'getManyReference', 'update', 'updateMany', 'create', 'delete', 'deleteMany', 'authorize', 'topUp', 'withdraw']
 * reactAdminDataProvider({ url: 'http://127.0.0.1:3000', token: 'demo-admin', companyId: 'c-acme', timeoutMs: 0 })
 * //=> throws TypeError('reactAdminDataProvider: timeoutMs is 0, not a whole number of milliseconds from 1 to 2147483647')
 *
 * @category provider
 * @since 0.3.0
 */
export const reactAdminDataProvider = (options: ReactAdminOptions): BudgetRulesDataProvider => {
  const { url, token, companyId, timeoutMs = DEFAULT_TIMEOUT_MS } = options
  const fetch: FetchLike = options.fetch ?? ((u, init) => globalThis.fetch(u, init))
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url))
    throw typeError('reactAdminDataProvider', 'url', url, 'an http(s) URL')
  if (typeof token !== 'string' || token === '') throw typeError('reactAdminDataProvider', 'token', token, 'an API key')
  if (typeof companyId !== 'string' || companyId === '')
    throw typeError('reactAdminDataProvider', 'companyId', companyId, 'a company id')
  if (typeof fetch !== 'function') throw typeError('reactAdminDataProvider', 'fetch', fetch, 'a function')
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS)
    throw typeError(
      'reactAdminDataProvider',
      'timeoutMs',
      timeoutMs,
      `a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`
    )
  const base = url.replace(/\/+$/, '')

  /**
   * Sends `send` and reads its reply whole, within `timeoutMs` (racing the fetch too, so that a
   * fetch that ignores its signal cannot hang the call); `signal` is react-admin's, when it
   * cancels a query. A reply that is not 2xx rejects with its HttpError.
   */
  const exchange = async (send: Send, signal: unknown, key?: unknown): Promise<Reply> => {
    const controller = new AbortController()
    let why = ''
    const stop = (reason: string) => {
      if (why !== '') return
      why = reason
      controller.abort()
    }
    const stopped = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => {
        reject(new HttpError(why, 0, null))
      })
    })
    const timer = setTimeout(() => {
      stop(`No reply to ${send.method} ${send.path} within ${timeoutMs} ms`)
    }, timeoutMs)
    const cancelled = () => {
      stop(`${send.method} ${send.path} was aborted`)
    }
    const caller = signal instanceof AbortSignal ? signal : undefined
    if (caller?.aborted === true) cancelled()
    caller?.addEventListener('abort', cancelled)
    const headers: Record<string, string> = { Authorization: `Bearer ${token}` }
    if (send.company) headers['company-id'] = companyId
    if (send.body !== undefined) headers['Content-Type'] = 'application/json'
    if (send.idempotent === true) headers['Idempotency-Key'] = typeof key === 'string' && key !== '' ? key : idempotencyKey()
    const work = (async (): Promise<Reply> => {
      let response: FetchReply
      try {
        response = await fetch(`${base}${send.path}`, {
          method: send.method,
          headers,
          ...(send.body === undefined ? {} : { body: send.body }),
          signal: controller.signal
        })
        return {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
          text: await response.text()
        }
      } catch (error) {
        if (why !== '') throw new HttpError(why, 0, null)
        throw new HttpError(
          `${send.method} ${send.path} failed: ${error instanceof Error ? error.message : describeValue(error)}`,
          0,
          null
        )
      }
    })()
    try {
      const reply = await Promise.race([work, stopped])
      if (reply.status < 200 || reply.status > 299) throw rejection(reply)
      return reply
    } finally {
      clearTimeout(timer)
      caller?.removeEventListener('abort', cancelled)
      // Whichever lost the race settles unobserved.
      work.catch(() => undefined)
      stopped.catch(() => undefined)
    }
  }

  /** The records and total of an index reply: a bare array, or `{data}`, and X-Total-Count. */
  const page = async (send: Send, signal: unknown): Promise<{ data: Array<Record<string, unknown>>; total: number }> => {
    const reply = await exchange(send, signal)
    const json = parseJson(reply.text)
    const data = Array.isArray(json) ? json : isJsonObject(json) && Array.isArray(json.data) ? json.data : undefined
    if (data === undefined || !data.every(isJsonObject)) throw unreadable(send, reply, 'a list of records')
    const total = Number(reply.headers.get('x-total-count') ?? Number.NaN)
    if (!Number.isSafeInteger(total) || total < 0) throw unreadable(send, reply, 'a page with an X-Total-Count')
    return { data, total }
  }

  /** The one record of a reply (a budget, a recipient). */
  const record = async (send: Send, signal: unknown, key?: unknown): Promise<Record<string, unknown>> => {
    const reply = await exchange(send, signal, key)
    const json = parseJson(reply.text)
    if (!isJsonObject(json)) throw unreadable(send, reply, 'a record')
    return json
  }

  /** `params.signal` and `params.meta.idempotencyKey`, read without throwing. */
  const option = (params: unknown, read: (p: Record<string, unknown>) => unknown): unknown => {
    try {
      return isJsonObject(params) ? read(params) : undefined
    } catch {
      return undefined
    }
  }
  const signalOf = (params: unknown) => option(params, (p) => p.signal)
  const keyOf = (params: unknown) => option(params, (p) => (isJsonObject(p.meta) ? p.meta.idempotencyKey : undefined))

  const list = async (resource: string, params: unknown) => {
    const planned = planList(resource, params)
    if (planned._tag === 'Refuse') return refused(planned)
    return page(planned, signalOf(params))
  }

  /** One click of an action: planned, then sent with its Idempotency-Key. */
  const act = async (action: 'authorize' | 'top_up' | 'withdraw', params: unknown) => {
    const planned = planAction(
      action,
      option(params, (p) => p.id),
      option(params, (p) => p.amount_cents)
    )
    if (planned._tag === 'Refuse') return refused(planned)
    return {
      data: await record(
        planned,
        undefined,
        option(params, (p) => p.idempotencyKey)
      )
    }
  }

  // ra-core's methods are generic in the record type; the service's records are what it sends.
  const provider = {
    getList: list,
    getOne: async (resource: string, params: unknown) => {
      const planned = planOne(
        resource,
        option(params, (p) => p.id)
      )
      if (planned._tag === 'Refuse') return refused(planned)
      if (planned.path.includes('?')) {
        const { data } = await page(planned, signalOf(params))
        const found = data[0]
        if (found === undefined) throw new HttpError('Not found', 404, { error: 'not_found', message: 'Not found' })
        return { data: found }
      }
      return { data: await record(planned, signalOf(params)) }
    },
    getMany: async (resource: string, params: unknown) => {
      const planned = planMany(
        resource,
        option(params, (p) => p.ids)
      )
      if ('_tag' in planned) return refused(planned)
      const pages = await Promise.all(planned.map((send) => page(send, signalOf(params))))
      return { data: pages.flatMap((p) => p.data) }
    },
    getManyReference: async (resource: string, params: unknown) => {
      const target = option(params, (p) => p.target)
      const filter = option(params, (p) => p.filter)
      if (typeof target !== 'string')
        return refused({ _tag: 'Refuse', status: 400, message: `target is ${describeValue(target)}, not a field` })
      return list(resource, {
        ...(isJsonObject(params) ? params : {}),
        filter: { ...(isJsonObject(filter) ? filter : {}), [target]: option(params, (p) => p.id) }
      })
    },
    update: async (resource: string, params: unknown) => {
      const planned = planUpdate(resource, params)
      if (planned._tag === 'Refuse') return refused(planned)
      return { data: await record(planned, signalOf(params)) }
    },
    updateMany: (resource: string) => refused(unavailable('updateMany', resource)),
    create: async (resource: string, params: unknown) => {
      const planned = planCreate(resource, params)
      if (planned._tag === 'Refuse') return refused(planned)
      const created = await record(planned, signalOf(params), keyOf(params))
      // A recipient is known by its RUT, bank and account (the 409 of one enrolled twice).
      return { data: { ...created, id: `${String(created.rut)}/${String(created.bank_id)}/${String(created.account_number)}` } }
    },
    delete: (resource: string) => refused(unavailable('delete', resource)),
    deleteMany: (resource: string) => refused(unavailable('deleteMany', resource)),
    authorize: (params: unknown) => act('authorize', params),
    topUp: (params: unknown) => act('top_up', params),
    withdraw: (params: unknown) => act('withdraw', params)
  }
  return provider as unknown as BudgetRulesDataProvider
}
