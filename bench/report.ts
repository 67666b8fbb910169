import type { Bench } from 'tinybench'

/** Prints each task's mean time and its ratio to the first task of its group, in one table. */
export const report = (title: string, bench: Bench, baseline: string): void => {
  const rows = bench.tasks.map((task) => {
    const r = task.result
    if (r.state !== 'completed') throw new Error(`${task.name}: ${r.state}`)
    return { task: task.name, mean: r.latency.mean, rme: r.latency.rme, samples: r.latency.samplesCount }
  })
  const base = rows.find((r) => r.task === baseline)?.mean ?? Number.NaN
  console.log(`\n${title}`)
  console.table(
    rows.map((r) => ({
      task: r.task,
      'mean (µs)': (r.mean * 1000).toFixed(3),
      '± %': r.rme.toFixed(1),
      samples: r.samples,
      [`× ${baseline}`]: (r.mean / base).toFixed(2)
    }))
  )
}
