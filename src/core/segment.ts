/**
 * Text segmentation (UAX #29) with Intl.Segmenter in linear time. V8's segment iterator costs time
 * in proportion to the whole text for each segment it gives, so that a whole text costs the square of
 * its length (docs/PERFORMANCE.md, "Offload thresholds and cost bounds"); long texts are segmented in pieces of about
 * `chunkLength` characters, cut only where the standard always puts a boundary: after a line feed,
 * and between characters that no rule holds together (below). Where no such place turns up, a
 * piece ends at a boundary the segmenter itself finds (see pieceEnd).
 */

export type Granularity = 'grapheme' | 'word'

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

/** Whether UAX #29 always puts a boundary of this granularity at `index` (0 < index < length). */
export function isCertainBoundary(text: string, index: number, granularity: Granularity): boolean {
  const before = codePointBefore(text, index)
  if (before === '\n') return true
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

const segmenters: Record<Granularity, Intl.Segmenter> = {
  grapheme: new Intl.Segmenter('und', { granularity: 'grapheme' }),
  word: new Intl.Segmenter('und', { granularity: 'word' }),
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

/**
 * Where to end the piece that starts at `start`: at a certain boundary after `chunkLength`
 * characters, or else at the last boundary the segmenter finds in a window (doubled until it finds
 * one far enough from the window's end), so that a text without spaces or line feeds, or one long
 * cluster of marks, still costs linear time.
 */
function pieceEnd(text: string, start: number, granularity: Granularity, chunkLength: number): number {
  if (text.length - start <= chunkLength) return text.length
  const cut = certainCut(text, start + chunkLength, start + 4 * chunkLength, granularity)
  if (cut >= 0) return cut
  for (let window = 4 * chunkLength; ; window *= 2) {
    const end = Math.min(text.length, start + window)
    if (end === text.length) return end
    let last = 0
    for (const { index } of segmenters[granularity].segment(text.slice(start, end))) {
      if (end - (start + index) < LOOKAHEAD_MARGIN) break
      last = index
    }
    if (last > 0) return start + last
  }
}

/**
 * ICU loads its CJK word dictionary with the first word segmentation that needs it, and that one
 * segmentation can break kana differently from every later one (`ーの` as one word, then as two):
 * segmenting a little Japanese first makes every answer the same, the first included.
 */
let wordDictionaryLoaded = false

function loadWordDictionary(): void {
  if (wordDictionaryLoaded) return
  Array.from(segmenters.word.segment('日本語の文章'))
  wordDictionaryLoaded = true
}

/** The segments of `text`, as Intl.Segmenter gives them for the whole text, in linear time. */
export function* segmentsOf(text: string, granularity: Granularity, chunkLength = DEFAULT_CHUNK_LENGTH): Generator<Segment> {
  if (granularity === 'word') loadWordDictionary()
  let start = 0
  while (start < text.length) {
    const end = pieceEnd(text, start, granularity, chunkLength)
    for (const { segment, index, isWordLike } of segmenters[granularity].segment(text.slice(start, end))) {
      yield { segment, index: start + index, isWordLike }
    }
    start = end
  }
}
