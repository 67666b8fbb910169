/**
 * The main thread's side of the fuzz: one worker that runs the entry points one after the other,
 * and a watchdog. A call that stops reporting progress for FUZZ_HANG_MS is a hang: the worker is
 * ended (that stops even `while (true) {}`), the run that hung is regenerated from its seed to be
 * described, and the fuzz goes on after it in a new worker. A worker that dies (out of memory)
 * is treated the same way.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import type { Failure, TargetResult } from './engine'
import type { Kind } from './targets'

const envNumber = (name: string, fallback: number): number => {
  const raw = process.env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  const n = Number(raw)
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, not ${JSON.stringify(raw)}`)
  return n
}

/** Runs per entry point: a few inside `npm test`, 10,000 for `npm run fuzz`. */
export const RUNS = envNumber('FUZZ_RUNS', 200)
/** The seed of every entry point's runs; random unless given, and printed with each failure. */
export const SEED = envNumber('FUZZ_SEED', 1 + Math.floor(Math.random() * 0x7ffffffe))
const HANG_MS = envNumber('FUZZ_HANG_MS', 5000)
const MAX_RESTARTS = 3

/** Time a vitest test gives one entry point: its runs, shrinking, and a hang or two. */
export const TEST_TIMEOUT_MS = 120_000 + RUNS * 40 + MAX_RESTARTS * HANG_MS

export interface Entry {
  readonly name: string
  readonly kind: Kind
  readonly generic: boolean
}

type Message =
  | { readonly type: 'ready' }
  | { readonly type: 'load-error'; readonly message: string }
  | { readonly type: 'list'; readonly entries: ReadonlyArray<Entry> }
  | { readonly type: 'described'; readonly text: string }
  | { readonly type: 'failure'; readonly failure: Failure }
  | { readonly type: 'runs-done'; readonly result: TargetResult }
  | { readonly type: 'done'; readonly result: TargetResult }

class Stalled extends Error {
  constructor(
    readonly index: number,
    readonly phase: number,
    readonly why: string
  ) {
    super(why)
  }
}

export class FuzzPool {
  private readonly shared = new SharedArrayBuffer(12)
  private readonly progress = new Int32Array(this.shared)
  private worker: Worker | null = null

  static async start(): Promise<FuzzPool> {
    const pool = new FuzzPool()
    await pool.spawn()
    return pool
  }

  private async spawn(): Promise<void> {
    await this.worker?.terminate()
    const worker = new Worker(new URL('./worker.mjs', import.meta.url), {
      workerData: { shared: this.shared },
      resourceLimits: { maxOldGenerationSizeMb: 3072 },
      stdout: false,
      stderr: false
    })
    this.worker = worker
    await this.ask(
      () => undefined,
      (m) => m.type === 'ready'
    )
  }

  /** Posts a request and waits for the answer, watching progress all the while. */
  private ask<T extends Message>(
    send: (w: Worker) => void,
    done: (m: Message) => m is T,
    onMessage: (m: Message) => void = () => undefined
  ): Promise<T> {
    const worker = this.worker
    if (worker === null) return Promise.reject(new Error('no worker'))
    return new Promise<T>((resolve, reject) => {
      let beats = Atomics.load(this.progress, 0)
      let last = performance.now()
      const stall = (why: string) => {
        cleanup()
        reject(new Stalled(Atomics.load(this.progress, 1), Atomics.load(this.progress, 2), why))
      }
      const timer = setInterval(() => {
        const now = Atomics.load(this.progress, 0)
        if (now !== beats) {
          beats = now
          last = performance.now()
        } else if (performance.now() - last > HANG_MS) stall(`did not return within ${HANG_MS} ms (a hang)`)
      }, 100)
      const onMsg = (m: Message) => {
        if (m.type === 'load-error') {
          cleanup()
          reject(new Error(`the library did not load in the fuzz worker:\n${m.message}`))
        } else if (done(m)) {
          cleanup()
          resolve(m)
        } else onMessage(m)
      }
      const onError = (e: Error) => {
        stall(`the worker died: ${e.message}`)
      }
      const onExit = (code: number) => {
        stall(`the worker exited with code ${code}`)
      }
      const cleanup = () => {
        clearInterval(timer)
        worker.off('message', onMsg)
        worker.off('error', onError)
        worker.off('exit', onExit)
      }
      worker.on('message', onMsg)
      worker.on('error', onError)
      worker.on('exit', onExit)
      send(worker)
    })
  }

  async list(): Promise<ReadonlyArray<Entry>> {
    const m = await this.ask(
      (w) => {
        w.postMessage({ type: 'list' })
      },
      (m): m is Extract<Message, { type: 'list' }> => m.type === 'list'
    )
    return m.entries
  }

  /** Fuzzes one entry point; a hang or a dead worker becomes a failure, and the runs go on after it. */
  async run(name: string, runs = RUNS, seed = SEED): Promise<TargetResult> {
    let skip = 0
    let merged: TargetResult | null = null
    const extra: Array<Failure> = []
    for (let restarts = 0; ; restarts++) {
      const eager = new Map<string, Failure>()
      const seen: { partial: TargetResult | null } = { partial: null }
      try {
        const m = await this.ask(
          (w) => {
            w.postMessage({ type: 'run', name, runs, seed, skip })
          },
          (m): m is Extract<Message, { type: 'done' }> => m.type === 'done',
          (m) => {
            if (m.type === 'failure') eager.set(m.failure.key, m.failure)
            else if (m.type === 'runs-done') seen.partial = m.result
          }
        )
        merged = merge(merged, m.result)
        break
      } catch (e) {
        if (!(e instanceof Stalled)) throw e
        await this.spawn()
        const done = seen.partial
        if (e.phase === 1 && done !== null) {
          // Stalled while shrinking: the runs are done, their failures known unshrunk.
          merged = merge(merged, { ...done, failures: [...eager.values()] })
          break
        }
        const input = await this.describe(name, seed, e.index)
        extra.push({
          name,
          key: `${name} | hang | run ${e.index}`,
          violation: e.why,
          where: '',
          input,
          count: 1,
          firstRun: e.index,
          shrunk: false
        })
        merged = merge(merged, {
          name,
          kind: 'typed',
          generic: false,
          seed,
          ms: 0,
          stats: {
            runs: e.index - skip,
            deep: 0,
            outcomes: { returned: 0, TypeError: 0, 'caller error': 0, 'other error': 0 },
            changes: {},
            deepChanges: {},
            maxMs: 0
          },
          failures: [...eager.values()]
        })
        skip = e.index + 1
        if (restarts + 1 >= MAX_RESTARTS || skip >= runs) break
      }
    }
    const result: TargetResult = { ...merged, failures: [...merged.failures, ...extra] }
    report(result)
    return result
  }

  private async describe(name: string, seed: number, index: number): Promise<string> {
    try {
      const m = await this.ask(
        (w) => {
          w.postMessage({ type: 'describe', name, seed, index })
        },
        (m): m is Extract<Message, { type: 'described' }> => m.type === 'described'
      )
      return m.text
    } catch {
      await this.spawn()
      return `run ${index} of seed ${seed} (could not be described)`
    }
  }

  async close(): Promise<void> {
    await this.worker?.terminate()
    this.worker = null
  }
}

const merge = (a: TargetResult | null, b: TargetResult): TargetResult => {
  if (a === null) return b
  const failures = new Map(a.failures.map((f) => [f.key, f]))
  for (const f of b.failures) {
    const seen = failures.get(f.key)
    failures.set(f.key, seen === undefined ? f : { ...seen, count: seen.count + f.count })
  }
  const outcomes = { ...a.stats.outcomes }
  for (const [k, v] of Object.entries(b.stats.outcomes)) outcomes[k as keyof typeof outcomes] += v
  const add = (x: Readonly<Record<string, number>>, y: Readonly<Record<string, number>>) => {
    const sum = { ...x }
    for (const [k, v] of Object.entries(y)) sum[k] = (sum[k] ?? 0) + v
    return sum
  }
  return {
    ...b,
    kind: a.kind === 'typed' && b.kind !== 'typed' ? b.kind : a.kind,
    ms: a.ms + b.ms,
    stats: {
      runs: a.stats.runs + b.stats.runs,
      deep: a.stats.deep + b.stats.deep,
      outcomes,
      changes: add(a.stats.changes, b.stats.changes),
      deepChanges: add(a.stats.deepChanges, b.stats.deepChanges),
      maxMs: Math.max(a.stats.maxMs, b.stats.maxMs)
    },
    failures: [...failures.values()]
  }
}

/** With FUZZ_REPORT=<dir>, each entry point's figures and failures as JSON (scripts/fuzz.mjs reads them). */
const report = (r: TargetResult): void => {
  const dir = process.env.FUZZ_REPORT
  if (dir === undefined || dir === '') return
  mkdirSync(dir, { recursive: true })
  writeFileSync(`${dir}/${r.name}.json`, `${JSON.stringify(r, null, 2)}\n`)
}

/** A failure as one line of a test's message. */
export const formatFailure = (f: Failure): string =>
  `${f.violation.replace(' :: ', ': ')}${f.where === '' ? '' : ` [at ${f.where}]`} — ${f.count} run(s), first run ${f.firstRun}; ${f.shrunk ? 'shrunk' : 'as found'}: ${f.input}`
