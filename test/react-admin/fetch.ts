/**
 * A recording `fetch` for the data provider's tests: each call is kept (URL, method, headers,
 * body), and answered by the next reply given, or by a function of the call. Nothing is sent.
 */
import type { FetchLike, FetchReply } from '../../src/react-admin'

/** One call as the provider made it. */
export interface Recorded {
  readonly url: string
  readonly method: string
  readonly headers: Record<string, string>
  readonly body: string | undefined
  readonly signal: AbortSignal
}

/** A reply to give: a status, headers and a body (JSON unless a string), or a fetch error. */
export type Canned =
  | { readonly status: number; readonly headers?: Record<string, string>; readonly body?: unknown; readonly statusText?: string }
  | { readonly fail: Error }

const replyOf = (c: Canned): Promise<FetchReply> => {
  if ('fail' in c) return Promise.reject(c.fail)
  const text = c.body === undefined ? '' : typeof c.body === 'string' ? c.body : JSON.stringify(c.body)
  return Promise.resolve(
    new Response(c.status === 204 ? null : text, {
      status: c.status,
      statusText: c.statusText ?? '',
      headers: c.headers ?? {}
    })
  )
}

/** A fetch that records its calls and answers with `answer(call)`. */
export const recorder = (answer: (call: Recorded, index: number) => Canned | Promise<FetchReply>) => {
  const calls: Array<Recorded> = []
  const fetch: FetchLike = (url, init) => {
    const call: Recorded = { url, method: init.method, headers: { ...init.headers }, body: init.body, signal: init.signal }
    calls.push(call)
    const a = answer(call, calls.length - 1)
    return a instanceof Promise ? a : replyOf(a)
  }
  return { calls, fetch }
}

/** A fetch answering each call with the next of `replies` (the last one again when they run out). */
export const replying = (...replies: ReadonlyArray<Canned>) =>
  recorder((_, i) => replies[Math.min(i, replies.length - 1)] as Canned)

/** A page of an index: the records and the headers the service sends with them. */
export const pageOf = (records: ReadonlyArray<unknown>, total: number, start = 0): Canned => ({
  status: 200,
  headers: {
    'X-Total-Count': String(total),
    'Content-Range': records.length === 0 ? `*/${total}` : `${start}-${start + records.length - 1}/${total}`,
    'Content-Type': 'application/json; charset=utf-8'
  },
  body: records
})
