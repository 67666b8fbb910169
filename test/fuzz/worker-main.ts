/**
 * The fuzz worker: loads the library from src/, then runs what the main thread asks (list the
 * entry points, fuzz one, describe a run), reporting its progress in shared memory so that a
 * call that never returns can be seen and ended from outside.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { Fuzz } from './engine'

const port = parentPort
if (port === null) throw new Error('worker-main.ts runs in a worker')
const progress = new Int32Array((workerData as { shared: SharedArrayBuffer }).shared)

const probe = {
  beat: (): void => {
    Atomics.add(progress, 0, 1)
  },
  at: (index: number, phase: number): void => {
    Atomics.store(progress, 1, index)
    Atomics.store(progress, 2, phase)
  }
}

export type Request =
  | { readonly type: 'list' }
  | { readonly type: 'run'; readonly name: string; readonly runs: number; readonly seed: number; readonly skip: number }
  | { readonly type: 'describe'; readonly name: string; readonly seed: number; readonly index: number }

let fuzz: Fuzz
try {
  fuzz = new Fuzz({
    ...(await import('../../src/index')),
    ...(await import('../../src/rules')),
    ...(await import('../../src/decisions'))
  })
} catch (e) {
  port.postMessage({ type: 'load-error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) })
  throw e
}

port.on('message', (m: Request) => {
  switch (m.type) {
    case 'list':
      port.postMessage({ type: 'list', entries: fuzz.list() })
      return
    case 'describe':
      port.postMessage({ type: 'described', text: fuzz.describeRun(m.name, m.seed, m.index) })
      return
    case 'run': {
      const result = fuzz.run(m.name, m.runs, m.seed, m.skip, probe, {
        failure: (failure) => {
          port.postMessage({ type: 'failure', failure })
        },
        runsDone: (partial) => {
          port.postMessage({ type: 'runs-done', result: partial })
        }
      })
      port.postMessage({ type: 'done', result })
      return
    }
  }
})
port.postMessage({ type: 'ready' })
