// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is Compose's interpolation syntax, written in plain strings on purpose
import { invalidInput } from '../../core/errors.ts'

/** One word of a shell command, with its quotes removed, and where it starts in the command. */
export interface Word {
  text: string
  start: number
}

/**
 * How `$` is read. `compose`: as a POSIX shell would expand it, written for Compose's interpolation
 * (a variable becomes `${NAME}`, a literal `$` becomes `$$`), and shell operators are refused.
 * `literal`: as Compose splits a `command` string, with no expansion and no operators.
 */
export type DollarMode = 'compose' | 'literal'

const BLANK = new Set([' ', '\t'])
const OPERATORS = new Set([';', '&', '|', '<', '>', '(', ')'])
const NAME_START = /[A-Za-z_]/
const NAME_CHARACTER = /[A-Za-z0-9_]/
const SPECIAL_PARAMETER = /[0-9@*#?$!-]/
/** `${NAME}` and the forms Compose's interpolation shares with the shell: defaults, required values, alternatives. */
const BRACED = /^[A-Za-z_][A-Za-z0-9_]*(?:(?::?[-?+]).*)?$/s

const refuse = (message: string, position: number) => invalidInput(`${message} (at position ${position})`, { position })

/**
 * Splits one command into words as POSIX sh does (the Open Group's Shell Command Language, 2.3
 * and 2.6.7): blanks separate words; single quotes keep everything; double quotes keep everything
 * but `\`, `$` and backquote; a backslash outside quotes keeps the next character, and a
 * backslash-newline joins two lines. Nothing is expanded, globbed or run. In `compose` mode the
 * command must be one simple command: an operator, a command substitution or a second command
 * (after a newline) is refused with its position; a `#` that starts a word starts a comment.
 */
export function shellWords(command: string, mode: DollarMode): Word[] {
  return new WordSplitter(command, mode).split()
}

/** shellWords' pass over a command: the words so far, the one being read, and where it is. */
class WordSplitter {
  private readonly words: Word[] = []
  private readonly compose: boolean
  private index = 0
  /** The word being read, its quotes removed, and where it starts (-1 between words). */
  private text = ''
  private start = -1
  /** Where the line of the command ended, in `compose` mode: what follows may only be comments. */
  private ended = -1

  constructor(
    private readonly command: string,
    private readonly mode: DollarMode,
  ) {
    this.compose = mode === 'compose'
  }

  split(): Word[] {
    while (this.index < this.command.length) this.readCharacter()
    this.finishWord()
    return this.words
  }

  private readCharacter(): void {
    const { command, compose } = this
    const character = command[this.index]
    if (BLANK.has(character) || character === '\n' || character === '\r') this.readBlank(character)
    else if (compose && (this.ended !== -1 || (character === '#' && this.start === -1))) this.readComment(character)
    else if (character === '\\') this.readBackslash()
    else if (character === "'") this.readSingleQuoted()
    else if (character === '"') {
      this.beginWord()
      this.index = doubleQuoted(command, this.index + 1, this.mode, (part) => {
        this.text += part
      })
    } else if (compose && character === '$') {
      this.beginWord()
      const [part, next] = dollar(command, this.index)
      this.text += part
      this.index = next
    } else {
      if (compose) refuseOperator(character, this.index)
      this.beginWord()
      this.text += character
      this.index++
    }
  }

  private beginWord(): void {
    if (this.start === -1) this.start = this.index
  }

  private finishWord(): void {
    if (this.start !== -1) this.words.push({ text: this.text, start: this.start })
    this.text = ''
    this.start = -1
  }

  /** A blank ends a word; in `compose` mode the first line break after a word ends the command. */
  private readBlank(character: string): void {
    this.finishWord()
    if (character === '\n' && this.compose && this.words.length > 0 && this.ended === -1) this.ended = this.index
    this.index++
  }

  /** A `#` that starts a word starts a comment; after the command's line, anything else is a second command. */
  private readComment(character: string): void {
    if (character !== '#') {
      throw refuse('The input holds a second command after a line break; give one docker run command, joining lines with a backslash', this.index)
    }
    this.index = skipComment(this.command, this.index)
  }

  /** A backslash keeps the next character; before a line break it joins the two lines. */
  private readBackslash(): void {
    const { command, index } = this
    if (command[index + 1] === '\n') {
      this.index += 2
      return
    }
    if (command[index + 1] === '\r' && command[index + 2] === '\n') {
      this.index += 3
      return
    }
    this.beginWord()
    if (index + 1 < command.length) this.text += literal(command[index + 1], this.mode)
    this.index += 2
  }

  private readSingleQuoted(): void {
    const { command, index } = this
    this.beginWord()
    const close = command.indexOf("'", index + 1)
    if (close === -1) throw refuse('A single quote is not closed', index)
    this.text += literal(command.slice(index + 1, close), this.mode)
    this.index = close + 1
  }
}

/** In `compose` mode, a character that would make the command more than one simple command. */
function refuseOperator(character: string, at: number): void {
  if (character === '`') throw refuse('A command substitution (backquote) has no Compose form; run it first and paste its output', at)
  if (OPERATORS.has(character)) throw refuse(`The shell operator ${character} has no place in one docker run command; give the docker run command alone`, at)
}

function skipComment(command: string, from: number): number {
  const end = command.indexOf('\n', from)
  return end === -1 ? command.length : end
}

/** Text the shell keeps as it is: in `compose` mode each `$` is doubled so that Compose keeps it too. */
function literal(text: string, mode: DollarMode): string {
  return mode === 'compose' ? text.replaceAll('$', '$$$$') : text
}

/** Reads a double-quoted string from just after its opening quote; answers the index after its closing quote. */
function doubleQuoted(command: string, from: number, mode: DollarMode, add: (part: string) => void): number {
  let index = from
  while (index < command.length) {
    const character = command[index]
    if (character === '"') return index + 1
    if (character === '\\') {
      const next = command[index + 1]
      if (next === '\n') {
        index += 2
      } else if (next === '$' || next === '`' || next === '"' || next === '\\') {
        add(literal(next, mode))
        index += 2
      } else {
        add('\\')
        index++
      }
      continue
    }
    if (mode === 'compose' && character === '$') {
      const [part, next] = dollar(command, index)
      add(part)
      index = next
      continue
    }
    if (mode === 'compose' && character === '`')
      throw refuse('A command substitution (backquote) has no Compose form; run it first and paste its output', index)
    add(character)
    index++
  }
  throw refuse('A double quote is not closed', from - 1)
}

/** A `$` outside single quotes, in `compose` mode: the Compose text it stands for, and the index after it. */
function dollar(command: string, at: number): [string, number] {
  const next = command[at + 1]
  if (next === '(') throw refuse('A command substitution $(…) has no Compose form; run it first and paste its output', at)
  if (next === '{') {
    let depth = 1
    let index = at + 2
    while (index < command.length && depth > 0) {
      if (command[index] === '$' && command[index + 1] === '{') {
        depth++
        index++
      } else if (command[index] === '}') depth--
      index++
    }
    if (depth > 0) throw refuse('A ${ is not closed', at)
    const inner = command.slice(at + 2, index - 1)
    if (!BRACED.test(inner) || inner.includes('$(') || inner.includes('`')) {
      throw refuse(
        'This ${…} form has no Compose interpolation; Compose knows ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?error} and ${NAME:+other}',
        at,
      )
    }
    return [`\${${inner}}`, index]
  }
  if (next !== undefined && NAME_START.test(next)) {
    let index = at + 2
    while (index < command.length && NAME_CHARACTER.test(command[index])) index++
    return [`\${${command.slice(at + 1, index)}}`, index]
  }
  if (next !== undefined && SPECIAL_PARAMETER.test(next)) {
    throw refuse(`The shell parameter $${next} has no Compose form; write its value instead`, at)
  }
  return ['$$', at + 1]
}

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/

/** A word as POSIX sh reads it back unchanged: as it is when it holds only safe characters, else single-quoted. */
export function shellQuote(text: string): string {
  if (SAFE_WORD.test(text)) return text
  return `'${text.replaceAll("'", `'\\''`)}'`
}

/** A Compose variable reference: `$$`, `${…}` (with nested braces) or `$NAME`. */
function nextReference(text: string, from: number): { start: number; end: number; literal?: true } | undefined {
  for (let index = text.indexOf('$', from); index !== -1; index = text.indexOf('$', index + 1)) {
    const next = text[index + 1]
    if (next === '$') return { start: index, end: index + 2, literal: true }
    if (next === '{') {
      let depth = 1
      let end = index + 2
      while (end < text.length && depth > 0) {
        if (text[end] === '$' && text[end + 1] === '{') {
          depth++
          end++
        } else if (text[end] === '}') depth--
        end++
      }
      if (depth === 0) return { start: index, end }
    } else if (next !== undefined && NAME_START.test(next)) {
      let end = index + 2
      while (end < text.length && NAME_CHARACTER.test(text[end])) end++
      return { start: index, end }
    }
  }
  return undefined
}

const NO_VARIABLE =
  'A ${…} in the Compose file names no variable, which Compose refuses too: it knows ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?error} and ${NAME:+other}, and a literal $ is written $$'

/**
 * A Compose value as one shell word for `docker run`: `$$` becomes a literal `$`, and a variable
 * (`${NAME}`, `$NAME`, `${NAME:-default}`) is left in double quotes for the shell to expand, as
 * Compose would have interpolated it. Answers the word and the names of the variables left.
 */
export function composeValueToShell(value: string): { word: string; variables: string[] } {
  const parts: Array<{ text: string; variable: boolean }> = []
  const variables: string[] = []
  let from = 0
  for (let reference = nextReference(value, 0); reference; reference = nextReference(value, from)) {
    if (reference.start > from) parts.push({ text: value.slice(from, reference.start), variable: false })
    if (reference.literal) parts.push({ text: '$', variable: false })
    else {
      const text = value.slice(reference.start, reference.end)
      parts.push({ text: text.startsWith('${') ? text : `\${${text.slice(1)}}`, variable: true })
      const name = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)/.exec(text)?.[1]
      if (name === undefined) throw invalidInput(NO_VARIABLE)
      variables.push(name)
    }
    from = reference.end
  }
  if (from < value.length) parts.push({ text: value.slice(from), variable: false })
  if (variables.length === 0) return { word: shellQuote(parts.map((part) => part.text).join('')), variables }
  const inner = parts.map((part) => (part.variable ? part.text : part.text.replace(/[\\"$`]/g, '\\$&'))).join('')
  return { word: `"${inner}"`, variables }
}

/** The names of the variables a Compose value interpolates (`${NAME…}` or `$NAME`; `$$` is a literal `$`). */
export function composeVariables(value: string): string[] {
  return composeValueToShell(value).variables
}
