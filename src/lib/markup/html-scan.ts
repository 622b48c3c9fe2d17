import { limitExceeded } from '../../core/errors.ts'
import { MAX_NESTING_DEPTH } from '../../core/limits.ts'

/** Elements that never hold others, so never nest deeper (the HTML Standard's void elements). */
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr', 'param', 'keygen'])
/** Elements whose content is text up to their end tag, not markup. */
const RAW_TEXT_ELEMENTS = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext'])
/** Elements whose end tag may be left out: a start tag of the same name right after closes the open one. */
const SELF_CLOSING_SIBLINGS = new Set(['li', 'p', 'dt', 'dd', 'tr', 'td', 'th', 'option', 'thead', 'tbody', 'tfoot'])
const TAG_NAME = /[A-Za-z][^\s/>]*/y
/** The end tag of each raw text element, in any case. */
const RAW_TEXT_END = new Map([...RAW_TEXT_ELEMENTS].map((name) => [name, new RegExp(`</${name}`, 'gi')]))

/** The most characters turndown writes before each line of a list item's content (`1.  ` for large start numbers). */
const ORDERED_ITEM_INDENT = 26
const BULLET_ITEM_INDENT = 4
const BLOCKQUOTE_INDENT = 2
/** Markers and line breaks one element may add around its content (`**`, `[`…`](`…`)`, fences, table pipes). */
const ELEMENT_MARKUP = 24

/** The end of a markup tag that starts at `from`, past quoted attribute values; -1 if it never ends. */
export function tagEnd(html: string, from: number): number {
  let quote = 0
  for (let i = from; i < html.length; i++) {
    const code = html.charCodeAt(i)
    if (quote !== 0) {
      if (code === quote) quote = 0
    } else if (code === 0x22 || code === 0x27) quote = code
    else if (code === 0x3e) return i
  }
  return -1
}

/** Where the text of a raw text element that starts at `from` ends, and where the scan goes on (past its end tag). */
function rawTextEnd(html: string, name: string, from: number): { textEnd: number; next: number } {
  const endPattern = RAW_TEXT_END.get(name)!
  endPattern.lastIndex = from
  const endTag = endPattern.exec(html)?.index ?? -1
  if (endTag === -1) return { textEnd: html.length, next: html.length }
  const after = tagEnd(html, endTag)
  return { textEnd: endTag, next: after === -1 ? html.length : after + 1 }
}

/** What a `<` starts: a tag, something that is neither text nor element, or text (a `<` that starts no tag, or a tag that never ends). */
type Markup = { kind: 'tag'; name: string; closing: boolean; end: number } | { kind: 'skipped' | 'text'; next: number }

/** The markup at `lt`, a `<`: a comment, a declaration and a processing instruction are skipped whole. */
function markupAt(html: string, lt: number): Markup {
  if (html.startsWith('<!--', lt)) {
    const end = html.indexOf('-->', lt + 4)
    return { kind: 'skipped', next: end === -1 ? html.length : end + 3 }
  }
  const next = html.charCodeAt(lt + 1)
  if (next === 0x21 || next === 0x3f) {
    const end = html.indexOf('>', lt + 2)
    return { kind: 'skipped', next: end === -1 ? html.length : end + 1 }
  }
  const closing = next === 0x2f
  TAG_NAME.lastIndex = closing ? lt + 2 : lt + 1
  const match = TAG_NAME.exec(html)
  if (!match) return { kind: 'text', next: lt + 1 }
  const end = tagEnd(html, TAG_NAME.lastIndex)
  if (end === -1) return { kind: 'text', next: html.length }
  return { kind: 'tag', name: match[0].toLowerCase(), closing, end }
}

/**
 * One pass over the HTML's tags, with no recursion: refuses nesting deeper than the limit, which
 * turndown would walk recursively, and predicts an upper bound of the Markdown it writes (text,
 * escaped at most twice over; each element's markers and line breaks; each line indented by the
 * list items and quotes around it), so that an answer past the output limit is refused unbuilt.
 */
export function scanHtml(html: string): { depth: number; predictedLength: number } {
  const open: string[] = []
  let indent = 0
  const indents: number[] = []
  let maxDepth = 0
  let predicted = 0
  let pre = 0
  let i = 0
  const text = (from: number, to: number) => {
    predicted += 2 * (to - from)
    if (pre > 0) for (let at = html.indexOf('\n', from); at !== -1 && at < to; at = html.indexOf('\n', at + 1)) predicted += indent + 4
  }
  const close = (name: string) => {
    const index = open.lastIndexOf(name)
    if (index === -1) return
    for (let j = open.length - 1; j >= index; j--) if (open[j] === 'pre') pre--
    open.length = index
    indents.length = index
    indent = index === 0 ? 0 : indents[index - 1]
  }
  while (i < html.length) {
    const lt = html.indexOf('<', i)
    if (lt === -1) {
      text(i, html.length)
      break
    }
    text(i, lt)
    const markup = markupAt(html, lt)
    if (markup.kind !== 'tag') {
      if (markup.kind === 'text') text(lt, markup.next)
      i = markup.next
      continue
    }
    const { name, closing, end } = markup
    i = end + 1
    if (closing) {
      close(name)
      continue
    }
    predicted += 2 * (indent + BULLET_ITEM_INDENT) + ELEMENT_MARKUP + 2 * (end - lt)
    if (VOID_ELEMENTS.has(name)) continue
    if (SELF_CLOSING_SIBLINGS.has(name) && open[open.length - 1] === name) close(name)
    if (RAW_TEXT_ELEMENTS.has(name)) {
      const { textEnd, next } = rawTextEnd(html, name, i)
      text(i, textEnd)
      i = next
      continue
    }
    if (name === 'li') indent += open[open.length - 1] === 'ol' ? ORDERED_ITEM_INDENT : BULLET_ITEM_INDENT
    else if (name === 'blockquote') indent += BLOCKQUOTE_INDENT
    else if (name === 'pre') pre++
    open.push(name)
    indents.push(indent)
    if (open.length > maxDepth) maxDepth = open.length
    if (open.length > MAX_NESTING_DEPTH) {
      throw limitExceeded(`The HTML nests elements deeper than ${MAX_NESTING_DEPTH} levels (at <${name}>, position ${lt}); flatten it or convert it in parts`, {
        limit: MAX_NESTING_DEPTH,
        position: lt,
      })
    }
  }
  return { depth: maxDepth, predictedLength: predicted }
}
