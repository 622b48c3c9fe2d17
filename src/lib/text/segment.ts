/**
 * Text segmentation (UAX #29) with Intl.Segmenter in linear time. V8's segment iterator costs time
 * in proportion to the whole text for each segment it gives, so that a whole text costs the square of
 * its length (docs/PERFORMANCE.md, "Offload thresholds and cost bounds"); long texts are segmented in pieces of about
 * `chunkLength` characters, cut only where the standard always puts a boundary: after a line feed,
 * between characters that no rule holds together, and for sentences after any paragraph separator
 * or before a letter that follows a terminator (below). Where no such place turns up, a piece ends
 * at a boundary the segmenter itself finds (see pieceEnd).
 */

export type Granularity = 'grapheme' | 'word' | 'sentence'

const DEFAULT_CHUNK_LENGTH = 128

/** Characters after which a word boundary always follows when a letter or digit comes next (WB3a, WB3d, WB999). */
const WORD_BREAK_BEFORE_LETTER = /[ \t\n]/
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u

/**
 * Characters that begin or end a grapheme cluster on their own whichever of them is next: letters,
 * digits, punctuation, symbols and spaces, less those the cluster rules join to a neighbour (Hangul
 * jamo and syllables, regional indicators, emoji modifiers, and the letters of the Prepend class).
 */
const STANDALONE =
  /^(?![\p{Script=Hangul}\u{1F1E6}-\u{1F1FF}\p{Emoji_Modifier}\u0D4E\u{111C2}\u{111C3}\u{113D1}\u{1193F}\u{11941}\u{11A3A}\u{11A84}-\u{11A89}\u{11D46}])[\p{L}\p{N}\p{P}\p{S}\p{Zs}]$/u

function codePointBefore(text: string, index: number): string {
  const last = text.charCodeAt(index - 1)
  return last >= 0xdc00 && last <= 0xdfff && index >= 2 ? text.slice(index - 2, index) : text.slice(index - 1, index)
}

function codePointAt(text: string, index: number): string {
  return String.fromCodePoint(text.codePointAt(index)!)
}

/** Paragraph separators after which a sentence always ends (SB4); a CR only when no LF follows it (SB3). */
const PARAGRAPH_SEPARATOR = /[\n\u0085\u2028\u2029]/
const LETTER = /^\p{L}$/u
const UPPER = /^[\p{Lu}\p{Lt}]$/u
/** Sentence_Break Sp, Close, STerm and ATerm: a few common members of each, enough to find safe cuts in prose. */
const SPACE = /[ \t]/
const CLOSE = /["'()[\]{}\u00ab\u00bb\u2018\u2019\u201c\u201d\u300c-\u300f\uff08\uff09]/
const STERM = /[!?\u3002\uff01\uff1f]/
/** Spaces and closing marks looked through, back from a letter, for the terminator of the sentence before it. */
const SENTENCE_LOOKBEHIND = 32

/**
 * A letter after a terminator, closing marks and spaces always starts a sentence (SB11), unless the
 * terminator is a full stop that a lower-case word continues (SB8) or that sits between letters
 * (SB7, `U.S`): so after `!` or `?` any letter, after `.` only an upper-case one past a space or
 * closing mark.
 */
function startsSentence(text: string, index: number): boolean {
  const after = codePointAt(text, index)
  if (!LETTER.test(after)) return false
  let at = index - 1
  const floor = Math.max(0, index - SENTENCE_LOOKBEHIND)
  while (at >= floor && SPACE.test(text[at])) at--
  while (at >= floor && CLOSE.test(text[at])) at--
  if (at < floor) return false
  if (STERM.test(text[at])) return true
  return text[at] === '.' && at < index - 1 && UPPER.test(after)
}

/** Whether UAX #29 always puts a boundary of this granularity at `index` (0 < index < length). */
export function isCertainBoundary(text: string, index: number, granularity: Granularity): boolean {
  const before = codePointBefore(text, index)
  if (before === '\n') return true
  if (granularity === 'sentence') {
    if (PARAGRAPH_SEPARATOR.test(before) || (before === '\r' && text[index] !== '\n')) return true
    return startsSentence(text, index)
  }
  const after = codePointAt(text, index)
  if (granularity === 'word') return WORD_BREAK_BEFORE_LETTER.test(before) && LETTER_OR_DIGIT.test(after)
  return STANDALONE.test(before) && STANDALONE.test(after)
}

/** The first certain boundary in [from, to), or -1. */
function certainCut(text: string, from: number, to: number, granularity: Granularity): number {
  for (let index = from; index < Math.min(to, text.length); index++) {
    const unit = text.charCodeAt(index)
    if (unit >= 0xdc00 && unit <= 0xdfff) continue
    if (isCertainBoundary(text, index, granularity)) return index
  }
  return -1
}

/** Segmenters by granularity and locale, few enough to keep: callers choose the locale, so the cache is bounded. */
const segmenters = new Map<string, Intl.Segmenter>()
const MAX_SEGMENTERS = 64

/**
 * ICU loads its CJK word dictionary with the first word segmentation that needs it, and that one
 * segmentation can break kana differently from every later one (`ーの` as one word, then as two):
 * segmenting a little Japanese first makes every answer the same, the first included.
 */
function segmenterFor(granularity: Granularity, locale: string): Intl.Segmenter {
  const key = `${granularity} ${locale}`
  let segmenter = segmenters.get(key)
  if (segmenter === undefined) {
    segmenter = new Intl.Segmenter(locale, { granularity })
    if (granularity === 'word') Array.from(segmenter.segment('日本語の文章'))
    if (segmenters.size >= MAX_SEGMENTERS) segmenters.delete(segmenters.keys().next().value!)
    segmenters.set(key, segmenter)
  }
  return segmenter
}

export interface Segment {
  segment: string
  /** Where the segment starts in the whole text, in UTF-16 code units. */
  index: number
  /** For words: whether it is a word rather than spaces or punctuation. */
  isWordLike?: boolean
}

/**
 * Characters that must follow a boundary found by segmenting a piece before it is trusted: the rules
 * look ahead past format and extending characters, which real text does not string together by the
 * dozen.
 */
const LOOKAHEAD_MARGIN = 64

/** Characters that end the look-ahead of SB8 (a full stop followed by a lower-case word): letters, paragraph separators and terminators. */
const SETTLES_SENTENCE = /[\p{L}\n\r\u0085\u2028\u2029.!?\u3002\uff01\uff1f]/u

/**
 * The last place in [from, to) before which the segmenter has seen all a sentence rule needs:
 * SB8 looks past any run of digits, spaces and punctuation for a lower-case letter, so a boundary
 * is trusted only where a letter, a paragraph separator or a terminator follows it inside the window.
 */
function lastSettled(text: string, from: number, to: number): number {
  for (let index = to - 1; index >= from; index--) {
    const unit = text.charCodeAt(index)
    const character = unit >= 0xdc00 && unit <= 0xdfff && index > from ? text.slice(index - 1, index + 1) : text[index]
    if (SETTLES_SENTENCE.test(character)) return index + 1 - character.length
  }
  return from
}

/**
 * Where to end the piece that starts at `start`: at a certain boundary after `chunkLength`
 * characters, or else at the last boundary the segmenter finds in a window (doubled until it finds
 * one far enough from the window's end), so that a text without spaces or line feeds, or one long
 * cluster of marks, still costs linear time.
 */
function pieceEnd(text: string, start: number, segmenter: Intl.Segmenter, granularity: Granularity, chunkLength: number): number {
  if (text.length - start <= chunkLength) return text.length
  const cut = certainCut(text, start + chunkLength, start + 4 * chunkLength, granularity)
  if (cut >= 0) return cut
  for (let window = 4 * chunkLength; ; window *= 2) {
    const end = Math.min(text.length, start + window)
    if (end === text.length) return end
    const settled = granularity === 'sentence' ? lastSettled(text, start, end) : end
    let last = 0
    for (const { index } of segmenter.segment(text.slice(start, end))) {
      if (end - (start + index) < LOOKAHEAD_MARGIN || start + index > settled) break
      last = index
    }
    if (last > 0) return start + last
  }
}

/**
 * The segments of `text`, as Intl.Segmenter gives them for the whole text, in linear time. `locale`
 * (a canonical BCP 47 tag) picks ICU's tailoring, where it has one: Greek ends sentences at `;`.
 */
export function* segmentsOf(text: string, granularity: Granularity, chunkLength = DEFAULT_CHUNK_LENGTH, locale = 'und'): Generator<Segment> {
  const segmenter = segmenterFor(granularity, locale)
  let start = 0
  while (start < text.length) {
    const end = pieceEnd(text, start, segmenter, granularity, chunkLength)
    for (const { segment, index, isWordLike } of segmenter.segment(text.slice(start, end))) {
      yield { segment, index: start + index, isWordLike }
    }
    start = end
  }
}
