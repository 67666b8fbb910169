/**
 * The reference server's log: one JSON line per request, written by pino (fast, with
 * levels, redaction by path and a pretty-printer for people: `npm start | npx pino-pretty`).
 * Every line has the same fields, named once here: `time`, `level`, `msg`, `request_id`,
 * `method`, `route` (the pattern, never the raw path), `status`, `ms`, `actor_id`, `key_id` (the
 * id of the key, never the key), `company_id`, `rules`. No header, body or key is handed to it,
 * and the paths where one could hide are redacted all the same.
 *
 * @since 0.4.0
 */
import { type DestinationStream, type Logger, pino } from 'pino'
import type { LogLevel } from './log-level'

/** One request's line, but for `time`, `level` and `msg`, which pino writes. */
export interface RequestLine {
  readonly request_id: string
  readonly method: string
  readonly route: string
  readonly status: number
  readonly ms: number
  readonly actor_id: string | null
  readonly key_id: string | null
  readonly company_id: string | null
  readonly rules: ReadonlyArray<string>
}

/**
 * A logger at `level` writing to `destination` (standard output, asynchronously, by default).
 * Its lines carry no pid or host: a line says what happened to a request, nothing of the process.
 */
export const requestLogger = (level: LogLevel, destination?: DestinationStream): Logger =>
  pino(
    {
      level,
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Never handed to a line; redacted should a header, a body or a key ever reach one.
      redact: {
        paths: ['authorization', 'headers', 'body', 'key', '*.authorization', '*.headers', '*.body', '*.key'],
        censor: '[masked]'
      }
    },
    destination ?? pino.destination({ dest: 1, sync: false })
  )

/**
 * Writes a request's line: `info`, or `error` for a 5xx. The line is written as pino writes it
 * (`level`, `time`, the line's fields, `msg`), straight to the logger's destination: its fields
 * are typed and none is a header, a body or a key, so redaction, which costs every other line
 * twice pino's own time, has nothing to do here, and a request pays for one `JSON.stringify`.
 */
export const logRequest = (logger: Logger, line: RequestLine): void => {
  const level = line.status >= 500 ? 'error' : 'info'
  if (!logger.isLevelEnabled(level)) return
  const fields: RequestLine = {
    request_id: line.request_id,
    method: line.method,
    route: line.route,
    status: line.status,
    ms: line.ms,
    actor_id: line.actor_id,
    key_id: line.key_id,
    company_id: line.company_id,
    rules: line.rules
  }
  const written = JSON.stringify(fields)
  const msg = JSON.stringify(`${line.method} ${line.route} ${line.status}`)
  const destination = (logger as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym] as DestinationStream
  destination.write(`{"level":"${level}","time":"${new Date().toISOString()}",${written.slice(1, -1)},"msg":${msg}}\n`)
}
