/**
 * What the CLI's commands touch outside themselves besides files: where they print, the
 * environment, and the signal that stops the server. `main.ts` gives the process's own; tests
 * give theirs.
 *
 * @example
 * const printed: Array<string> = []
 * const io: Io = { out: (text) => { printed.push(text) }, err: () => undefined, env: {}, signal: () => new Promise(() => undefined) }
 * io.out('hello\n')
 * printed //=> ['hello\n']
 *
 * @since 0.1.0
 */

/**
 * The CLI's outside world.
 *
 * @example
 * const io: Io = { out: () => undefined, err: () => undefined, env: { PORT: '8080' }, signal: () => Promise.resolve('SIGTERM') }
 * io.env.PORT //=> '8080'
 *
 * @since 0.1.0
 */
export interface Io {
  /** Writes to standard output. */
  readonly out: (text: string) => void
  /** Writes to standard error. */
  readonly err: (text: string) => void
  readonly env: Readonly<Record<string, string | undefined>>
  /** Resolves with the name of the first SIGTERM or SIGINT received. */
  readonly signal: () => Promise<string>
}
