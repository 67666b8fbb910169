/** What `f` throws, or `undefined` when it returns: to assert an error's class and message at once. */
export const thrown = (f: () => unknown): unknown => {
  try {
    f()
  } catch (e) {
    return e
  }
  return undefined
}
