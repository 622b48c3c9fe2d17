/**
 * A module loaded on its first use. The registry loads every operation at start-up, while one call
 * needs one operation's library: a library behind `lazily` stays out of every start and one-shot
 * command that does not use it.
 */
export function lazily<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined
  return () => {
    loaded ??= load()
    return loaded
  }
}
