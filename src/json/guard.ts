/**
 * Guards written out by hand for the io-ts codecs every facade checks its context with. io-ts's
 * `is` walks a tree of closures and reads each key by name from a list, which costs a tenth of
 * an update decision; a guard that reads the same keys in the same order, with the same tests,
 * gives the same answer (and throws the same error from a getter) for a fraction of it.
 *
 * @example
 * import * as t from 'io-ts'
 *
 * const Id = withGuard(t.type({ id: t.string }), (u): u is { id: string } => typeof (u as { id?: unknown } | null)?.id === 'string')
 * Id.is({ id: 'b-1' }) //=> true
 * Id.props.id.name //=> 'string'
 *
 * @since 0.3.0
 */
import * as t from 'io-ts'
import { hasOwn } from './value'

/**
 * `codec` with `is` replaced by `guard`, and nothing else: the result inherits every other
 * property from `codec` (its decoder and encoder, its `_tag`, `props` or `types`), so it is still
 * the same kind of io-ts codec to `t.exact`, a schema generator or a reader of its type. `guard`
 * must answer as `codec.is` does for every input, reading the same properties in the same order
 * (a getter that throws then throws the same error); a property test pins each guard to the io-ts
 * combinators it replaces.
 *
 * @example
 * import * as t from 'io-ts'
 *
 * const Id = withGuard(t.type({ id: t.string }), (u): u is { id: string } => typeof (u as { id?: unknown } | null)?.id === 'string')
 * Id.is({ id: 'b-1' }) //=> true
 * Id._tag //=> 'InterfaceType'
 *
 * @category combinators
 * @since 0.3.0
 */
export const withGuard = <C extends t.Any>(codec: C, guard: (u: unknown) => u is t.TypeOf<C>): C =>
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- its prototype is `codec`, an instance
  Object.assign(Object.create(codec) as C, { is: guard })

/**
 * How `t.type` tells a required key missing: its value is `undefined` and it is not an own
 * property (asked only then, as io-ts does).
 *
 * @example
 * missing({ a: undefined }, 'a', undefined) //=> false
 * missing({}, 'a', undefined) //=> true
 *
 * @category refinements
 * @since 0.3.0
 */
export const missing = (u: object, key: string, value: unknown): boolean => value === undefined && !hasOwn(u, key)

/**
 * io-ts's `t.array(t.string).is`: `every` skips the holes of a sparse array, as there.
 *
 * @example
 * isStrings(['a', 'b']) //=> true
 * isStrings(['a', 1]) //=> false
 *
 * @category refinements
 * @since 0.3.0
 */
export const isStrings = (u: unknown): u is Array<string> => Array.isArray(u) && u.every(isString)

const isString = (u: unknown): u is string => typeof u === 'string'
