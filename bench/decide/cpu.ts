/**
 * The CPU time of processes, read from Linux's /proc: what a load of `npm run bench:decide` cost
 * each side. The servers and autocannon share the machine's cores, so a figure means little
 * without what each side used: a server held at one core by its own event loop, or by a load
 * generator that took the other.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

/** Clock ticks a second, the unit of /proc/PID/stat's times (100 on Linux, as a rule). */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
})()

/**
 * The CPU time a process has used, user and system, in seconds: fields 14 and 15 of
 * /proc/PID/stat, counted after the command's name (in parentheses, which may hold spaces).
 */
export const cpuSeconds = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // fields[0] is the state, field 3 of the line: utime is field 14, stime field 15.
  return (Number(fields[11]) + Number(fields[12])) / TICKS
}

/** The CPU time of every process of `pids` together, in seconds. */
export const cpuOf = (pids: ReadonlyArray<number>): number => pids.reduce((total, pid) => total + cpuSeconds(pid), 0)
