/**
 * The `budget-rules` command line: its commands, parsed with commander, and how it ends. A
 * problem with what the user gave (a missing file, a file that is not JSON, a budget that is not
 * a valid stored budget, a bad option value) prints one line, `error: ...`, and exits 1; a
 * usage error (an unknown command or option, a missing argument) is commander's line and exits 2.
 * A check that fails (`conformance` finding a disagreement, `replay` a reply that differs)
 * prints its report and exits 1.
 * Nothing prints a stack trace, and no error line holds a character a terminal obeys.
 *
 * @since 0.1.0
 */
import { Command, CommanderError } from 'commander'
import { CommandFailed, conformanceCommand } from './conformance'
import { decideCommand } from './decide'
import { decisionsCommand, replayCommand } from './decisions'
import type { Io } from './io'
import { periodsCommand } from './periods'
import { serveCommand } from './serve'
import { safeToPrint } from '../text/safe-to-print'

/** Exit codes: a problem with the input, and a usage error (POSIX's 2, which commander does not use by itself). */
const EXIT_PROBLEM = 1
const EXIT_USAGE = 2

/**
 * The program, fresh for one run (commander keeps what it parsed).
 *
 * @example
 * program({ out: () => undefined, err: () => undefined, env: {}, signal: () => new Promise(() => undefined) }).commands.map((c) => c.name())
 * //=> ['decide', 'periods', 'serve', 'conformance', 'decisions', 'replay']
 *
 * @since 0.1.0
 */
export const program = (io: Io): Command => {
  const cli = new Command('budget-rules')
    .description('decide cases, preview budget periods, serve the reference server and check servers with budget-rules')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
  decideCommand(cli, io)
  periodsCommand(cli, io)
  serveCommand(cli, io)
  conformanceCommand(cli, io)
  decisionsCommand(cli, io)
  replayCommand(cli, io)
  return cli
}

/**
 * Runs the CLI on `args` (what follows the program's name) and resolves with the exit code.
 *
 * @since 0.1.0
 */
export const run = async (args: ReadonlyArray<string>, io: Io): Promise<number> => {
  try {
    await program(io).parseAsync([...args], { from: 'user' })
    return 0
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : EXIT_USAGE
    // The command has said why already.
    if (err instanceof CommandFailed) return EXIT_PROBLEM
    // A message may quote what a server or a file said: one line, safe to print.
    io.err(`error: ${safeToPrint(err instanceof Error ? err.message : String(err))}\n`)
    return EXIT_PROBLEM
  }
}
