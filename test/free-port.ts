/** A loopback port nothing listens on now, for a process the test starts. */
import { createServer } from 'node:net'

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const address = s.address()
      s.close(() => {
        resolve(typeof address === 'object' && address !== null ? address.port : 0)
      })
    })
  })
