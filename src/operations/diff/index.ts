import { type Change, diffArrays, diffChars, diffLines, type StructuredPatchHunk, structuredPatch } from 'diff'
import { Type } from 'typebox'
import { DEFAULT_CONFIG } from '../../core/config.ts'
import { limitExceeded } from '../../core/errors.ts'
import { assertOutputWithinLimit, OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { segmentsOf } from '../../lib/text/segment.ts'
import { utf8Length } from '../../lib/text/utf8-length.ts'

const MODES = ['lines', 'words', 'chars'] as const
type Mode = (typeof MODES)[number]

/** Each text may be this long, in characters: two of them fit a 16 MiB answer even marked up twice. */
export const MAX_TEXT_LENGTH = 1024 * 1024

/**
 * The most edits (inserted plus deleted lines, words or characters) a diff may have. Myers' algorithm,
 * which jsdiff implements, costs about the square of this number whatever the texts' length, and more
 * where the texts share many short runs; those are stopped by the time budget instead (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const MAX_EDITS = 4_000

/** The part of the time budget the diff itself may take, leaving room to build and send the answer. */
const DIFF_SHARE_OF_BUDGET = 0.8

/**
 * Texts longer than this together go to a worker thread. The cost of a diff depends on how much the
 * texts differ, which a cheap predicate cannot see, so only texts whose worst case stays a few
 * milliseconds are diffed in process (docs/PERFORMANCE.md, "Offload thresholds and cost bounds"). Lines and words hold at least two characters per token.
 */
const OFFLOAD_CHARACTERS = 512
const CHARS_OFFLOAD_CHARACTERS = 256

const NAME_PATTERN = '^[^\\u0000-\\u001f\\u007f]*$'

/** A hunk's range as the unified format writes it: `start` alone for one line, `start,count` otherwise. */
function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${start},${count}`
}

/**
 * jsdiff numbers an empty range from the line after it; GNU diff (and the unified format) from the
 * line before it, so that `-3,0` means "after line 3" and an empty file is `-0,0`.
 */
function gnuHunk(hunk: StructuredPatchHunk): StructuredPatchHunk {
  return {
    oldStart: hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart,
    oldLines: hunk.oldLines,
    newStart: hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart,
    newLines: hunk.newLines,
    lines: hunk.lines,
  }
}

function unifiedDiff(oldName: string, newName: string, hunks: StructuredPatchHunk[]): string {
  if (hunks.length === 0) return ''
  const parts = [`--- ${oldName}`, `+++ ${newName}`]
  for (const hunk of hunks) {
    parts.push(`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`, ...hunk.lines)
  }
  return `${parts.join('\n')}\n`
}

/** jsdiff's options that stop it, and the error to give when it stops (it answers undefined either way). */
function bounds(timeBudgetMs: number) {
  const timeout = Math.floor(timeBudgetMs * DIFF_SHARE_OF_BUDGET)
  const startedAt = Date.now()
  return {
    options: { maxEditLength: MAX_EDITS, timeout },
    stopped(unit: string): Error {
      if (Date.now() - startedAt >= timeout) {
        return limitExceeded(`The texts differ too much to diff within the time budget (${timeout} ms for the diff); diff smaller parts of them`, {
          limit: timeout,
        })
      }
      return limitExceeded(`The texts differ by more than ${MAX_EDITS} ${unit} (inserted plus deleted); diff smaller parts of them`, { limit: MAX_EDITS })
    },
  }
}

type Bounds = ReturnType<typeof bounds>

const WHITESPACE_ONLY = /^\s+$/u
/** Words, runs of whitespace and single punctuation marks, as Unicode's word boundaries (UAX #29) cut them. */
function wordTokens(text: string): string[] {
  return Array.from(segmentsOf(text, 'word'), ({ segment }) => segment)
}

/** One step of a word or character diff: text in both, or text removed and text added. */
type Piece = { common: string } | { removed: string; added: string }

/**
 * Word changes as git's word diff shows them: whitespace alone between two changes is folded into
 * both, so `the quick brown fox` → `the slow red fox` is one change, not two around a kept space.
 */
function foldWhitespace(pieces: Piece[]): Piece[] {
  const folded: Piece[] = []
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]
    const previous = folded[folded.length - 1]
    const next = pieces[i + 1]
    if ('common' in piece && WHITESPACE_ONLY.test(piece.common) && previous && 'removed' in previous && next && 'removed' in next) {
      folded[folded.length - 1] = { removed: previous.removed + piece.common + next.removed, added: previous.added + piece.common + next.added }
      i++
    } else if ('removed' in piece && previous && 'removed' in previous) {
      folded[folded.length - 1] = { removed: previous.removed + piece.removed, added: previous.added + piece.added }
    } else {
      folded.push(piece)
    }
  }
  return folded
}

function piecesOf(changes: Array<{ value: string; added: boolean; removed: boolean }>): Piece[] {
  const pieces: Piece[] = []
  for (const change of changes) {
    const previous = pieces[pieces.length - 1]
    if (!change.added && !change.removed) pieces.push({ common: change.value })
    else if (previous && 'removed' in previous) {
      if (change.added) previous.added += change.value
      else previous.removed += change.value
    } else pieces.push(change.added ? { removed: '', added: change.value } : { removed: change.value, added: '' })
  }
  return pieces
}

/** `[-old-]{+new+}` around each change, as `git diff --word-diff=plain` writes it. */
function markUp(pieces: Piece[]): string {
  return pieces
    .map((piece) => {
      if ('common' in piece) return piece.common
      return (piece.removed ? `[-${piece.removed}-]` : '') + (piece.added ? `{+${piece.added}+}` : '')
    })
    .join('')
}

function changesOf(pieces: Piece[]): ChangeEntry[] {
  const changes: ChangeEntry[] = []
  for (const piece of pieces) {
    if ('common' in piece) changes.push({ value: piece.common, added: false, removed: false })
    else {
      if (piece.removed) changes.push({ value: piece.removed, added: false, removed: true })
      if (piece.added) changes.push({ value: piece.added, added: true, removed: false })
    }
  }
  return changes
}

interface ChangeEntry {
  value: string
  added: boolean
  removed: boolean
}

const isWord = (token: string) => !WHITESPACE_ONLY.test(token)
const countOf = (values: string[], counted: (token: string) => boolean) => values.filter(counted).length

function diffWordsOf(input: string, compareTo: string, limits: Bounds) {
  const oldTokens = wordTokens(input)
  const newTokens = wordTokens(compareTo)
  const tokenChanges = diffArrays(oldTokens, newTokens, limits.options)
  if (!tokenChanges) throw limits.stopped('words')
  let additions = 0
  let deletions = 0
  for (const change of tokenChanges) {
    if (change.added) additions += countOf(change.value, isWord)
    if (change.removed) deletions += countOf(change.value, isWord)
  }
  const pieces = foldWhitespace(piecesOf(tokenChanges.map((change) => ({ value: change.value.join(''), added: change.added, removed: change.removed }))))
  return { result: markUp(pieces), additions, deletions, changes: changesOf(pieces) }
}

function diffCharsOf(input: string, compareTo: string, limits: Bounds) {
  const charChanges = diffChars(input, compareTo, limits.options)
  if (!charChanges) throw limits.stopped('characters')
  const pieces = piecesOf(charChanges)
  return { result: markUp(pieces), ...tally(charChanges), changes: changesOf(pieces) }
}

/** Added and removed tokens: jsdiff counts lines for line diffs and code points for character diffs. */
function tally(changes: Change[]) {
  let additions = 0
  let deletions = 0
  for (const change of changes) {
    if (change.added) additions += change.count
    if (change.removed) deletions += change.count
  }
  return { additions, deletions }
}

function diffLinesOf(input: string, compareTo: string, context: number, oldName: string, newName: string, limits: Bounds) {
  const lineChanges = diffLines(input, compareTo, limits.options)
  const patch = lineChanges && structuredPatch(oldName, newName, input, compareTo, undefined, undefined, { context, ...limits.options })
  if (!lineChanges || !patch) throw limits.stopped('lines')
  const hunks = patch.hunks.map(gnuHunk)
  const changes = lineChanges.map(({ value, added, removed }) => ({ value, added, removed }))
  return { result: unifiedDiff(oldName, newName, hunks), ...tally(lineChanges), hunks, changes }
}

/**
 * An upper bound of the answer's JSON size (every character escaped as \uXXXX), then its real size
 * only when the bound is over the limit: texts of control characters can pass it.
 */
function assertAnswerWithinLimit(answer: Answer): void {
  let characters = answer.result.length
  for (const change of answer.changes) characters += change.value.length + 40
  for (const hunk of answer.hunks ?? []) for (const line of hunk.lines) characters += line.length + 4
  if (characters * 6 > OUTPUT_LIMIT_BYTES) assertOutputWithinLimit(utf8Length(JSON.stringify(answer)))
}

const changeSchema = Type.Object({
  value: Type.String({ description: 'The text of this change: whole lines (with their line breaks) in lines mode.' }),
  added: Type.Boolean({ description: 'The text is only in `compareTo`.' }),
  removed: Type.Boolean({ description: 'The text is only in `input`.' }),
})

const hunkSchema = Type.Object({
  oldStart: Type.Integer({ description: 'The first line of the hunk in `input`, from 1; for an empty range, the line before it (0 at the very start).' }),
  oldLines: Type.Integer({ description: 'How many lines of `input` the hunk covers.' }),
  newStart: Type.Integer({ description: 'The first line of the hunk in `compareTo`, counted as `oldStart` is.' }),
  newLines: Type.Integer({ description: 'How many lines of `compareTo` the hunk covers.' }),
  lines: Type.Array(Type.String(), {
    description:
      'The hunk body: each line prefixed with a space (context), - (removed) or + (added), and `\\ No newline at end of file` after a last line that has none.',
  }),
})

export const diff = defineOperation({
  name: 'diff',
  category: 'converters',
  summary: 'Compare two texts line by line, word by word or character by character',
  title: 'Text diff',
  aliases: ['compare', 'difference', 'patch', 'unified diff', 'changes between'],
  description:
    'Compares `input` (the old text) with `compareTo` (the new) using the Myers algorithm of jsdiff. ' +
    'In `lines` mode (the default) `result` is a unified diff, as `diff -u` writes it: `---`/`+++` headers, hunks headed `@@ -start,count +start,count @@` ' +
    '(a count of 1 is left out, an empty range starts at the line before it), `context` unchanged lines around each change, and `\\ No newline at end of file` where a text does not end with a line break; ' +
    'identical texts give an empty `result`. `hunks` gives the same hunks as data. ' +
    'In `words` and `chars` mode `result` is the new text with each change marked up as `git diff --word-diff=plain` does: `[-removed-]{+added+}`. ' +
    'Words are cut at Unicode word boundaries (UAX #29, so any script works), and whitespace alone between two changes is folded into them. Characters are code points. ' +
    '`additions` and `deletions` count lines, words (and punctuation marks) or characters; `changes` lists every piece of text in order, kept, removed or added: the kept and removed ones make `input`, the kept and added ones `compareTo`. ' +
    `Texts that differ by more than ${MAX_EDITS} lines, words or characters, or whose diff would not finish within the time budget, are a 422 LIMIT_EXCEEDED: the work grows with the square of the difference.`,
  input: Type.Object(
    {
      input: Type.String({ maxLength: MAX_TEXT_LENGTH, description: 'The old text. May be empty.', examples: ['one\ntwo\nthree\n'] }),
      compareTo: Type.String({ maxLength: MAX_TEXT_LENGTH, description: 'The new text, compared with `input`. May be empty.', examples: ['one\n2\nthree\n'] }),
      mode: withDefault(
        Type.Enum(MODES, {
          description: 'What to compare: `lines` (a unified diff), `words` or `chars` (the text marked up with `[-removed-]{+added+}`).',
        }),
        'lines',
      ),
      context: withDefault(
        Type.Integer({ minimum: 0, maximum: 10_000, description: 'In lines mode: how many unchanged lines to show around each change (as `diff -U`).' }),
        3,
      ),
      oldName: withDefault(
        Type.String({
          maxLength: 255,
          pattern: NAME_PATTERN,
          description: 'In lines mode: the name on the `---` line of the unified diff. No control characters.',
        }),
        'old',
      ),
      newName: withDefault(
        Type.String({
          maxLength: 255,
          pattern: NAME_PATTERN,
          description: 'In lines mode: the name on the `+++` line of the unified diff. No control characters.',
        }),
        'new',
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The unified diff (lines mode), or the text with its changes marked up (words and chars modes).' }),
    mode: Type.Enum(MODES, { description: 'The mode used.' }),
    additions: Type.Integer({ description: 'Lines, words or characters only in `compareTo`.' }),
    deletions: Type.Integer({ description: 'Lines, words or characters only in `input`.' }),
    hunks: Type.Optional(Type.Array(hunkSchema, { description: 'Lines mode only: the hunks of the unified diff, numbered as in their headers.' })),
    changes: Type.Array(changeSchema, { description: 'Every piece of both texts in order: kept (neither flag), removed, or added.' }),
  }),
  examples: [
    {
      summary: 'A unified diff of two texts (lines mode, the default)',
      input: { input: 'one\ntwo\nthree\n', compareTo: 'one\n2\nthree\n' },
      output: {
        result: '--- old\n+++ new\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n',
        mode: 'lines',
        additions: 1,
        deletions: 1,
        hunks: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' one', '-two', '+2', ' three'] }],
        changes: [
          { value: 'one\n', added: false, removed: false },
          { value: 'two\n', added: false, removed: true },
          { value: '2\n', added: true, removed: false },
          { value: 'three\n', added: false, removed: false },
        ],
      },
    },
    {
      summary: 'Words, marked up as git --word-diff=plain does',
      input: { input: 'the quick brown fox', compareTo: 'the slow red fox', mode: 'words' },
      output: {
        result: 'the [-quick brown-]{+slow red+} fox',
        mode: 'words',
        additions: 2,
        deletions: 2,
        changes: [
          { value: 'the ', added: false, removed: false },
          { value: 'quick brown', added: false, removed: true },
          { value: 'slow red', added: true, removed: false },
          { value: ' fox', added: false, removed: false },
        ],
      },
    },
    {
      summary: 'Characters',
      input: { input: 'colour', compareTo: 'color', mode: 'chars' },
      output: {
        result: 'colo[-u-]r',
        mode: 'chars',
        additions: 0,
        deletions: 1,
        changes: [
          { value: 'colo', added: false, removed: false },
          { value: 'u', added: false, removed: true },
          { value: 'r', added: false, removed: false },
        ],
      },
    },
    {
      summary: 'A last line without a line break, no context, named files',
      input: { input: 'a\nb', compareTo: 'a\nc', context: 0, oldName: 'a/notes.txt', newName: 'b/notes.txt' },
      output: {
        result: '--- a/notes.txt\n+++ b/notes.txt\n@@ -2 +2 @@\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n',
        mode: 'lines',
        additions: 1,
        deletions: 1,
        hunks: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1, lines: ['-b', '\\ No newline at end of file', '+c', '\\ No newline at end of file'] }],
        changes: [
          { value: 'a\n', added: false, removed: false },
          { value: 'b', added: false, removed: true },
          { value: 'c', added: true, removed: false },
        ],
      },
    },
  ],
  offload({ input, compareTo, mode }) {
    return input.length + compareTo.length > (mode === 'chars' ? CHARS_OFFLOAD_CHARACTERS : OFFLOAD_CHARACTERS)
  },
  runsInBrowser: true,
  run({ input, compareTo, mode, context, oldName, newName }, runContext) {
    // A worker thread is not told the budget; there the default one applies (the pool stops the thread at the real one).
    const limits = bounds(runContext?.timeBudgetMs ?? DEFAULT_CONFIG.timeBudgetMs)
    const answer = diffOf(mode, input, compareTo, context, oldName, newName, limits)
    assertAnswerWithinLimit(answer)
    const { result, additions, deletions, hunks, changes } = answer
    return hunks ? { result, mode, additions, deletions, hunks, changes } : { result, mode, additions, deletions, changes }
  },
})

interface Answer {
  result: string
  additions: number
  deletions: number
  hunks?: StructuredPatchHunk[]
  changes: ChangeEntry[]
}

function diffOf(mode: Mode, input: string, compareTo: string, context: number, oldName: string, newName: string, limits: Bounds): Answer {
  if (mode === 'words') return diffWordsOf(input, compareTo, limits)
  if (mode === 'chars') return diffCharsOf(input, compareTo, limits)
  return diffLinesOf(input, compareTo, context, oldName, newName, limits)
}
