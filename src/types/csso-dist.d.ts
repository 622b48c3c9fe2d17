/** csso's own bundle for browsers and ESM: the same API as the package's main entry. */
declare module 'csso/dist/csso.esm' {
  export * from 'csso'
}
