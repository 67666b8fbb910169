/**
 * Fuzz of the client functions of contract section 3 (parseErrorResponse, retryDecision,
 * buildQuery, liveFeedQuery, nextLiveCursor): whatever they get, they return their typed reply in
 * time, never throw, read a Fetch Headers object like a plain one, never retry what
 * R-55 forbids, and encode any string.
 */
import { fuzzEntryPoints } from './suite'

await fuzzEntryPoints('client functions never throw, never hang', (e) => e.kind === 'client')
