/**
 * API keys as the store keeps them: never the key, only its SHA-256; and the id of a key that
 * decision records and log lines name, which cannot be turned back into it.
 *
 * @since 0.4.0
 */
import { createHash } from 'node:crypto'

/** The SHA-256 of an API key, in hex: all the database keeps of a key. */
export const keyHash = (key: string): string => createHash('sha256').update(key).digest('hex')

/** The id of a key whose SHA-256 is `sha256`: its first 16 hex digits. */
export const keyIdOf = (sha256: string): string => sha256.slice(0, 16)
