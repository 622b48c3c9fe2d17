/**
 * The keys that bring the search box from any page: `/`, as on many sites, and Ctrl+K (⌘K on
 * macOS), as in editors and launchers. The modifier is the platform's own, so that Ctrl+K keeps
 * its meaning in a macOS text field (delete to the end of the line).
 */
const MAC = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)

/** The shortcuts as `aria-keyshortcuts` names them. */
export const SEARCH_KEYSHORTCUTS = MAC ? '/ Meta+K' : '/ Control+K'

/** The modifier's key cap, as the hint shows it. */
export const SEARCH_MODIFIER_LABEL = MAC ? '⌘' : 'Ctrl'

/** Whether focus is where `/` is typed as text (or picks an option), rather than a shortcut. */
function typingIn(target: EventTarget | null): boolean {
  return target instanceof Element && (target.closest('input, textarea, select') !== null || (target instanceof HTMLElement && target.isContentEditable))
}

/** Whether a key press asks for the search box. */
export function isSearchShortcut(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.isComposing || event.altKey) return false
  if (event.key === '/') return !event.ctrlKey && !event.metaKey && !typingIn(event.target)
  const modifier = MAC ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey
  return modifier && !event.shiftKey && event.key.toLowerCase() === 'k'
}
