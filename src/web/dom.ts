type Child = Node | string | number | false | null | undefined
type Attributes = Record<string, string | number | boolean | EventListener | undefined>

/**
 * Creates an element: attributes as given (`true` sets an empty one, `false` and `undefined` none),
 * `on…` functions as event listeners, text children as text nodes (never parsed as HTML).
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value)
    else if (value === true) element.setAttribute(name, '')
    else if (value !== false && value !== undefined) element.setAttribute(name, String(value))
  }
  append(element, children)
  return element
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)))
  }
}

/**
 * Text of an operation's description with its `code` spans as <code> elements: the descriptions are
 * written in Markdown for the OpenAPI document, and backticks are all of it worth rendering here.
 * A name in `names`, a code span or a camelCase word, is written as the page shows it, quoted.
 */
export function richText(text: string, names: ReadonlyMap<string, string> = new Map()): Node[] {
  const plain = (name: string) => `“${names.get(name)}”`
  return text.split('`').map((part, index) => {
    if (index % 2 === 0) return document.createTextNode(part.replace(/\b[a-z][a-z0-9]*[A-Z]\w*/g, (word) => (names.has(word) ? plain(word) : word)))
    return names.has(part) ? document.createTextNode(plain(part)) : h('code', {}, part)
  })
}

let copyFallback: HTMLTextAreaElement | undefined

/** Copies text, also where the asynchronous clipboard is unavailable (a plain-HTTP address on a network). */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text)
  copyFallback ??= h('textarea', { class: 'offscreen', 'aria-hidden': 'true', tabindex: -1 })
  document.body.append(copyFallback)
  copyFallback.value = text
  copyFallback.select()
  document.execCommand('copy')
  copyFallback.remove()
}

/** A button that copies what `text` gives when pressed, and says so. */
export function copyButton(label: string, text: () => string): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'secondary small' }, label)
  button.addEventListener('click', async () => {
    try {
      await copyText(text())
      button.textContent = 'Copied'
    } catch {
      button.textContent = 'Copy failed'
    }
    setTimeout(() => {
      button.textContent = label
    }, 1500)
  })
  return button
}

/** Saves `blob` as a download named `name`. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const link = h('a', { href: url, download: name, class: 'offscreen', tabindex: -1 })
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
