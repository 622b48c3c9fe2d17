import { Type } from 'typebox'
import { validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { escapeJson, unescapeJson } from '../../lib/json/string-literal.ts'
import { unescapeRegex, unescapeUnicode } from './notation-unescapers.ts'
import { unescapeCsv, unescapeGoRaw, unescapeShell, unescapeSimpleQuoted } from './quoting-unescapers.ts'
import { cReader, goReader, javaReader, javascriptReader, phpReader, pythonReader, rustReader, unescapeCsharp } from './string-unescape-readers.ts'
import { unescapeWith } from './unescape-loop.ts'
import {
  csharpWriter,
  cWriter,
  escapeWith,
  goRawWriter,
  goWriter,
  javascriptWriter,
  javaWriter,
  NOTATIONS,
  type Notation,
  phpSingleWriter,
  phpWriter,
  pythonWriter,
  regexEscapeFunctionWriter,
  regexWriter,
  rustWriter,
  shellWriter,
  unicodeWriter,
} from './writers.ts'

/**
 * Inputs longer than this run on a worker thread: escaping every character (the unicode language,
 * scope all) writes an escape for each, which past this length holds the event loop for tens of
 * milliseconds (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const OFFLOAD_LENGTH = 32 * 1024

export const LANGUAGES = ['javascript', 'json', 'java', 'c', 'cpp', 'csharp', 'python', 'go', 'rust', 'php', 'shell', 'csv', 'regex', 'unicode'] as const
export type Language = (typeof LANGUAGES)[number]
export type Quote = 'double' | 'single' | 'backtick'

/** The quotes each language writes strings in, its usual one first; regex and unicode take none. */
const QUOTES: Record<Language, readonly Quote[]> = {
  javascript: ['double', 'single', 'backtick'],
  json: ['double'],
  java: ['double'],
  c: ['double'],
  cpp: ['double'],
  csharp: ['double'],
  python: ['single', 'double'],
  go: ['double', 'backtick'],
  rust: ['double'],
  php: ['double', 'single'],
  shell: ['single'],
  csv: ['double'],
  regex: [],
  unicode: [],
}
const QUOTE_CHAR: Record<Quote, string> = { double: '"', single: "'", backtick: '`' }

export interface StringEscapeOptions {
  action: 'escape' | 'unescape'
  language: Language
  quote?: Quote
  wrapInQuotes?: boolean
  asciiOnly?: boolean
  notation?: Notation
  scope?: 'nonAscii' | 'all'
  mode?: 'pattern' | 'escapeFunction'
}

/** Refuses (400) a field that the chosen language does not take, and answers the quote to use. */
function checkFields(options: StringEscapeOptions): Quote | undefined {
  const { language, quote } = options
  const quotes = QUOTES[language]
  if (quote !== undefined && !quotes.includes(quote)) {
    throw validationError('quote', quotes.length === 0 ? `is not taken by ${language}` : `must be ${quotes.join(' or ')} for ${language}`)
  }
  if (options.notation !== undefined && language !== 'unicode') throw validationError('notation', 'is taken by language unicode only')
  if (options.scope !== undefined && language !== 'unicode') throw validationError('scope', 'is taken by language unicode only')
  if (options.mode !== undefined && language !== 'regex') throw validationError('mode', 'is taken by language regex only')
  const chosen = quote ?? quotes[0]
  if (options.wrapInQuotes && quotes.length === 0) throw validationError('wrapInQuotes', `is not taken by ${language}, which has no quotes`)
  const noAscii =
    quotes.length === 0 ||
    language === 'shell' ||
    language === 'csv' ||
    (language === 'php' && chosen === 'single') ||
    (language === 'go' && chosen === 'backtick')
  if (options.asciiOnly && noAscii) {
    throw validationError('asciiOnly', `is not taken by ${language}${chosen ? ` with quote ${chosen}` : ''}, which has no escape for non-ASCII characters`)
  }
  return chosen
}

export function escapeString(text: string, options: StringEscapeOptions): string {
  const quote = checkFields(options)
  const asciiOnly = options.asciiOnly ?? false
  const q = quote ? QUOTE_CHAR[quote] : ''
  const wrap = options.wrapInQuotes ? q : ''
  switch (options.language) {
    case 'json':
      return escapeJson(text, asciiOnly, options.wrapInQuotes ?? false)
    case 'javascript':
      return escapeWith(text, javascriptWriter(q, asciiOnly), wrap)
    case 'java':
      return escapeWith(text, javaWriter(asciiOnly), wrap)
    case 'c':
    case 'cpp':
      return escapeWith(text, cWriter(asciiOnly), wrap)
    case 'csharp':
      return escapeWith(text, csharpWriter(asciiOnly), wrap)
    case 'python':
      return escapeWith(text, pythonWriter(q, asciiOnly), wrap)
    case 'go':
      return escapeWith(text, quote === 'backtick' ? goRawWriter : goWriter(asciiOnly), wrap)
    case 'rust':
      return escapeWith(text, rustWriter(asciiOnly), wrap)
    case 'php':
      return escapeWith(text, quote === 'single' ? phpSingleWriter : phpWriter(asciiOnly), wrap)
    case 'shell':
      return escapeWith(text, shellWriter, wrap)
    case 'csv': {
      const needsQuotes = options.wrapInQuotes || /[",\r\n]/.test(text)
      return needsQuotes ? escapeWith(text, (cp) => (cp === 0x22 ? '""' : undefined), '"') : text
    }
    case 'regex':
      return escapeWith(text, options.mode === 'escapeFunction' ? regexEscapeFunctionWriter : regexWriter)
    case 'unicode':
      return escapeWith(text, unicodeWriter(options.notation ?? 'uBraces', options.scope === 'all'))
  }
}

export function unescapeString(text: string, options: StringEscapeOptions): string {
  const quote = checkFields(options)
  const q = quote ? QUOTE_CHAR[quote] : ''
  switch (options.language) {
    case 'json':
      return unescapeJson(text)
    case 'javascript':
      return unescapeWith(text, q, javascriptReader(), { rawLineBreaks: q === '`', dollarBrace: q === '`', lineEnds: 'lf' })
    case 'java':
      return unescapeWith(text, q, javaReader())
    case 'c':
    case 'cpp':
      return unescapeWith(text, q, cReader())
    case 'csharp':
      return unescapeCsharp(text)
    case 'python':
      return unescapeWith(text, q, pythonReader())
    case 'go':
      return quote === 'backtick' ? unescapeGoRaw(text) : unescapeWith(text, q, goReader())
    case 'rust':
      return unescapeWith(text, q, rustReader(), { rawLineBreaks: true, lineEnds: 'crlfToLf' })
    case 'php':
      return quote === 'single'
        ? unescapeSimpleQuoted(text, q, (next) => next === "'" || next === '\\')
        : unescapeWith(text, q, phpReader(), { rawLineBreaks: true, phpDollar: true })
    case 'shell':
      return unescapeShell(text)
    case 'csv':
      return unescapeCsv(text)
    case 'regex':
      return unescapeRegex(text)
    case 'unicode':
      return unescapeUnicode(text, options.notation ?? 'uBraces')
  }
}

export const stringEscape = defineOperation({
  name: 'string-escape',
  category: 'encoders',
  summary: 'Escape text as a string literal (JavaScript, JSON, Java, C, C#, Python, Go, Rust, PHP, shell, CSV, regex, Unicode notation), or unescape one',
  title: 'String literal escape',
  labels: {
    choices: {
      // Each notation as it writes 😀.
      notation: {
        uBraces: '\\u{1F600}',
        utf16: '\\uD83D\\uDE00',
        u8: '\\U0001F600',
        xBraces: '\\x{1F600}',
        uPlus: 'U+1F600',
        htmlHex: '&#x1F600;',
        htmlDecimal: '&#128512;',
      },
      mode: { escapeFunction: 'RegExp.escape' },
    },
  },
  aliases: [
    'escape string',
    'unescape string',
    'string literal',
    'quote string',
    'javascript string',
    'java string',
    'c string',
    'c# string',
    'python string',
    'go string',
    'rust string',
    'php string',
    'shell quote',
    'bash quote',
    'csv quote',
    'regex escape',
    'RegExp.escape',
    'unicode escape',
    'code point notation',
    'backslash escape',
  ],
  description:
    'Escape writes `input` as the body of a string literal in `language` (with its quotes if `wrapInQuotes`); unescape reads such a literal back, with or without its quotes ' +
    '(a leading quote of the chosen kind means the quotes are included), and answers the text it stands for. ' +
    'Languages: `javascript` (ECMA-262 string literals: short escapes, other controls as `\\xhh`, U+2028/2029 as `\\u2028`; `asciiOnly` writes `\\uxxxx`, `\\u{…}` above U+FFFF; ' +
    'quote `backtick` makes a template literal, escaping `` ` `` and `${`), `json` (byte-identical to the json-escape operation, RFC 8259 §7), ' +
    '`java` (JLS §3.10.7; controls as `\\u00xx` but line breaks always `\\n`/`\\r`, since a `\\u000a` would end the line; unescape refuses `\\u000a`, `\\u000d`, `\\u0022` and `\\u005c` for that reason), ' +
    '`c` and `cpp` (C11 §6.4.4.4: controls and, with `asciiOnly`, each UTF-8 byte as a 3-digit octal escape, never a greedy `\\x`; `??` written `?\\?`; unescape decodes byte escapes as UTF-8), ' +
    '`csharp` (ECMA-334: `\\uxxxx`/`\\Uxxxxxxxx`, never the variable-length `\\x`; unescape also reads verbatim `@"…"`), ' +
    '`python` (quote `single` by default, as repr writes; `\\xhh`, `\\uxxxx`, `\\Uxxxxxxxx`; unescape refuses `\\N{…}` and unknown escapes), ' +
    '`go` (interpreted strings with `\\xhh` bytes, `\\u`, `\\U`; quote `backtick` is a raw string, which cannot hold a backtick or a carriage return: 422), ' +
    "`rust` (`\\x00`–`\\x7F` only, `\\u{…}`), `php` (double quotes escape `$` too and read unknown escapes as PHP does, keeping the backslash; single quotes only `\\'` and `\\\\`), " +
    "`shell` (POSIX single quotes: `'` becomes `'\\''`; NUL cannot be an argument: 422; unescape reads a shell word when the text starts with a quote, otherwise the body between single quotes), " +
    '`csv` (RFC 4180: a field holding `,` `"` CR or LF is quoted with `"` doubled; `wrapInQuotes` always quotes), ' +
    '`regex` (ECMA-262: a backslash before each SyntaxCharacter and `/`; `mode: escapeFunction` gives exactly what ES2025 `RegExp.escape` gives), ' +
    'and `unicode` (each non-ASCII character, or with `scope: all` every character, in a `notation`; the character that starts that notation is escaped too so the text reads back unchanged; hex digits are upper case, as Unicode writes them; `uPlus` is for reading, as `U+XXXX` followed by a hex digit is ambiguous). ' +
    'Raw line breaks are read as each language reads them: refused where a literal cannot span lines, CR and CRLF read as LF in a template literal, CRLF as LF in Rust, CR dropped from a Go raw string. ' +
    'Other escapes use lower-case hex. A field the language does not take (a `quote` it has no literal for, `notation` outside unicode, `mode` outside regex, `asciiOnly` where no escape exists) is a 400. ' +
    'Unescape refuses with a 422 naming the position (UTF-16 code units), line and column: an invalid escape, an unescaped quote or line break, an out-of-range value, a surrogate that does not pair up, bytes that are not UTF-8. ' +
    'A result over the 16 MiB output limit is refused (422 LIMIT_EXCEEDED) before it is built.',
  input: Type.Object(
    {
      input: Type.String({
        description: 'The text to escape, or the literal (with or without its quotes) to unescape. May be empty.',
        examples: ['Tab\t"q" é'],
      }),
      action: withDefault(Type.Enum(['escape', 'unescape'], { description: 'Escape `input` into a literal, or unescape the literal in `input`.' }), 'escape'),
      language: withDefault(Type.Enum([...LANGUAGES], { description: 'The language whose string literal to write or read.' }), 'javascript'),
      quote: Type.Optional(
        Type.Enum(['double', 'single', 'backtick'], {
          description:
            "The literal's quote; by default the language's usual one (double; single for python and shell). javascript takes all three, python and php double or single, go double or backtick (a raw string); regex and unicode take none.",
        }),
      ),
      wrapInQuotes: Type.Optional(
        Type.Boolean({
          description:
            'Escape only: put the quotes around the result (for csv: quote the field even when it need not be). Default false; not taken by regex and unicode.',
        }),
      ),
      asciiOnly: Type.Optional(
        Type.Boolean({
          description:
            'Escape only: also escape every non-ASCII character, so the result is pure ASCII. Default false; not taken by shell, csv, regex, unicode, php single quotes or go raw strings.',
        }),
      ),
      notation: Type.Optional(
        Type.Enum([...NOTATIONS], {
          description:
            'unicode only (default uBraces): uBraces `\\u{1F600}`, utf16 `\\uD83D\\uDE00`, u8 `\\U0001F600`, xBraces `\\x{1F600}`, uPlus `U+1F600`, htmlHex `&#x1F600;`, htmlDecimal `&#128512;`.',
        }),
      ),
      scope: Type.Optional(
        Type.Enum(['nonAscii', 'all'], { description: 'unicode only (default nonAscii): escape the non-ASCII characters, or every character.' }),
      ),
      mode: Type.Optional(
        Type.Enum(['pattern', 'escapeFunction'], {
          description:
            'regex only (default pattern): escape the syntax characters and `/`, or give exactly what ES2025 RegExp.escape gives (also punctuators, white space and an initial letter or digit).',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The escaped literal (escape) or the text it stands for (unescape).' }),
    action: Type.Enum(['escape', 'unescape'], { description: 'The action performed.' }),
    language: Type.Enum([...LANGUAGES], { description: 'The language of the literal.' }),
  }),
  actions: {
    escape: { fields: ['input', 'language', 'quote', 'wrapInQuotes', 'asciiOnly', 'notation', 'scope', 'mode'] },
    unescape: { fields: ['input', 'language', 'quote'] },
  },
  examples: [
    {
      summary: 'Escape for a JavaScript string',
      input: { input: 'Tab\t"q" é\n' },
      output: { result: 'Tab\\t\\"q\\" é\\n', action: 'escape', language: 'javascript' },
    },
    {
      summary: 'Quote a shell argument',
      input: { input: "it's", language: 'shell', wrapInQuotes: true },
      output: { result: "'it'\\''s'", action: 'escape', language: 'shell' },
    },
    {
      summary: 'Unescape a Go literal of byte escapes',
      input: { input: '"\\xe6\\x97\\xa5\\u672c\\U00008a9e"', action: 'unescape', language: 'go' },
      output: { result: '日本語', action: 'unescape', language: 'go' },
    },
    {
      summary: 'Escape for a regular expression, as RegExp.escape does',
      input: { input: 'The Quick (fox)', language: 'regex', mode: 'escapeFunction' },
      output: { result: '\\x54he\\x20Quick\\x20\\(fox\\)', action: 'escape', language: 'regex' },
    },
  ],
  offload: ({ input }) => input.length > OFFLOAD_LENGTH,
  runsInBrowser: true,
  run(input) {
    const result = input.action === 'escape' ? escapeString(input.input, input) : unescapeString(input.input, input)
    return { result, action: input.action, language: input.language }
  },
})
