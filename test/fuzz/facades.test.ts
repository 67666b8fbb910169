/**
 * Fuzz of the facades (`respond*`): whatever JavaScript values they get, they reply (status
 * 200..599, string headers with X-Request-Id, a JSON body), in time, without touching their input
 * or Object.prototype; a request can never make them answer 500; a malformed stored budget is a
 * 500 with nothing to persist; rows and headers in other forms read the same.
 */
import { fuzzEntryPoints } from './suite'

await fuzzEntryPoints('facades never throw, never hang', (e) => e.kind === 'facade')
