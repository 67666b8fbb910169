// The glue at the root, as a fetch-style handler (Hono, a Worker) writes it: the query
// read from the request's URL, the reply returned as a Web Response.
import { endpoints, rawQuery, respondIndex, toResponse, type Session } from 'budget-rules'

export function page(request: Request, session: Session, records: ReadonlyArray<unknown>): Response {
  const query: string = rawQuery(new URL(request.url))
  return toResponse(
    respondIndex({
      request: { headers: request.headers, query },
      session,
      endpoint: endpoints.bankTransactions,
      records,
      request_id: 'req-1'
    })
  )
}

export const forms: ReadonlyArray<string> = [rawQuery('?_start=0'), rawQuery(new URLSearchParams({ _start: '0' }))]
