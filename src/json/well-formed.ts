/**
 * Well-formed text: a JSON string may spell a lone surrogate (`"\udbff"`), which is no
 * Unicode text: UTF-8 cannot write it, so a PostgreSQL `text` keeps U+FFFD in its place and the
 * audit trail would disagree with the data. The core refuses such text before it decides: a
 * field's rule names the field (422), and {@link illFormedIn} finds it anywhere else in a body
 * (400).
 *
 * @example
 * isWellFormedText('Z\udbff') //=> false
 * isWellFormedText('💶') //=> true
 * illFormedIn({ budget: { name: 'Z\udbff' } }, ['budget.*']) //=> false
 * illFormedIn({ budget: { name: 'Z' }, note: 'Z\udbff' }, ['budget.*']) //=> true
 *
 * @since 0.4.0
 */
import { isJsonObject } from './value'

/** A UTF-16 surrogate without its other half: no character, and not encodable as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g')

/**
 * Whether `s` is well-formed Unicode: no surrogate without its other half (what Node 20's
 * `String.prototype.isWellFormed` says, on every runtime the core supports).
 *
 * @example
 * isWellFormedText('\ud83d\udcb6') //=> true
 * isWellFormedText('\udcb6\ud83d') //=> false
 *
 * @category utils
 * @since 0.4.0
 */
export const isWellFormedText = (s: string): boolean => !LONE_SURROGATE.test(s)

/**
 * `s` with each lone surrogate written as U+FFFD, as `URLSearchParams` and a UTF-8 encoder write
 * it (Node 20's `String.prototype.toWellFormed`).
 *
 * @example
 * toWellFormedText('a\uD800b') //=> 'a\uFFFDb'
 * toWellFormedText('💶') //=> '💶'
 *
 * @category utils
 * @since 0.1.0
 */
export const toWellFormedText = (s: string): string => s.replace(LONE_SURROGATES, '\uFFFD')

/** Whether the path of keys `path` is one of `judged` (dotted, `*` for any one key). */
const isJudged = (path: ReadonlyArray<string>, judged: ReadonlyArray<ReadonlyArray<string>>): boolean =>
  judged.some((p) => p.length === path.length && p.every((key, i) => key === '*' || key === path[i]))

/**
 * Whether a parsed JSON body holds text that is not well-formed: a key anywhere, or a string
 * value anywhere but at the paths `judged`, whose strings the facade's field rules judge and
 * name in a 422 (`budget.*`: every key of the `budget` object; an array's items are under its key).
 *
 * @example
 * illFormedIn({ bank_recipient: { name: 'A\udbff' } }, ['bank_recipient.name']) //=> false
 * illFormedIn({ bank_recipient: { nickname: 'A\udbff' } }, ['bank_recipient.name']) //=> true
 * illFormedIn({ '\udbff': 1 }, ['*']) //=> true
 * illFormedIn({ tags: ['a', 'b\udbff'] }, []) //=> true
 *
 * @category utils
 * @since 0.4.0
 */
export const illFormedIn = (json: unknown, judged: ReadonlyArray<string>): boolean => {
  const paths = judged.map((p) => p.split('.'))
  const deepest = Math.max(0, ...paths.map((p) => p.length))
  // A stack, not recursion: a body may nest thousands deep. A path is kept only as deep as
  // the deepest judged one (null past it: judged nowhere), so a deep body costs no more than a wide one.
  const stack: Array<readonly [unknown, ReadonlyArray<string> | null]> = [[json, []]]
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [u, path] = next
    if (typeof u === 'string') {
      if (!isWellFormedText(u) && (path === null || !isJudged(path, paths))) return true
    } else if (Array.isArray(u)) for (const item of u) stack.push([item, path])
    else if (isJsonObject(u))
      for (const [key, value] of Object.entries(u)) {
        if (!isWellFormedText(key)) return true
        stack.push([value, path === null || path.length >= deepest ? null : [...path, key]])
      }
  }
  return false
}
