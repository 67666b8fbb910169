/**
 * One HTTP load of `npm run bench:decide`: autocannon POSTing the given bodies in turn for a
 * fixed time, against one server or against several instances of one at once (the connections
 * split evenly across them, as bench/instances.bench.ts spreads them), with a progress line
 * every two seconds. The latencies are autocannon's own time of each response, kept to the
 * microsecond: its histogram keeps whole milliseconds, and the answers here take about one,
 * where a p50 of "1" and a p99 of "2" could not tell two servers apart.
 */
import autocannon from 'autocannon'

/** What one load measured. */
export interface Figure {
  /** How many processes of the server were loaded at once (their requests summed). */
  readonly instances: number
  readonly connections: number
  readonly requests_per_second: number
  /** Requests a second × the cases each request asks. */
  readonly decisions_per_second: number
  /** With several instances, the worst instance's. */
  readonly latency_p50_ms: number
  /** With several instances, the worst instance's. */
  readonly latency_p99_ms: number
  /** The mean size of a response, headers and body, in bytes. */
  readonly response_bytes: number
  readonly requests: number
  readonly errors: number
  readonly non_2xx: number
}

/** How a load runs. */
export interface LoadOptions {
  /** In all: each of n instances gets connections ÷ n. */
  readonly connections: number
  readonly seconds: number
  /** How many cases one request asks (1, or a batch's size). */
  readonly casesPerRequest: number
  readonly log: (line: string) => void
}

/** The value below which `q` of the sorted `xs` lie (nearest rank). */
export const quantile = (xs: Float64Array, q: number): number =>
  xs[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)] ?? Number.NaN

/** What one autocannon run against one instance gave. */
export interface Run {
  readonly result: autocannon.Result
  /** Every response's time, in ms, sorted. */
  readonly latencies: Float64Array
  /** Every response's bytes, summed. */
  readonly bytes: number
}

const round = (x: number, digits: number) => Number(x.toFixed(digits))

/**
 * The runs against each instance as one figure: requests, bytes and errors summed, the worst
 * instance's p50 and p99.
 */
export const combine = (runs: ReadonlyArray<Run>, connections: number, casesPerRequest: number): Figure => {
  const sum = (of: (r: Run) => number) => runs.reduce((total, r) => total + of(r), 0)
  const perSecond = sum((r) => r.result.requests.average)
  const worst = (q: number) => Math.max(...runs.map((r) => quantile(r.latencies, q)))
  const responses = sum((r) => r.latencies.length)
  return {
    instances: runs.length,
    connections,
    requests_per_second: Math.round(perSecond),
    decisions_per_second: Math.round(perSecond * casesPerRequest),
    latency_p50_ms: round(worst(0.5), 2),
    latency_p99_ms: round(worst(0.99), 2),
    response_bytes: responses === 0 ? 0 : Math.round(sum((r) => r.bytes) / responses),
    requests: sum((r) => r.result.requests.total),
    errors: sum((r) => r.result.errors),
    non_2xx: sum((r) => r.result.non2xx)
  }
}

/**
 * autocannon against every one of `urls` at once for `seconds`, each request the next of
 * `bodies`, `options.connections` split evenly across them.
 */
export const load = async (
  name: string,
  urls: ReadonlyArray<string>,
  bodies: ReadonlyArray<string>,
  options: LoadOptions
): Promise<Figure> => {
  const each = options.connections / urls.length
  if (!Number.isInteger(each) || each < 1)
    throw new Error(`${name}: ${options.connections} connections do not split evenly across ${urls.length} instances`)
  let next = 0
  const counted: Array<Array<number>> = urls.map(() => [])
  const started = performance.now()
  // A progress line every two seconds, so that a long run shows it is alive.
  const progress = setInterval(() => {
    const seconds = (performance.now() - started) / 1000
    const so = counted.reduce((total, l) => total + l.length, 0)
    options.log(`  ${name}: ${seconds.toFixed(0)} of ${options.seconds} s, ${Math.round(so / seconds)} requests/s so far`)
  }, 2000)
  try {
    const runs = await Promise.all(
      urls.map(
        (url, i) =>
          new Promise<Run>((resolve, reject) => {
            const latencies = counted[i] as Array<number>
            let bytes = 0
            const instance = autocannon(
              {
                url,
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                connections: each,
                duration: options.seconds,
                requests: [{ setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] }) }]
              },
              (error: unknown, result) => {
                if (error !== null && error !== undefined) {
                  reject(error instanceof Error ? error : new Error(`${name}: autocannon failed`, { cause: error }))
                  return
                }
                resolve({ result, latencies: Float64Array.from(latencies).sort(), bytes })
              }
            )
            instance.on('response', (_client, _status, resBytes, responseTime) => {
              latencies.push(responseTime)
              bytes += resBytes
            })
          })
      )
    )
    return combine(runs, options.connections, options.casesPerRequest)
  } finally {
    clearInterval(progress)
  }
}
