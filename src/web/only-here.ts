import { h } from './dom.ts'

const ONLY_HERE_KEY = 'devutils.onlyInThisBrowser'

/** Whether the person chose that nothing they type leaves this browser: the tools that run on the service then send nothing. */
export function onlyInThisBrowser(): boolean {
  try {
    return localStorage.getItem(ONLY_HERE_KEY) === 'true'
  } catch {
    return false
  }
}

export const ONLY_HERE_REFUSAL =
  'Nothing was sent: this tool runs on the service, and "Only in this browser" is on. Turn it off in the header to send the input to the service.'

/** The header's switch for it, remembered in this browser's storage. */
export function onlyHereControl(): HTMLElement {
  const input = h('input', { type: 'checkbox', role: 'switch', id: 'only-here', class: 'switch', checked: onlyInThisBrowser() })
  input.addEventListener('change', () => {
    try {
      if (input.checked) localStorage.setItem(ONLY_HERE_KEY, 'true')
      else localStorage.removeItem(ONLY_HERE_KEY)
    } catch {
      // Not remembered: storage is refused in this browser.
    }
  })
  return h('div', { class: 'only-here' }, input, h('label', { for: 'only-here' }, 'Only in this browser'))
}
