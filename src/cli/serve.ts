/**
 * `budget-rules serve`: the reference server (`src/server`), configured from the environment:
 * `PORT` (default 3000), `DATA_DIR` (where the embedded database keeps its files, default
 * `.data`) and `DATABASE_URL` (a PostgreSQL server instead), `LOG_LEVEL` (default `info`: a JSON
 * line per request on standard output), `DECISION_LOG` (`off` records no decision),
 * `DECISION_LOG_DAYS` (default 30), `METRICS_TOKEN` (the bearer token `/metrics` asks for),
 * `TRUST_PROXY=1` (the client's address from X-Forwarded-For) and a PostgreSQL server's timeouts
 * (`STATEMENT_TIMEOUT_MS`, `LOCK_TIMEOUT_MS`, `IDLE_IN_TRANSACTION_TIMEOUT_MS`, R-111). It
 * prints the URL it serves, and on SIGTERM or SIGINT closes the server (which drains and closes
 * the database) and exits 0. `--conformance` (or `CONFORMANCE=1`) turns on the conformance hook,
 * a test mode, with a warning.
 *
 * @example
 * serveOptions({ PORT: '8080', DATABASE_URL: 'postgres://localhost/budgets' })
 * //=> { port: 8080, dataDir: '.data', databaseUrl: 'postgres://localhost/budgets', logLevel: 'info' }
 *
 * @since 0.1.0
 */
import type { Command } from 'commander'
import { describeValue } from '../json/describe'
import { isLogLevel, LOG_LEVELS, type LogLevel } from '../server/log-level'
import { DEFAULT_TIMEOUTS } from '../store/driver'
import { CliError } from './input'
import type { Io } from './io'

/** A whole number from 1 given in `env[name]`, or undefined when it is not set. */
const positive = (env: Readonly<Record<string, string | undefined>>, name: string): number | undefined => {
  const text = env[name]
  if (text === undefined || text === '') return undefined
  if (!/^[1-9]\d{0,8}$/.test(text)) throw new CliError(`${name} is ${describeValue(text)}, not a whole number from 1`)
  return Number(text)
}

const DEFAULT_PORT = 3000
const DEFAULT_DATA_DIR = '.data'
const MAX_PORT = 65535

/**
 * Where the reference server's database is, read from the environment as `serve` reads it:
 * `DATABASE_URL` (a PostgreSQL server), else PGlite under `DATA_DIR` (`.data` by default).
 *
 * @example
 * databaseOptions({}) //=> { dataDir: '.data' }
 * databaseOptions({ DATA_DIR: '/var/budgets', DATABASE_URL: 'postgres://localhost/budgets' })
 * //=> { dataDir: '/var/budgets', databaseUrl: 'postgres://localhost/budgets' }
 *
 * @since 0.4.0
 */
export const databaseOptions = (
  env: Readonly<Record<string, string | undefined>>
): { dataDir: string; databaseUrl?: string } => ({
  dataDir: env.DATA_DIR === undefined || env.DATA_DIR === '' ? DEFAULT_DATA_DIR : env.DATA_DIR,
  ...(env.DATABASE_URL === undefined || env.DATABASE_URL === '' ? {} : { databaseUrl: env.DATABASE_URL })
})

/**
 * What the server is given, read from the environment.
 *
 * @example
 * serveOptions({}) //=> { port: 3000, dataDir: '.data', logLevel: 'info' }
 * serveOptions({ CONFORMANCE: '1' }) //=> { port: 3000, dataDir: '.data', logLevel: 'info', conformance: true }
 * serveOptions({ RATE_LIMIT_PER_MINUTE: '30', IDEMPOTENCY_TTL_HOURS: '1' })
 * //=> { port: 3000, dataDir: '.data', logLevel: 'info', rateLimitPerMinute: 30, idempotencyTtlHours: 1 }
 * serveOptions({ LOG_LEVEL: 'silent', DECISION_LOG: 'off', DECISION_LOG_DAYS: '7', METRICS_TOKEN: 't0k3n' })
 * //=> { port: 3000, dataDir: '.data', logLevel: 'silent', decisionLog: false, decisionLogDays: 7, metricsToken: 't0k3n' }
 * serveOptions({ HOST: '0.0.0.0' }) //=> { port: 3000, dataDir: '.data', logLevel: 'info', host: '0.0.0.0' }
 * serveOptions({ TRUST_PROXY: '1', LOCK_TIMEOUT_MS: '500' })
 * //=> { port: 3000, dataDir: '.data', logLevel: 'info', trustProxy: true, timeouts: { statementMs: 5000, lockMs: 500, idleInTransactionMs: 10000 } }
 * (() => { try { return serveOptions({ LOG_LEVEL: 'verbose' }) } catch (e) { return String(e) } })()
 * //=> 'CliError: LOG_LEVEL is "verbose", not one of fatal, error, warn, info, debug, trace, silent'
 * (() => { try { return serveOptions({ DECISION_LOG: 'no' }) } catch (e) { return String(e) } })()
 * //=> 'CliError: DECISION_LOG is "no", not on or off'
 * (() => { try { return serveOptions({ RATE_LIMIT_PER_MINUTE: '0' }) } catch (e) { return String(e) } })()
 * //=> 'CliError: RATE_LIMIT_PER_MINUTE is "0", not a whole number from 1'
 * (() => { try { return serveOptions({ PORT: 'http' }) } catch (e) { return String(e) } })()
 * //=> 'CliError: PORT is "http", not a port number from 0 to 65535'
 *
 * @since 0.1.0
 */
export const serveOptions = (
  env: Readonly<Record<string, string | undefined>>
): {
  port: number
  dataDir: string
  databaseUrl?: string
  rateLimitPerMinute?: number
  idempotencyTtlHours?: number
  logLevel: LogLevel
  decisionLog?: false
  decisionLogDays?: number
  metricsToken?: string
  trustProxy?: true
  host?: string
  timeouts?: { statementMs: number; lockMs: number; idleInTransactionMs: number }
  conformance?: true
} => {
  const port =
    env.PORT === undefined || env.PORT === '' ? DEFAULT_PORT : /^\d{1,5}$/.test(env.PORT) ? Number(env.PORT) : Number.NaN
  if (!(port <= MAX_PORT)) throw new CliError(`PORT is ${describeValue(env.PORT)}, not a port number from 0 to ${MAX_PORT}`)
  const rateLimitPerMinute = positive(env, 'RATE_LIMIT_PER_MINUTE')
  const idempotencyTtlHours = positive(env, 'IDEMPOTENCY_TTL_HOURS')
  const logLevel = env.LOG_LEVEL === undefined || env.LOG_LEVEL === '' ? 'info' : env.LOG_LEVEL
  if (!isLogLevel(logLevel)) throw new CliError(`LOG_LEVEL is ${describeValue(logLevel)}, not one of ${LOG_LEVELS.join(', ')}`)
  const decisionLog = env.DECISION_LOG ?? ''
  if (!['', 'on', 'off'].includes(decisionLog)) throw new CliError(`DECISION_LOG is ${describeValue(decisionLog)}, not on or off`)
  const decisionLogDays = positive(env, 'DECISION_LOG_DAYS')
  const trustProxy = env.TRUST_PROXY ?? ''
  if (!['', '0', '1'].includes(trustProxy)) throw new CliError(`TRUST_PROXY is ${describeValue(trustProxy)}, not 1 or 0`)
  const statementMs = positive(env, 'STATEMENT_TIMEOUT_MS')
  const lockMs = positive(env, 'LOCK_TIMEOUT_MS')
  const idleInTransactionMs = positive(env, 'IDLE_IN_TRANSACTION_TIMEOUT_MS')
  const timed = statementMs !== undefined || lockMs !== undefined || idleInTransactionMs !== undefined
  return {
    port,
    ...databaseOptions(env),
    ...(rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute }),
    ...(idempotencyTtlHours === undefined ? {} : { idempotencyTtlHours }),
    logLevel,
    ...(decisionLog === 'off' ? { decisionLog: false as const } : {}),
    ...(decisionLogDays === undefined ? {} : { decisionLogDays }),
    ...(env.METRICS_TOKEN === undefined || env.METRICS_TOKEN === '' ? {} : { metricsToken: env.METRICS_TOKEN }),
    ...(trustProxy === '1' ? { trustProxy: true as const } : {}),
    ...(env.HOST === undefined || env.HOST === '' ? {} : { host: env.HOST }),
    ...(timed
      ? {
          timeouts: {
            statementMs: statementMs ?? DEFAULT_TIMEOUTS.statementMs,
            lockMs: lockMs ?? DEFAULT_TIMEOUTS.lockMs,
            idleInTransactionMs: idleInTransactionMs ?? DEFAULT_TIMEOUTS.idleInTransactionMs
          }
        }
      : {}),
    ...(env.CONFORMANCE === '1' ? { conformance: true as const } : {})
  }
}

/**
 * Adds `serve` to the program. The server's modules load only when it runs, so that `decide`
 * and `periods` never load its dependencies.
 *
 * @since 0.1.0
 */
export const serveCommand = (program: Command, io: Io): Command =>
  program
    .command('serve')
    .description(
      'start the reference server (PORT, default 3000; DATA_DIR, default .data; DATABASE_URL; RATE_LIMIT_PER_MINUTE, default 600; IDEMPOTENCY_TTL_HOURS, default 24; LOG_LEVEL, default info; DECISION_LOG=off; DECISION_LOG_DAYS, default 30; METRICS_TOKEN; TRUST_PROXY=1; HOST, default 127.0.0.1; STATEMENT_TIMEOUT_MS, LOCK_TIMEOUT_MS, IDLE_IN_TRANSACTION_TIMEOUT_MS; CONFORMANCE=1)'
    )
    .option('--conformance', 'test mode: the conformance hook (PUT /__conformance/state), never in production')
    .option(
      '--decide',
      'the decision service instead (R-130): POST /v1/decide and /v1/decide/batch, no database (PORT, HOST, DECIDE_TOKEN, METRICS_TOKEN, LOG_LEVEL)'
    )
    .option('--records <file>', 'with --decide: append each decision record to <file> as a line of JSON')
    .action(async (flags: { conformance?: boolean; decide?: boolean; records?: string }) => {
      if (flags.decide === true) return decideService(io, flags)
      if (flags.records !== undefined)
        throw new CliError('--records is for --decide: the reference server keeps its records in its database')
      const options = { ...serveOptions(io.env), ...(flags.conformance === true ? { conformance: true as const } : {}) }
      // Listened for from the start: a SIGTERM while the database opens stops the server once it listens, cleanly.
      const stopped = io.signal()
      const { serve } = await withPeers(SERVER_PEERS, () => import('../server/main'))
      const server = await serve(options).catch((err: unknown) => {
        throw (err as NodeJS.ErrnoException).code === 'EADDRINUSE'
          ? new CliError(`cannot serve on port ${options.port}: it is in use (set PORT to another port)`)
          : err
      })
      if (options.conformance === true)
        io.err(
          'warning: test mode: the conformance hook is on; whoever reaches the server may replace its data and act as anyone (PUT /__conformance/state)\n'
        )
      io.out(`budget-rules server listening on ${server.url}\n`)
      const signal = await stopped
      io.out(`${signal}: closing\n`)
      await server.close()
    })

/** The optional peer dependencies each service loads (package.json `peerDependenciesMeta`). */
const SERVER_PEERS = ['hono', '@hono/node-server', '@electric-sql/pglite', 'pg', 'pino', 'prom-client']
const DECISION_SERVICE_PEERS = ['pino', 'prom-client']

/**
 * The modules `load` gives, or, when a peer dependency is not installed, one line that says
 * which and how to install them all: npm leaves optional peers out of an install.
 */
const withPeers = async <T>(peers: ReadonlyArray<string>, load: () => Promise<T>): Promise<T> => {
  try {
    return await load()
  } catch (err) {
    const missing = /Cannot find (?:package|module) '([^']+)'/.exec((err as Error).message)?.[1]
    if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND' || missing === undefined) throw err
    throw new CliError(`${missing} is not installed: this command needs ${peers.join(', ')} (npm install ${peers.join(' ')})`)
  }
}

/**
 * `serve --decide`: the decision service on `PORT` (default 3000) of `HOST` (default
 * 127.0.0.1; `0.0.0.0` in a container), asking for `DECIDE_TOKEN` when set; closed on SIGTERM
 * or SIGINT once the requests under way are answered.
 */
const decideService = async (io: Io, flags: { conformance?: boolean; records?: string }): Promise<void> => {
  if (flags.conformance === true)
    throw new CliError('--conformance is for the reference server: the decision service keeps no data')
  const { port, host, logLevel, metricsToken } = serveOptions(io.env)
  const stopped = io.signal()
  const { startDecisionService } = await withPeers(DECISION_SERVICE_PEERS, () => import('../server/decide/main'))
  const service = await startDecisionService({
    port,
    logLevel,
    ...(host === undefined ? {} : { host }),
    ...(metricsToken === undefined ? {} : { metricsToken }),
    ...(io.env.DECIDE_TOKEN === undefined || io.env.DECIDE_TOKEN === '' ? {} : { token: io.env.DECIDE_TOKEN }),
    ...(flags.records === undefined ? {} : { records: flags.records })
  }).catch((err: unknown) => {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') throw new CliError(`cannot serve on port ${port}: it is in use (set PORT to another port)`)
    if (flags.records !== undefined && typeof code === 'string' && code !== 'EADDRNOTAVAIL')
      throw new CliError(`cannot write records to ${flags.records}: ${code}`)
    throw err
  })
  io.out(`budget-rules decision service listening on ${service.url}\n`)
  const signal = await stopped
  io.out(`${signal}: closing\n`)
  await service.close()
}
