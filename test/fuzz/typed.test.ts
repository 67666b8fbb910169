/**
 * Fuzz of the typed functions (the rules layer): given values outside their types they throw a
 * TypeError, and those R-19 names (advanceBudget, upcomingPeriods, nextWindow,
 * permittedUpdateFields) throw one naming the value; never another exception, a loop, a garbage
 * date or a stack overflow; never a mutation of their input or of Object.prototype.
 */
import { fuzzEntryPoints } from './suite'

await fuzzEntryPoints('typed functions return or throw a TypeError', (e) => e.kind === 'typed')
