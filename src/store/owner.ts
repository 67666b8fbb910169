/**
 * One owner for an embedded database's directory (R-113), as PostgreSQL's `postmaster.pid` makes
 * one postmaster own its data directory. PGlite has no such guard of its own: two processes on
 * one directory each keep their own copy of the pages in memory and overwrite each other's
 * writes, losing acknowledged money, and a second process reading while the first writes can
 * leave the files unopenable.
 *
 * The guard has two parts:
 * - the interlock, which decides who owns the directory: on Linux a socket bound to a name in
 *   the abstract namespace made from the directory's device and inode, which the kernel gives
 *   back however the owner ends (SIGKILL, a crash, a reboot), so no lock is ever stale and no
 *   two processes can both take one over; elsewhere the lock file itself, created atomically,
 *   taken over when the process it names is gone (PostgreSQL's way);
 * - the lock file `owner.lock` in the directory, written only by the owner, always whole (a
 *   file renamed or linked into place), which names the owner's pid, its start and command, and
 *   how other processes reach the data while it runs: its URL and the Unix socket that answers
 *   reads of the decision records (./owner-socket.ts in the server).
 *
 * @since 0.5.0
 */
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'

/** The lock file's name, in the directory. */
export const LOCK_FILE = 'owner.lock'

/** What the lock file says of the process that owns the directory. */
export interface Owner {
  readonly pid: number
  /** When the owner took the directory (ISO-8601). */
  readonly started_at: string
  /** The owner's command: `serve`, `decisions list`, `replay`, ... */
  readonly command: string
  /** Where the owner answers HTTP, once it listens; null before, and for a command that does not. */
  readonly url: string | null
  /** The Unix socket through which the owner answers reads of the decision records; null when none. */
  readonly socket: string | null
}

/**
 * How a directory is owned: the kernel's abstract socket (Linux) or the lock file alone (where
 * there is no abstract namespace; also testable on Linux).
 */
export type Interlock = 'abstract-socket' | 'lock-file'

/** The directory is another live process's: its lock file names it (null when it could not be read). */
export class DirectoryInUse extends Error {
  override readonly name = 'DirectoryInUse'
  constructor(
    readonly dir: string,
    readonly owner: Owner | null
  ) {
    super(
      `the data directory ${dir} is in use by ${
        owner === null
          ? 'another process'
          : `budget-rules ${owner.command} (pid ${owner.pid}${owner.url === null ? '' : `, ${owner.url}`}, since ${owner.started_at})`
      }: stop it first, or set DATA_DIR to another directory`
    )
  }
}

/** The directory, owned by this process until {@link Ownership.release}. */
export interface Ownership {
  readonly dir: string
  /** The lock file as this process wrote it. */
  readonly owner: () => Owner
  /** The owner that held the directory before and is gone (its lock taken over), or null. */
  readonly tookOver: Owner | null
  /** Says in the lock file where the owner can now be reached. */
  readonly announce: (where: { readonly url: string | null; readonly socket: string | null }) => void
  /** Removes the lock file and gives the directory back; waits for nothing else. */
  readonly release: () => Promise<void>
}

const isOwner = (u: unknown): u is Owner => {
  if (typeof u !== 'object' || u === null) return false
  const o = u as Record<string, unknown>
  return (
    Number.isSafeInteger(o.pid) &&
    typeof o.started_at === 'string' &&
    typeof o.command === 'string' &&
    (o.url === null || typeof o.url === 'string') &&
    (o.socket === null || typeof o.socket === 'string')
  )
}

/** The lock file's owner, or null when there is none or it is not one (then it is nobody's). */
export const readOwner = (dir: string): Owner | null => {
  try {
    const owner: unknown = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))
    return isOwner(owner) ? owner : null
  } catch {
    return null
  }
}

/** Whether a process of this pid runs (EPERM: it does, as another user's). */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Writes the lock file whole: a file of its own, renamed over it. */
const writeOwner = (dir: string, owner: Owner): void => {
  const next = join(dir, `${LOCK_FILE}.${process.pid}`)
  writeFileSync(next, `${JSON.stringify(owner)}\n`, { mode: 0o600 })
  renameSync(next, join(dir, LOCK_FILE))
}

/** Creates the lock file whole, unless there is one: false then. */
const createOwner = (dir: string, owner: Owner): boolean => {
  const next = join(dir, `${LOCK_FILE}.${process.pid}`)
  writeFileSync(next, `${JSON.stringify(owner)}\n`, { mode: 0o600 })
  try {
    linkSync(next, join(dir, LOCK_FILE))
    return true
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw err
  } finally {
    rmSync(next, { force: true })
  }
}

/** The socket of the abstract namespace that stands for the directory, bound; null when another process holds it. */
const bindInterlock = (dir: string): Promise<Server | null> => {
  const { dev, ino } = statSync(dir)
  return new Promise((resolve, reject) => {
    // Nobody talks to it: it only holds the name.
    const server = createServer((socket) => socket.destroy())
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') resolve(null)
      else reject(err)
    })
    server.listen(`\0budget-rules/${dev}/${ino}`, () => {
      server.unref()
      resolve(server)
    })
  })
}

/** How long a process that holds the interlock may take to write its lock file. */
const LOCK_FILE_WAIT_MS = 1_000

/** The lock file of an owner that holds the interlock, once written (or null past the wait). */
const ownerOnceWritten = async (dir: string): Promise<Owner | null> => {
  const until = Date.now() + LOCK_FILE_WAIT_MS
  for (;;) {
    const owner = readOwner(dir)
    if (owner !== null || Date.now() >= until) return owner
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/**
 * Makes this process the directory's owner, creating the directory (mode 0700, as PostgreSQL
 * asks of its own) when there is none; throws {@link DirectoryInUse} when another live process
 * owns it. `command` is what the lock file says this process is.
 *
 * Used as `const ownership = await claimDirectory('.data', 'serve')`, then `ownership.release()`
 * once the database is closed.
 */
export const claimDirectory = async (
  dir: string,
  command: string,
  interlock: Interlock = process.platform === 'linux' ? 'abstract-socket' : 'lock-file'
): Promise<Ownership> => {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  let owner: Owner = { pid: process.pid, started_at: new Date().toISOString(), command, url: null, socket: null }
  let tookOver: Owner | null = null
  let held: Server | null = null
  if (interlock === 'abstract-socket') {
    held = await bindInterlock(dir)
    if (held === null) throw new DirectoryInUse(dir, await ownerOnceWritten(dir))
    // Whatever lock file is there was left by an owner that is gone: the interlock was free.
    tookOver = readOwner(dir)
    writeOwner(dir, owner)
  } else {
    for (;;) {
      if (createOwner(dir, owner)) break
      const other = readOwner(dir)
      if (other !== null && alive(other.pid)) throw new DirectoryInUse(dir, other)
      tookOver = other
      rmSync(join(dir, LOCK_FILE), { force: true })
    }
  }
  let released = false
  return {
    dir,
    owner: () => owner,
    tookOver,
    announce: (where) => {
      owner = { ...owner, ...where }
      writeOwner(dir, owner)
    },
    release: async () => {
      if (released) return
      released = true
      const now = readOwner(dir)
      if (now !== null && now.pid === owner.pid && now.started_at === owner.started_at)
        rmSync(join(dir, LOCK_FILE), { force: true })
      if (held !== null) await new Promise((done) => held.close(done))
    }
  }
}
