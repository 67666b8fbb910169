/**
 * A PostgreSQL server of a test's own, from Debian's packages, that the test may stop and start
 * again: initdb in a temporary directory as the postgres user (initdb refuses root), pg_ctl on a
 * free loopback port. Only where the binaries are installed and the tests run as root, as in
 * .ci/run; elsewhere `postgresUnavailable` says why, and the tests that need it print it.
 */
import { execFile } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../free-port'

/** Debian's newest PostgreSQL binaries, or null. */
const binaries = (): string | null => {
  if (!existsSync('/usr/lib/postgresql')) return null
  const versions = readdirSync('/usr/lib/postgresql')
    .filter((v) => existsSync(join('/usr/lib/postgresql', v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(a) - Number(b))
  const last = versions.at(-1)
  return last === undefined ? null : join('/usr/lib/postgresql', last, 'bin')
}

const BIN = binaries()

/** Why no cluster of a test's own can run here, or null when one can. */
export const postgresUnavailable: string | null =
  BIN === null
    ? "Debian's postgresql is not installed (apt-get install postgresql)"
    : process.getuid?.() !== 0
      ? 'the tests do not run as root, so they cannot run initdb as the postgres user'
      : null

/** Runs a command as the postgres user, from / (the checkout may be unreadable to it). */
const asPostgres = (command: string, args: ReadonlyArray<string>): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile(
      'runuser',
      ['-u', 'postgres', '--', join(BIN as string, command), ...args],
      { cwd: '/' },
      (error, stdout, stderr) => {
        if (error === null) resolve(stdout)
        else reject(new Error(`${command} ${args.join(' ')}: ${error.message} ${stderr}`))
      }
    )
  })

/** A running cluster: its URL, and how to stop it, start it again, and remove it. */
export interface Cluster {
  readonly url: string
  readonly stop: () => Promise<void>
  readonly start: () => Promise<void>
  readonly destroy: () => Promise<void>
}

/** Creates and starts a cluster (trust authentication, loopback only). */
export const startCluster = async (): Promise<Cluster> => {
  const dir = mkdtempSync(join(tmpdir(), 'pg-'))
  chownSync(dir, await uidOfPostgres(), -1)
  const port = await freePort()
  const data = join(dir, 'data')
  await asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres'])
  const start = async () => {
    await asPostgres('pg_ctl', [
      '-D',
      data,
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
      '-l',
      join(dir, 'log'),
      '-w',
      'start'
    ])
  }
  // immediate: the server goes away as a crash would, its connections cut.
  const stop = async () => {
    await asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
  }
  await start()
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    destroy: async () => {
      await stop().catch(() => undefined)
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** The postgres user's uid, to hand it the cluster's directory. */
const uidOfPostgres = (): Promise<number> =>
  new Promise((resolve, reject) => {
    execFile('id', ['-u', 'postgres'], (error, stdout) => {
      if (error === null) resolve(Number(stdout.trim()))
      else reject(new Error(`id -u postgres: ${error.message}`))
    })
  })
