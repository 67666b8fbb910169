#!/usr/bin/env node
/**
 * The `budget-rules` command (the package's bin): runs the CLI on the process's arguments,
 * output and environment, and exits with its code.
 */
import { run } from './program'

const signal = () =>
  new Promise<string>((resolve) => {
    process.once('SIGTERM', () => {
      resolve('SIGTERM')
    })
    process.once('SIGINT', () => {
      resolve('SIGINT')
    })
  })

void run(process.argv.slice(2), {
  out: (text) => {
    process.stdout.write(text)
  },
  err: (text) => {
    process.stderr.write(text)
  },
  env: process.env,
  signal
}).then((code) => {
  process.exitCode = code
})
