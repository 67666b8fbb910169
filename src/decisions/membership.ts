/**
 * Who writes into a company's log: a decision names the company of its company-id only
 * when its caller passed `auth.membership` for that company. A request refused before (no key or
 * an unknown one, an unverified user, no company-id, not a member) is a stranger's: its record
 * names no company, so that no company's readers see it, and keeps no body.
 *
 * The reasons of a decision say it, as every facade writes them: the rules consulted in order,
 * and a refusal's last one the rule that refused (the law of `Trail`).
 *
 * @example
 * passedMembership(['auth.bearer', 'auth.email_verified', 'auth.company_header', 'auth.membership', 'budget.scope'], 404) //=> true
 * passedMembership(['auth.bearer', 'auth.email_verified', 'auth.company_header', 'auth.membership'], 404) //=> false
 *
 * @since 0.4.0
 */

/** The rule that admits a caller to a company's data. */
const MEMBERSHIP = 'auth.membership'

/**
 * Whether a decision of these rule ids (in order) and this status passed `auth.membership`: the
 * rule was consulted and did not refuse, that is, another rule came after it, or the decision
 * did not refuse at all (a status below 400).
 *
 * @example
 * passedMembership(['auth.bearer'], 401) //=> false
 * passedMembership(['auth.bearer', 'auth.email_verified', 'auth.company_header', 'auth.membership'], 200) //=> true
 * passedMembership(['server.unexpected'], 500) //=> false
 *
 * @category utils
 * @since 0.4.0
 */
export const passedMembership = (rules: ReadonlyArray<string>, status: number): boolean => {
  const at = rules.indexOf(MEMBERSHIP)
  return at >= 0 && (at < rules.length - 1 || status < 400)
}
