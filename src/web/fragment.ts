import { h } from './dom.ts'

/** The page's state, in the fragment: never sent to the server, and kept by a copied link. */
export function readFragment(): URLSearchParams {
  return new URLSearchParams(location.hash.slice(1))
}

/**
 * The most characters a link's fragment holds. Past it the fields are too large to share: the
 * address then keeps none of them, rather than a link that grows with every keystroke.
 */
export const SHARE_LIMIT_CHARACTERS = 8192

/**
 * Puts the fields in the address, when they fit in SHARE_LIMIT_CHARACTERS; says whether they did.
 * Their length as typed is counted first, since encoding only lengthens them: a large input is
 * never encoded at each keystroke only to be dropped.
 */
export function writeFragment(params: URLSearchParams): boolean {
  let typed = 0
  for (const [name, value] of params) typed += name.length + value.length + 2
  const text = typed > SHARE_LIMIT_CHARACTERS ? undefined : params.toString()
  const fits = text !== undefined && text.length <= SHARE_LIMIT_CHARACTERS
  const url = `${location.pathname}${location.search}${fits && text ? `#${text}` : ''}`
  if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(history.state, '', url)
  return fits
}

/**
 * The fields' link, kept in the address as they change, and a note for beside Copy link that says
 * when they no longer fit in one.
 */
export function linkSharing(): { note: HTMLElement; share(params: URLSearchParams): void } {
  const note = h('p', { class: 'hint share-note', 'aria-live': 'polite' })
  return {
    note,
    share(params) {
      const fits = writeFragment(params)
      note.textContent = fits
        ? ''
        : `Too large to share: a link holds the fields up to ${SHARE_LIMIT_CHARACTERS / 1024} KB, so Copy link copies this page without them.`
    },
  }
}
