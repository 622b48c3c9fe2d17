/**
 * The exports of a CommonJS package loaded with `import()`: Node gives them both as named exports
 * and as the default export, the build's bundle only as the default export, tsx only as named ones.
 */
export function commonJsExports<T extends object>(namespace: T): T {
  return (namespace as T & { default?: T }).default ?? namespace
}
