/** The page's state, in the fragment: never sent to the server, and kept by a copied link. */
export function readFragment(): URLSearchParams {
  return new URLSearchParams(location.hash.slice(1))
}

export function writeFragment(params: URLSearchParams): void {
  const text = params.toString()
  const url = `${location.pathname}${location.search}${text ? `#${text}` : ''}`
  if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(history.state, '', url)
}
