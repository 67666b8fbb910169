/**
 * budget-rules as its users run it: the built package (`dist/`, where fp-ts and io-ts are
 * bundled as ES modules and tree-shaken), not the TypeScript sources, which Node would run over
 * fp-ts's and io-ts's CommonJS builds (about a fifth slower on the update decision).
 * `npm run bench` builds the package first.
 */
import type * as Root from '../src/index'
import type * as Decisions from '../src/decisions'
import type * as Rules from '../src/rules'

const built = async <M>(entry: string): Promise<M> => {
  const url = new URL(`../dist/${entry}.js`, import.meta.url)
  try {
    return (await import(url.href)) as M
  } catch (e) {
    throw new Error(`bench: ${url.pathname} is missing or broken; build the package first (npm run build)`, { cause: e })
  }
}

/** The root entry point, `budget-rules`. */
export const root = await built<typeof Root>('index')

/** The typed layer, `budget-rules/rules`. */
export const rules = await built<typeof Rules>('rules')

/** The decision records, `budget-rules/decisions`. */
export const decisions = await built<typeof Decisions>('decisions')
