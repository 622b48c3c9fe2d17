/// <reference path="../../types/turndown-plugin-gfm.d.ts" />
import type { MarkdownIt, Renderer } from 'markdown-it'
import type SanitizeHtml from 'sanitize-html'
import type { IOptions as SanitizeOptions } from 'sanitize-html'
import type TurndownService from 'turndown'
import { Type } from 'typebox'
import { commonJsExports } from '../../core/commonjs.ts'
import { isDevutilsError, limitExceeded, validationError } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { assertOutputWithinLimit, MAX_NESTING_DEPTH, OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { scanHtml } from '../../lib/markup/html-scan.ts'

/** The longest `input`, in UTF-16 code units: a request body of the default limit holds no more. */
export const MAX_INPUT_LENGTH = 1024 * 1024

/**
 * Longer inputs go to a worker thread: past this length rendering holds the event loop far longer
 * than a thread hop costs, and sanitizing or converting HTML longer still (docs/PERFORMANCE.md,
 * "Offload thresholds and cost bounds").
 */
export const OFFLOAD_LENGTH = 16 * 1024

/** markdown-it stops nesting block quotes and lists past this level, rendering the rest as text (emphasis is paired without it). */
export const MAX_MARKDOWN_NESTING = 20

const ACTIONS = ['toHtml', 'toMarkdown'] as const
const FLAVORS = ['gfm', 'commonmark'] as const
const HTML_MODES = ['escape', 'sanitize'] as const
type Flavor = (typeof FLAVORS)[number]
type HtmlMode = (typeof HTML_MODES)[number]

/** markdown-it, sanitize-html and turndown, each loaded with its first use (see lazily). */
const markdownItLibrary = lazily(async () => commonJsExports(await import('markdown-it')) as unknown as typeof MarkdownIt)
const sanitizeHtmlLibrary = lazily(async () => commonJsExports(await import('sanitize-html')) as unknown as typeof SanitizeHtml)
const turndownLibrary = lazily(async () => {
  const [turndown, plugins] = await Promise.all([import('turndown'), import('turndown-plugin-gfm')])
  return { TurndownService: commonJsExports(turndown) as unknown as typeof TurndownService, gfm: commonJsExports(plugins).gfm }
})

// ---------------------------------------------------------------------------------------------
// Markdown → HTML

interface HtmlOptions {
  flavor: Flavor
  /** Raw HTML in the Markdown is parsed as HTML (only for `sanitize`, which then cleans it, and for the tests). */
  rawHtml: boolean
  breaks: boolean
  typographer: boolean
}

const TASK_MARKER = /^\[([ xX])\][ \t]/

/**
 * GFM task list items: a list item whose first paragraph starts with `[ ]` or `[x]` and a space
 * gets a disabled checkbox, written as the GFM specification writes it.
 */
function taskLists(md: MarkdownIt): void {
  md.core.ruler.after('inline', 'task_lists', (state) => {
    const tokens = state.tokens
    for (let i = 2; i < tokens.length; i++) {
      const inline = tokens[i]
      if (inline.type !== 'inline' || tokens[i - 1].type !== 'paragraph_open' || tokens[i - 2].type !== 'list_item_open') continue
      const first = inline.children?.[0]
      const marker = first?.type === 'text' ? TASK_MARKER.exec(first.content) : null
      if (!first || !marker) continue
      first.content = first.content.slice(marker[0].length)
      const checkbox = new state.Token('html_inline', '', 0)
      checkbox.content = marker[1] === ' ' ? '<input disabled="" type="checkbox"> ' : '<input checked="" disabled="" type="checkbox"> '
      inline.children!.unshift(checkbox)
    }
  })
}

/** A table cell's alignment as GFM writes it (`align="center"`), not as markdown-it does (a style attribute). */
function alignCells(renderer: Renderer): void {
  for (const type of ['th_open', 'td_open']) {
    renderer.rules[type] = (tokens, index, options, _env, self) => {
      const token = tokens[index]
      const style = token.attrGet('style')
      const alignment = style ? /^text-align:(left|center|right)$/.exec(String(style)) : null
      if (style !== null) {
        token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style')
        if (alignment) token.attrSet('align', alignment[1])
      }
      return self.renderToken(tokens, index, options)
    }
  }
}

/**
 * markdown-it's render loop with a running total: a reference definition used many times repeats
 * its URL in every link, so a small input can render to gigabytes, and the answer is refused as
 * soon as it passes the output limit rather than after it is built.
 */
function boundRendering(renderer: Renderer): void {
  const rules = renderer.rules
  const tally = (env: object | undefined, piece: string) => {
    if (env === undefined) return piece
    const counted = env as { renderedLength?: number }
    counted.renderedLength = (counted.renderedLength ?? 0) + piece.length
    if (counted.renderedLength > OUTPUT_LIMIT_BYTES) assertOutputWithinLimit(counted.renderedLength)
    return piece
  }
  renderer.renderInline = function renderInline(tokens, options, env) {
    let result = ''
    for (let i = 0; i < tokens.length; i++) {
      const rule = rules[tokens[i].type]
      result += tally(env, rule ? rule(tokens, i, options, env, this) : this.renderToken(tokens, i, options))
    }
    return result
  }
  renderer.render = function render(tokens, options, env) {
    let result = ''
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]
      if (token.type === 'inline') result += this.renderInline(token.children ?? [], options, env)
      else {
        const rule = rules[token.type]
        result += tally(env, rule ? rule(tokens, i, options, env, this) : this.renderToken(tokens, i, options))
      }
    }
    return result
  }
}

const markdownIts = new Map<string, MarkdownIt>()

/** A markdown-it configured for these options, made once and kept: building one compiles its rules. */
export async function markdownItFor(options: HtmlOptions): Promise<MarkdownIt> {
  const key = JSON.stringify(options)
  const cached = markdownIts.get(key)
  if (cached) return cached
  const MarkdownItClass = await markdownItLibrary()
  const { flavor, rawHtml, breaks, typographer } = options
  const gfm = flavor === 'gfm'
  const md = new MarkdownItClass('commonmark', { html: rawHtml, breaks, typographer, linkify: gfm, maxNesting: MAX_MARKDOWN_NESTING })
  if (typographer) md.enable(['replacements', 'smartquotes'])
  if (gfm) {
    md.enable(['table', 'strikethrough', 'linkify'])
    // GFM's extended autolinks include www. links without a scheme.
    md.linkify.set({ fuzzyLink: true })
    md.use(taskLists)
    alignCells(md.renderer)
    md.renderer.rules.s_open = () => '<del>'
    md.renderer.rules.s_close = () => '</del>'
  }
  boundRendering(md.renderer)
  markdownIts.set(key, md)
  return md
}

/** The tags and attributes markdown-it writes, and a few more that READMEs use; nothing that runs code. */
const SANITIZE_OPTIONS: SanitizeOptions = {
  allowedTags: [
    ...['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'ul', 'ol', 'li', 'pre', 'code', 'hr', 'br'],
    ...['em', 'strong', 'del', 's', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'input'],
    ...['details', 'summary', 'kbd', 'sup', 'sub'],
  ],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title'],
    input: [{ name: 'type', multiple: false, values: ['checkbox'] }, 'checked', 'disabled'],
    ol: ['start'],
    th: ['align'],
    td: ['align'],
    code: ['class'],
  },
  allowedClasses: { code: ['language-*'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: true,
  disallowedTagsMode: 'discard',
  // Only the checkboxes of task lists, never a field to type into, and never one to tick.
  exclusiveFilter: (frame) => frame.tag === 'input' && frame.attribs.type !== 'checkbox',
  transformTags: { input: (tagName, attribs) => ({ tagName, attribs: { ...attribs, disabled: '' } }) },
}

/** Safe HTML in both modes: raw HTML is parsed as HTML only to be sanitized, never passed through. */
export async function markdownToHtml(input: string, options: Omit<HtmlOptions, 'rawHtml'> & { html: HtmlMode }): Promise<string> {
  const sanitize = options.html === 'sanitize'
  const md = await markdownItFor({ flavor: options.flavor, rawHtml: sanitize, breaks: options.breaks, typographer: options.typographer })
  let html = md.render(input, {})
  if (sanitize) {
    // sanitize-html slows down with the square of the nesting depth: deep HTML is refused first.
    try {
      scanHtml(html)
    } catch (error) {
      if (!isDevutilsError(error)) throw error
      throw limitExceeded(
        `The HTML to sanitize nests elements deeper than ${MAX_NESTING_DEPTH} levels (raw HTML, or emphasis nested that deep); flatten it, or use html: escape`,
        { limit: MAX_NESTING_DEPTH },
      )
    }
    html = (await sanitizeHtmlLibrary())(html, SANITIZE_OPTIONS)
  }
  assertOutputWithinLimit(Buffer.byteLength(html))
  return html
}

// ---------------------------------------------------------------------------------------------
// HTML → Markdown

interface MarkdownOptions {
  headingStyle: 'atx' | 'setext'
  bulletListMarker: '-' | '*' | '+'
  codeBlockStyle: 'fenced' | 'indented'
  gfm: boolean
}

export async function htmlToMarkdown(input: string, options: MarkdownOptions): Promise<string> {
  const { predictedLength } = scanHtml(input)
  assertOutputWithinLimit(predictedLength)
  const { TurndownService, gfm } = await turndownLibrary()
  const service = new TurndownService({
    headingStyle: options.headingStyle,
    bulletListMarker: options.bulletListMarker,
    codeBlockStyle: options.codeBlockStyle,
  })
  // A document's head holds its title and metadata, not content.
  service.remove(['script', 'style', 'noscript', 'template', 'head', 'title'])
  if (options.gfm) {
    service.use(gfm)
    // The GFM specification and markdown-it read strikethrough between two tildes; the plugin writes one.
    service.addRule('strikethrough', { filter: ['del', 's', 'strike'], replacement: (content) => `~~${content}~~` })
  }
  let markdown: string
  try {
    markdown = service.turndown(input)
  } catch (error) {
    // The scan bounds the depth turndown recurses to; this is for a tree the browser's parser builds deeper than the scan saw.
    if (error instanceof RangeError) {
      throw limitExceeded(`The HTML nests elements too deeply to convert; keep it within ${MAX_NESTING_DEPTH} levels`, { limit: MAX_NESTING_DEPTH })
    }
    throw error
  }
  assertOutputWithinLimit(Buffer.byteLength(markdown))
  return markdown
}

// ---------------------------------------------------------------------------------------------

const HTML_DEFAULTS = { flavor: 'gfm', html: 'escape', breaks: false, typographer: false } as const
const MARKDOWN_DEFAULTS = { headingStyle: 'atx', bulletListMarker: '-', codeBlockStyle: 'fenced', gfm: true } as const

/** A field of the other action set to anything but its default is a mistake worth a 400, not a silent no-op. */
function refuseOtherActionFields(action: string, fields: Record<string, unknown>, defaults: Record<string, unknown>, otherAction: string): void {
  for (const [field, value] of Object.entries(defaults)) {
    if (fields[field] !== value) throw validationError(field, `applies only to action ${otherAction}, not ${action}`)
  }
}

export const markdown = defineOperation({
  name: 'markdown',
  category: 'converters',
  summary: 'Convert Markdown (CommonMark, GitHub Flavored) to safe HTML, or HTML to Markdown',
  title: 'Markdown ↔ HTML',
  labels: { choices: { action: { toHtml: 'Markdown → HTML', toMarkdown: 'HTML → Markdown' } } },
  aliases: [
    'markdown to html',
    'html to markdown',
    'md',
    'render markdown',
    'commonmark',
    'gfm',
    'github flavored markdown',
    'markdown preview',
    'turndown',
    'markdown-it',
    'sanitize html',
  ],
  description:
    '`toHtml` (the default) renders Markdown with markdown-it: `flavor: commonmark` follows CommonMark 0.31.2; `gfm` (the default) adds the GitHub Flavored Markdown extensions: tables (alignment as `align`), strikethrough as `<del>`, extended autolinks (URLs, `www.` links and e-mail addresses in text, found by linkify-it, whose rules differ from GitHub’s in a few corners) and task list items as disabled checkboxes. ' +
    'The HTML is always safe to insert into a page: with `html: escape` (the default) raw HTML in the Markdown is shown as text; with `html: sanitize` it is kept but cleaned by sanitize-html to an allowlist (the tags Markdown produces plus `details`, `summary`, `kbd`, `sup`, `sub`; no `style`, no event handlers, links only to http, https and mailto, images only from http and https). ' +
    'In either mode no `javascript:`, `vbscript:`, `file:` or `data:` link survives (Markdown images may be `data:` GIF, PNG, JPEG or WebP in escape mode). There is no mode that passes HTML through unchanged. ' +
    `\`breaks\` renders single line breaks as \`<br />\`; \`typographer\` turns quotes into curly quotes and \`--\`, \`...\`, \`(c)\` into dashes, ellipses and symbols. Block quotes and lists nested deeper than ${MAX_MARKDOWN_NESTING} levels are rendered as text from there on. Markdown has no syntax errors: any text renders. ` +
    '`toMarkdown` converts HTML to Markdown with turndown: `headingStyle` `atx` (`# Title`) or `setext` (underlined), `bulletListMarker`, `codeBlockStyle` `fenced` (with the `language-*` class as its info string) or `indented`, and with `gfm` (the default) tables, strikethrough (`~~text~~`) and task lists. `script`, `style`, `noscript`, `template`, `head` and `title` elements are dropped with their content; any HTML is accepted, repaired as a browser would. ' +
    `A field of the other action set to anything but its default is a 400. HTML nesting deeper than ${MAX_NESTING_DEPTH} elements (toMarkdown's input, or the HTML that sanitize cleans; scanned first) and an answer past the output limit (a link reference repeated many times can multiply the input) are a 422 LIMIT_EXCEEDED.`,
  input: Type.Object(
    {
      input: Type.String({
        maxLength: MAX_INPUT_LENGTH,
        description: 'The Markdown to render (toHtml) or the HTML to convert (toMarkdown). May be empty.',
        examples: ['# Title\n\nSome *emphasis* and a [link](https://example.com).'],
      }),
      action: withDefault(Type.Enum(ACTIONS, { description: '`toHtml`: Markdown to HTML; `toMarkdown`: HTML to Markdown.' }), 'toHtml'),
      flavor: withDefault(
        Type.Enum(FLAVORS, {
          description: 'toHtml: `gfm` (GitHub Flavored Markdown: tables, strikethrough, autolinks, task lists) or `commonmark` (CommonMark 0.31.2 only).',
        }),
        'gfm',
      ),
      html: withDefault(
        Type.Enum(HTML_MODES, {
          description:
            'toHtml: what to do with raw HTML in the Markdown: `escape` shows it as text, `sanitize` keeps the safe tags and attributes of an allowlist.',
        }),
        'escape',
      ),
      breaks: withDefault(Type.Boolean({ description: 'toHtml: render single line breaks inside a paragraph as `<br />`, as GitHub comments do.' }), false),
      typographer: withDefault(Type.Boolean({ description: 'toHtml: curly quotes, dashes for `--` and `---`, an ellipsis for `...`, © for `(c)`.' }), false),
      headingStyle: withDefault(
        Type.Enum(['atx', 'setext'] as const, { description: 'toMarkdown: `atx` writes `# Title`; `setext` underlines levels 1 and 2 with `=` and `-`.' }),
        'atx',
      ),
      bulletListMarker: withDefault(Type.Enum(['-', '*', '+'] as const, { description: 'toMarkdown: the marker of unordered list items.' }), '-'),
      codeBlockStyle: withDefault(
        Type.Enum(['fenced', 'indented'] as const, {
          description: 'toMarkdown: code blocks between ``` fences (with their language) or indented by four spaces.',
        }),
        'fenced',
      ),
      gfm: withDefault(Type.Boolean({ description: 'toMarkdown: write tables, strikethrough and task lists as GitHub Flavored Markdown.' }), true),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The HTML (toHtml), safe to insert into a page, or the Markdown (toMarkdown).' }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    flavor: Type.Optional(Type.Enum(FLAVORS, { description: 'toHtml only: the flavor of Markdown rendered.' })),
  }),
  actions: {
    toHtml: { fields: ['input', 'flavor', 'html', 'breaks', 'typographer'] },
    toMarkdown: { fields: ['input', 'headingStyle', 'bulletListMarker', 'codeBlockStyle', 'gfm'] },
  },
  examples: [
    {
      summary: 'Markdown to HTML, GitHub Flavored (the default)',
      input: { input: '# Title\n\nSome *emphasis*, ~~old~~ and www.example.com.\n\n- [x] done\n- [ ] to do' },
      output: {
        result:
          '<h1>Title</h1>\n<p>Some <em>emphasis</em>, <del>old</del> and <a href="http://www.example.com">www.example.com</a>.</p>\n<ul>\n<li><input checked="" disabled="" type="checkbox"> done</li>\n<li><input disabled="" type="checkbox"> to do</li>\n</ul>\n',
        action: 'toHtml',
        flavor: 'gfm',
      },
    },
    {
      summary: 'A table, and raw HTML shown as text (html: escape)',
      input: { input: '| a | b |\n|:-|-:|\n| 1 | 2 |\n\n<img src=x onerror=alert(1)>' },
      output: {
        result:
          '<table>\n<thead>\n<tr>\n<th align="left">a</th>\n<th align="right">b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td align="left">1</td>\n<td align="right">2</td>\n</tr>\n</tbody>\n</table>\n<p>&lt;img src=x onerror=alert(1)&gt;</p>\n',
        action: 'toHtml',
        flavor: 'gfm',
      },
    },
    {
      summary: 'Raw HTML kept but sanitized, CommonMark only',
      input: {
        input: 'Press <kbd>Ctrl</kbd> <script>alert(1)</script><a href="javascript:alert(1)" onclick="x()">here</a>',
        flavor: 'commonmark',
        html: 'sanitize',
      },
      output: { result: '<p>Press <kbd>Ctrl</kbd> <a>here</a></p>\n', action: 'toHtml', flavor: 'commonmark' },
    },
    {
      summary: 'HTML to Markdown',
      input: {
        input:
          '<h2>Notes</h2><ul><li><strong>Bold</strong> and <a href="https://example.com">a link</a></li></ul><pre><code class="language-js">let a = 1\n</code></pre><script>x()</script>',
        action: 'toMarkdown',
      },
      output: { result: '## Notes\n\n-   **Bold** and [a link](https://example.com)\n\n```js\nlet a = 1\n```', action: 'toMarkdown' },
    },
  ],
  offload: ({ input }) => input.length > OFFLOAD_LENGTH,
  overrun: { advice: 'send a smaller document' },
  async run({ input, action, flavor, html, breaks, typographer, headingStyle, bulletListMarker, codeBlockStyle, gfm }) {
    if (action === 'toMarkdown') {
      refuseOtherActionFields(action, { flavor, html, breaks, typographer }, HTML_DEFAULTS, 'toHtml')
      return { result: await htmlToMarkdown(input, { headingStyle, bulletListMarker, codeBlockStyle, gfm }), action }
    }
    refuseOtherActionFields(action, { headingStyle, bulletListMarker, codeBlockStyle, gfm }, MARKDOWN_DEFAULTS, 'toMarkdown')
    return { result: await markdownToHtml(input, { flavor, html, breaks, typographer }), action, flavor }
  },
})
