/**
 * Not an entry point of the package (package.json `exports` has none): an entry of the ESM build
 * only (tsup.config.ts), which gives the UI's rules chunks of their own. esbuild puts the modules
 * that the same entry points reach into one chunk, and every entry that reaches the budget's
 * plain fields reaches io-ts too; this entry reaches the fields and not io-ts, so that a browser
 * bundle of the three from the root holds no io-ts and no fp-ts (R-107, ADR 0131,
 * scripts/size.mjs).
 *
 * @example
 * import { permittedUpdateFields } from 'budget-rules'
 *
 * permittedUpdateFields({ user_id: 'u-1', role: 'admin', permissions: [] }, budget).length //=> 8
 *
 * @since 0.5.0
 */
export { lockedUpdateFields, permittedUpdateFields } from './budget/permissions'
export { upcomingPeriods } from './budget/advance'
