/**
 * The decision service's requests (R-130), on `node:http` with no framework: a service of five
 * routes whose every request is a JSON body in and a JSON body out gains nothing from a router,
 * and a `Request`/`Response` pair per request costs what the plain handler it is measured
 * against does not pay (docs/performance.md).
 *
 * - `POST /v1/decide`: one case, answered `{ status, headers, body, reasons, budget, record }`;
 * - `POST /v1/decide/batch`: `{ cases: [...] }`, up to 1000, answered `{ answers: [...] }` in order;
 * - `GET /healthz`, `GET /metrics` (R-123), `GET /openapi.json` (its own document).
 *
 * Nothing is kept between requests but the metrics: any number of instances answer alike. What
 * is not a case is a 400 problem naming the field; a body over the limit a 413; with a token
 * (`DECIDE_TOKEN`), a request to `/v1/*` without it a 401. Never throws: anything unforeseen is
 * a 500 problem, reported.
 *
 * @since 0.5.0
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import type { Logger } from 'pino'
import { bearerKey } from '../../auth/session'
import { type Answer, answerCase } from '../../decisions/answer'
import type { DecisionRecord } from '../../decisions/record'
import { describeValue } from '../../json/describe'
import { isJsonObject } from '../../json/value'
import { JSON_CONTENT_TYPE } from '../../reply/reply'
import { logRequest, type RequestLine } from '../log'
import type { RequestMetrics } from '../metrics'
import { keyHash, keyIdOf } from '../../store/keys'
import { MAX_BATCH_CASES } from './limits'
import { decisionServiceDocument } from './openapi'

/** What the service is built from. */
export interface DecisionServiceOptions {
  /** The instant of each decision record. */
  readonly clock: () => Date
  /** The bearer token `/v1/*` asks for, or undefined for none (`DECIDE_TOKEN`). */
  readonly token: string | undefined
  /** The largest request body read, in bytes. */
  readonly bodyLimitBytes: number
  readonly logger: Logger
  readonly metrics: RequestMetrics
  /** Handed each record made, in the order of the answers (`--records FILE`), or null to keep none. */
  readonly records: ((record: DecisionRecord) => void) | null
  /** Told of every exception that became a 500, with the request's id. */
  readonly report: (error: unknown, requestId: string) => void
}

/** A reply the service writes: a status, headers, and a body already JSON (or none). */
interface Sent {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
  readonly json: string | null
  /** What the request's log line says of its decision: one case's, none for a batch or a refusal. */
  readonly decision?: Answer
}

/** A case answered, and the endpoint it named (the metrics' label, a record or not). */
interface Decided {
  readonly endpoint: string
  readonly answer: Answer
}

const problem = (status: number, error: string, message: string): Sent => ({
  status,
  json: JSON.stringify({ error, message })
})

/** The routes and the method each takes: a known path asked with another method is a 405. */
const ROUTES: Readonly<Record<string, string>> = {
  '/v1/decide': 'POST',
  '/v1/decide/batch': 'POST',
  '/healthz': 'GET',
  '/metrics': 'GET',
  '/openapi.json': 'GET'
}

/** Why a body was not read whole: too long, or the client left. */
class BodyRefused extends Error {
  constructor(readonly sent: Sent | null) {
    super('body refused')
  }
}

// A byte order mark before the JSON is dropped, as RFC 8259 lets a parser do.
const utf8 = new TextDecoder('utf-8', { fatal: true })

/** The body as text, refused once it passes `limit` bytes (413), is not UTF-8 (400) or stops coming (no reply). */
const readBody = (req: IncomingMessage, limit: number): Promise<string> =>
  new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'])
    if (declared > limit) {
      reject(new BodyRefused(problem(413, 'payload_too_large', `The request body exceeds ${limit} bytes`)))
      return
    }
    const chunks: Array<Buffer> = []
    let length = 0
    req.on('data', (chunk: Buffer) => {
      length += chunk.length
      if (length > limit) {
        req.removeAllListeners('data')
        reject(new BodyRefused(problem(413, 'payload_too_large', `The request body exceeds ${limit} bytes`)))
      } else chunks.push(chunk)
    })
    req.on('end', () => {
      try {
        resolve(utf8.decode(Buffer.concat(chunks, length)))
      } catch {
        reject(new BodyRefused(problem(400, 'bad_request', 'The request body is not UTF-8')))
      }
    })
    const gone = () => {
      reject(new BodyRefused(null))
    }
    req.on('error', gone)
    req.on('close', () => {
      if (!req.complete) gone()
    })
  })

/** The body parsed as JSON, or the 400 that says it is not. */
const parse = (text: string): { readonly json: unknown } | Sent => {
  try {
    return { json: JSON.parse(text) as unknown }
  } catch (e) {
    return problem(400, 'bad_request', `The request body is not JSON: ${(e as Error).message}`)
  }
}

const isSent = (u: { readonly json: unknown } | Sent): u is Sent => 'status' in u

/** The value of `name` in a query string (its last), or undefined. */
const queryValue = (query: string, name: string): string | undefined => new URLSearchParams(query).getAll(name).at(-1)

/**
 * Whether the answers carry their records (`?record=true`, the default) or leave them out
 * (`?record=false`: a server that keeps no records, or keeps its own, is sent half the bytes, and
 * none is made unless the records file wants it); null for another value.
 */
const withRecord = (query: string): boolean | null => {
  const value = query === '' ? undefined : queryValue(query, 'record')
  return value === undefined || value === 'true' ? true : value === 'false' ? false : null
}

/** An answer without its record. */
const unrecorded = ({ status, headers, body, reasons, budget }: Answer): Omit<Answer, 'record'> => ({
  status,
  headers,
  body,
  reasons,
  budget
})

/**
 * The request listener of the decision service. Each request gets an X-Request-Id, a JSON log
 * line and its metrics (the reference server's, R-123).
 */
export const decisionService = (options: DecisionServiceOptions): RequestListener => {
  const { logger, metrics } = options
  const keyId = (key: string): string => keyIdOf(keyHash(key))
  const openapi = JSON.stringify(decisionServiceDocument)

  /**
   * The answer to a case and the endpoint it named, or why it is no case; its record made only
   * when it is sent or kept.
   */
  const answer = (c: unknown, at: string, requestId: string, at_path: string | undefined, sent: boolean): Decided | string => {
    const answered = answerCase(c, {
      at,
      request_id: requestId,
      keyId,
      recorded: sent || options.records !== null,
      ...(at_path === undefined ? {} : { at_path })
    })
    return answered._tag === 'Left'
      ? answered.left
      : { endpoint: (c as { readonly endpoint: string }).endpoint, answer: answered.right }
  }

  /** Counts and hands on what was decided, once the whole request is answered: a batch refused keeps nothing. */
  const decided = (all: ReadonlyArray<Decided>, sent: boolean): void => {
    for (const { endpoint, answer: a } of all) {
      const record = a.record
      const rule = a.reasons.at(-1)?.rule
      if (rule !== undefined) metrics.decision(endpoint, a.status, rule)
      if (record !== null) options.records?.(record)
      else if (sent || options.records !== null) metrics.dropped(endpoint)
    }
  }

  const decide = (json: unknown, requestId: string, recorded: boolean): Sent => {
    const a = answer(json, options.clock().toISOString(), requestId, undefined, recorded)
    if (typeof a === 'string') return problem(400, 'bad_request', a)
    decided([a], recorded)
    return { status: 200, json: JSON.stringify(recorded ? a.answer : unrecorded(a.answer)), decision: a.answer }
  }

  const batch = (json: unknown, requestId: string, recorded: boolean): Sent => {
    if (!isJsonObject(json) || !Object.hasOwn(json, 'cases'))
      return problem(400, 'bad_request', `The body is ${describeValue(json)}, not { "cases": [...] }`)
    const { cases } = json
    if (!Array.isArray(cases)) return problem(400, 'bad_request', `cases is ${describeValue(cases)}, not an array of cases`)
    if (cases.length > MAX_BATCH_CASES)
      return problem(400, 'bad_request', `cases holds ${cases.length} cases, more than ${MAX_BATCH_CASES}`)
    const all: Array<Decided> = []
    // A batch is decided at one instant.
    const at = options.clock().toISOString()
    for (let i = 0; i < cases.length; i++) {
      const a = answer(cases[i], at, `${requestId}.${i}`, `cases[${i}]`, recorded)
      if (typeof a === 'string') return problem(400, 'bad_request', a)
      all.push(a)
    }
    decided(all, recorded)
    return { status: 200, json: JSON.stringify({ answers: all.map((a) => (recorded ? a.answer : unrecorded(a.answer))) }) }
  }

  const route = async (req: IncomingMessage, path: string, query: string, requestId: string): Promise<Sent> => {
    const method = ROUTES[path]
    if (method === undefined) return problem(404, 'not_found', `No route for ${req.method ?? ''} ${path}`)
    if (req.method !== method)
      return { ...problem(405, 'method_not_allowed', `${path} takes ${method}`), headers: { Allow: method } }
    if (path === '/healthz') return { status: 200, json: '{"status":"ok"}' }
    if (path === '/openapi.json') return { status: 200, json: openapi }
    if (path === '/metrics') {
      const scraped = await metrics.scrape(req.headers)
      return scraped.status === 401
        ? { status: 401, headers: { 'WWW-Authenticate': 'Bearer' }, json: null }
        : { status: 200, headers: { 'Content-Type': scraped.contentType }, json: scraped.text }
    }
    // The body is read first, so that a client still sending it reads the 401 rather than a reset.
    const body = await readBody(req, options.bodyLimitBytes)
    if (options.token !== undefined && bearerKey(req.headers) !== options.token)
      return {
        ...problem(401, 'unauthorized', 'The decision service asks for its token: Authorization: Bearer <DECIDE_TOKEN>'),
        headers: { 'WWW-Authenticate': 'Bearer' }
      }
    const recorded = withRecord(query)
    if (recorded === null)
      return problem(400, 'bad_request', `record is ${describeValue(queryValue(query, 'record'))}, not true or false`)
    const parsed = parse(body)
    if (isSent(parsed)) return parsed
    return path === '/v1/decide' ? decide(parsed.json, requestId, recorded) : batch(parsed.json, requestId, recorded)
  }

  const send = (res: ServerResponse, requestId: string, sent: Sent): void => {
    // Encoded once: counting the text's bytes and then writing it would encode it twice.
    const bytes = sent.json === null ? null : Buffer.from(sent.json)
    res.writeHead(sent.status, {
      'Content-Type': JSON_CONTENT_TYPE,
      ...sent.headers,
      'X-Request-Id': requestId,
      ...(bytes === null ? {} : { 'Content-Length': String(bytes.length) })
    })
    res.end(bytes ?? undefined)
  }

  return (req, res) => {
    const started = performance.now()
    const requestId = randomUUID()
    const url = req.url ?? '/'
    const query = url.indexOf('?')
    const path = query < 0 ? url : url.slice(0, query)
    const known = Object.hasOwn(ROUTES, path) ? path : 'unmatched'
    const done = (status: number, decision: Answer | undefined): void => {
      const seconds = (performance.now() - started) / 1000
      metrics.request(req.method ?? '', known, status, seconds)
      const record = decision?.record ?? null
      const line: RequestLine = {
        request_id: requestId,
        method: req.method ?? '',
        route: known,
        status,
        ms: Math.round(seconds * 1e6) / 1000,
        actor_id: record?.actor_id ?? null,
        key_id: record?.key_id ?? null,
        company_id: record?.company_id ?? null,
        rules: decision?.reasons.map((r) => r.rule) ?? []
      }
      logRequest(logger, line)
    }
    route(req, path, query < 0 ? '' : url.slice(query + 1), requestId).then(
      (sent) => {
        send(res, requestId, sent)
        done(sent.status, sent.decision)
      },
      (error: unknown) => {
        if (error instanceof BodyRefused) {
          if (error.sent === null) {
            // The client left mid-body (R-127): nobody to answer, the client's fault, logged at info.
            done(499, undefined)
            return
          }
          // Answered at once, the rest of the body unread: the connection cannot be reused.
          res.shouldKeepAlive = false
          send(res, requestId, error.sent)
          done(error.sent.status, undefined)
          return
        }
        options.report(error, requestId)
        if (!res.headersSent) send(res, requestId, problem(500, 'internal_error', 'Internal server error'))
        done(500, undefined)
      }
    )
  }
}
