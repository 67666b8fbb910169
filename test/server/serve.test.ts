/**
 * `serve` when it cannot serve: the port is taken, and the database it opened is closed again.
 * (A PostgreSQL server that cannot be reached: postgres.test.ts.)
 */
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { serve } from '../../src/server/main'
import { stores } from './harness'

describe.each(stores)('serve on $name', (store) => {
  it('a port already taken: serve rejects, and the database it opened is closed again', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const place = await store.place()
    try {
      const port = (taken.address() as { port: number }).port
      await expect(serve({ ...place.options, port })).rejects.toThrow(/EADDRINUSE/)
    } finally {
      await new Promise((resolve) => taken.close(resolve))
      await place.drop()
    }
  }, 60_000)
})
