/**
 * Starting and stopping the decision service (R-130): listen on `node:http`, log a JSON line per
 * request, count the metrics, and with `records` append each decision record as one line of
 * JSON (NDJSON) to that file, readable only by its owner: records hold the tenants' requests.
 * Reads no environment: the CLI (`budget-rules serve --decide`) passes it in.
 *
 * @since 0.5.0
 */
import { createWriteStream, type WriteStream } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { DestinationStream } from 'pino'
import { requestLogger } from '../log'
import type { LogLevel } from '../log-level'
import { requestMetrics } from '../metrics'
import { DEFAULT_BODY_LIMIT_BYTES } from './limits'
import { decisionService } from './service'

/** What {@link startDecisionService} takes; every field has a default. */
export interface DecisionServiceStart {
  /** The port to listen on; 0 (the default) takes a free one. */
  readonly port?: number
  /** The address to listen on; 127.0.0.1 by default. */
  readonly host?: string
  /** The bearer token `/v1/*` asks for; none by default. */
  readonly token?: string
  /** The bearer token `/metrics` asks for; none by default. */
  readonly metricsToken?: string
  /** The file each decision record is appended to, as a line of JSON; none by default. */
  readonly records?: string
  /** The largest request body read; 8 MiB by default. */
  readonly bodyLimitBytes?: number
  /** The instant of each record; the system's clock by default. */
  readonly clock?: () => Date
  /** The least severe level logged; `silent` by default (`budget-rules serve --decide` says `info`). */
  readonly logLevel?: LogLevel
  /** Where the log lines go; standard output by default. */
  readonly logDestination?: DestinationStream
}

/** The service listening. */
export interface DecisionServiceRunning {
  /** `http://host:port`, without a trailing slash. */
  readonly url: string
  /** Stops taking connections, lets the requests under way finish, then closes the records file. */
  readonly close: () => Promise<void>
}

const opened = (stream: WriteStream): Promise<void> =>
  new Promise((resolve, reject) => {
    stream.once('open', () => {
      resolve()
    })
    stream.once('error', reject)
  })

/** Starts the decision service; rejects when it cannot listen or open its records file. */
export const startDecisionService = async (options: DecisionServiceStart = {}): Promise<DecisionServiceRunning> => {
  const logger = requestLogger(options.logLevel ?? 'silent', options.logDestination)
  const records = options.records === undefined ? null : createWriteStream(options.records, { flags: 'a', mode: 0o600 })
  if (records !== null) await opened(records)
  const server = createServer(
    decisionService({
      clock: options.clock ?? (() => new Date()),
      token: options.token === '' ? undefined : options.token,
      bodyLimitBytes: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
      logger,
      metrics: requestMetrics(options.metricsToken),
      records: records === null ? null : (record) => void records.write(`${JSON.stringify(record)}\n`),
      report: (error, requestId) => {
        logger.error({ request_id: requestId, err: error }, 'unexpected error')
      }
    })
  )
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { address, port } = server.address() as AddressInfo
  const host = address.includes(':') ? `[${address}]` : address
  return {
    url: `http://${host}:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve()
        })
        server.closeIdleConnections()
      })
      if (records !== null) await new Promise<void>((resolve) => records.end(resolve))
      logger.flush()
    }
  }
}
