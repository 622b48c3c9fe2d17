import { h } from './dom.ts'

const THEME_KEY = 'devutils.theme'
const THEMES = { system: 'System', light: 'Light', dark: 'Dark' } as const
type Theme = keyof typeof THEMES

function storedTheme(): Theme {
  try {
    const value = localStorage.getItem(THEME_KEY)
    return value !== null && value in THEMES ? (value as Theme) : 'system'
  } catch {
    return 'system'
  }
}

/** The style sheet follows the system's scheme unless the root names one (style.css, "Theme"). */
function applyTheme(theme: Theme): void {
  if (theme === 'system') delete document.documentElement.dataset.theme
  else document.documentElement.dataset.theme = theme
}

/** Applies the remembered theme and returns the header's control to change it: the system's, light or dark. */
export function themeControl(): HTMLElement {
  const theme = storedTheme()
  applyTheme(theme)
  const select = h('select', { id: 'theme' }, ...Object.entries(THEMES).map(([value, label]) => h('option', { value, selected: value === theme }, label)))
  select.addEventListener('change', () => {
    const chosen = select.value as Theme
    applyTheme(chosen)
    try {
      if (chosen === 'system') localStorage.removeItem(THEME_KEY)
      else localStorage.setItem(THEME_KEY, chosen)
    } catch {
      // Not remembered: the choice holds for this page.
    }
  })
  return h('div', { class: 'theme' }, h('label', { for: 'theme' }, 'Theme'), select)
}
