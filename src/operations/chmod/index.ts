import { Type } from 'typebox'
import { invalidInput, validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { showCharacterAt } from '../../lib/text/charsets.ts'

const ACTIONS = ['mode', 'umask'] as const

const SETUID = 0o4000
const SETGID = 0o2000
const STICKY = 0o1000
const ALL_BITS = 0o7777
const USER = SETUID | 0o700
const GROUP = SETGID | 0o070
const OTHERS = STICKY | 0o007
const READ = 0o444
const WRITE = 0o222
const EXECUTE = 0o111

/** The file types `ls -l` writes before the permissions: regular, directory, link, block, character, pipe, socket. */
const LS_TYPES = '-dlbcps'
/** What `ls -l` may write after the permissions: an ACL (+), an SELinux context (.), extended attributes (@). */
const LS_MARKERS = '+.@'

/**
 * A mode some of whose bits may be unknown (when no starting mode is given): `one` holds the bits
 * known to be set, `zero` those known to be clear. A known mode has `zero === ALL_BITS & ~one`.
 */
interface Bits {
  one: number
  zero: number
}

const known = (mode: number): Bits => ({ one: mode, zero: ALL_BITS & ~mode })
const and = (a: Bits, b: Bits): Bits => ({ one: a.one & b.one, zero: (a.zero | b.zero) & ALL_BITS })
const or = (a: Bits, b: Bits): Bits => ({ one: a.one | b.one, zero: a.zero & b.zero })
const not = (a: Bits): Bits => ({ one: a.zero, zero: a.one })
/** Whether any of `mask` is set: true, false, or undefined when that depends on unknown bits. */
const anyOf = (a: Bits, mask: number): boolean | undefined => ((a.one & mask) !== 0 ? true : (a.zero & mask) === mask ? false : undefined)
/** `value | (condition ? mask : 0)` where the condition may be unknown. */
function orIf(value: Bits, condition: boolean | undefined, mask: number): Bits {
  if (condition === true) return or(value, known(mask))
  if (condition === false) return value
  return { one: value.one, zero: value.zero & ~mask }
}

type Operator = '+' | '-' | '='

/** One operator of a clause, compiled as GNU coreutils' modechange does. */
interface Change {
  operator: Operator
  /** The bits the who-letters select; 0 when there are none, and the umask masks the change. */
  affected: number
  /** `perms`: the bits the letters name; `copy`: the class copied (its three bits); `ifAnyX`: as perms, plus X. */
  kind: 'perms' | 'ifAnyX' | 'copy'
  value: number
  /** The bits the clause names, which decide which set-ID bits of a directory it may change. */
  mentioned: number
}

const WHO: Record<string, number> = { u: USER, g: GROUP, o: OTHERS, a: ALL_BITS }
const PERMISSION: Record<string, number> = { r: READ, w: WRITE, x: EXECUTE, X: 0, s: SETUID | SETGID, t: STICKY }
const COPY: Record<string, number> = { u: 0o700, g: 0o070, o: 0o007 }
/** Whether `character` (undefined past the end of the text) is a key of `table`. */
const isIn = (table: Record<string, number>, character: string | undefined): character is string => character !== undefined && Object.hasOwn(table, character)
const isOperator = (character: string | undefined): character is Operator => character === '+' || character === '-' || character === '='

/** A character of `text` for a message; a space is most often a `+` of a GET query string that was not written as %2B. */
const at = (text: string, position: number) =>
  text[position] === ' '
    ? `a space at position ${position} (in a URL query string + means a space: write it as %2B)`
    : `${showCharacterAt(text, position)} at position ${position}`

/** Reads a POSIX symbolic mode: clauses `[ugoa]*([-+=]([rwxXst]*|[ugo]))+` separated by commas. */
function compileSymbolic(text: string): Change[] {
  const changes: Change[] = []
  let position = 0
  for (;;) {
    let affected = 0
    const clauseStart = position
    while (isIn(WHO, text[position])) affected |= WHO[text[position++]]
    if (!isOperator(text[position])) {
      if (position === text.length) {
        throw invalidInput(`the clause at position ${clauseStart} ends without an operator: write who, then +, - or =, then permissions, as in u+x or go-w`, {
          field: 'input',
          position,
        })
      }
      throw invalidInput(`${at(text, position)} is not allowed here: a clause starts with who (u, g, o, a) and then an operator (+, - or =), as in u+x`, {
        field: 'input',
        position,
      })
    }
    while (isOperator(text[position])) {
      const operator = text[position++] as Operator
      const character = text[position]
      if (character !== undefined && character >= '0' && character <= '9') {
        throw invalidInput(
          `${at(text, position)} is a digit after an operator, which POSIX symbolic modes do not allow (GNU's =644); give the octal mode alone, as in 644`,
          { field: 'input', position },
        )
      }
      if (isIn(COPY, character)) {
        position++
        const value = COPY[character]
        changes.push({ operator, affected, kind: 'copy', value, mentioned: affected ? affected & value : value })
      } else {
        let value = 0
        let ifAnyX = false
        while (isIn(PERMISSION, text[position])) {
          if (text[position] === 'X') ifAnyX = true
          value |= PERMISSION[text[position++]]
        }
        changes.push({ operator, affected, kind: ifAnyX ? 'ifAnyX' : 'perms', value, mentioned: affected ? affected & value : value })
      }
    }
    if (position === text.length) return changes
    if (text[position] !== ',') {
      const letter = text[position]
      const why = isIn(COPY, letter)
        ? 'copying from u, g or o stands alone after an operator (g=u), and who-letters start a clause after a comma'
        : 'the permissions are r, w, x, X, s and t, or one of u, g, o to copy, and clauses are separated by commas'
      throw invalidInput(`${at(text, position)} is not allowed here: ${why}`, { field: 'input', position })
    }
    position++
  }
}

/**
 * Applies the changes as GNU coreutils' chmod does (its mode_adjust): without who-letters the umask
 * masks the change; X adds execute when the file is a directory or already has an execute bit; a
 * directory keeps its set-user-ID and set-group-ID bits unless the clause names them.
 */
function applyChanges(start: Bits, changes: Change[], umask: number, directory: boolean): Bits {
  let mode = start
  for (const change of changes) {
    const omitted = (directory ? SETUID | SETGID : 0) & ~change.mentioned
    let value = known(change.value)
    if (change.kind === 'copy') {
      value = and(value, mode)
      value = orIf(value, anyOf(value, READ), READ)
      value = orIf(value, anyOf(value, WRITE), WRITE)
      value = orIf(value, anyOf(value, EXECUTE), EXECUTE)
    } else if (change.kind === 'ifAnyX') {
      value = orIf(value, directory || anyOf(mode, EXECUTE), EXECUTE)
    }
    value = and(value, known((change.affected || ALL_BITS & ~umask) & ~omitted))
    if (change.operator === '=') {
      const preserved = ((change.affected ? ~change.affected : 0) | omitted) & ALL_BITS
      mode = or(and(mode, known(preserved)), value)
    } else if (change.operator === '+') {
      mode = or(mode, value)
    } else {
      mode = and(mode, not(value))
    }
  }
  return mode
}

/** Reads 1 to 4 octal digits. */
function readOctal(text: string, field: string, what: string): number {
  for (let position = 0; position < text.length; position++) {
    const character = text[position]
    if (character < '0' || character > '7') {
      const why = character === '8' || character === '9' ? 'is not an octal digit (0 to 7)' : `cannot appear in ${what}, which is octal digits 0 to 7`
      throw invalidInput(`${field} has ${at(text, position)}, which ${why}`, { field, position })
    }
    if (position === 4) throw invalidInput(`${field} has more than 4 octal digits (at most 7777); the fifth is at position 4`, { field, position })
  }
  return Number.parseInt(text, 8)
}

interface LsMode {
  mode: number
  type: string
}

/** Each permission slot of `rwxr-xr-x`: the letter that sets it, and for execute the letters that add a special bit. */
const LS_SLOTS: Array<{ name: string; letters: Record<string, number> }> = [
  { name: "the owner's read", letters: { r: 0o400 } },
  { name: "the owner's write", letters: { w: 0o200 } },
  { name: "the owner's execute", letters: { x: 0o100, s: SETUID | 0o100, S: SETUID } },
  { name: "the group's read", letters: { r: 0o040 } },
  { name: "the group's write", letters: { w: 0o020 } },
  { name: "the group's execute", letters: { x: 0o010, s: SETGID | 0o010, S: SETGID } },
  { name: "others' read", letters: { r: 0o004 } },
  { name: "others' write", letters: { w: 0o002 } },
  { name: "others' execute", letters: { x: 0o001, t: STICKY | 0o001, T: STICKY } },
]

const LS_SHAPE = 'an ls mode string is 9 characters (rwxr-xr-x), or 10 with the file type first (-rwxr-xr-x, drwxr-xr-x), optionally followed by +, . or @'

/** Reads `rwxr-xr-x`, `-rwxr-xr-x` or `drwxr-sr-x+` as `ls -l` writes them. */
function readLs(text: string): LsMode {
  const typed = text.length >= 10
  if (text.length < 9 || text.length > 11 || (text.length === 11 && !LS_MARKERS.includes(text[10]))) {
    const hint = text.length === 11 ? `; ${at(text, 10)} is not one of them` : ''
    throw invalidInput(`input is not an octal mode (755), a symbolic expression (u+x) or an ls mode string: ${LS_SHAPE}${hint}`, {
      field: 'input',
      position: text.length === 11 ? 10 : 0,
    })
  }
  if (typed && !LS_TYPES.includes(text[0])) {
    throw invalidInput(`input has ${at(text, 0)}, where an ls mode string has its file type: one of ${[...LS_TYPES].join(' ')}`, {
      field: 'input',
      position: 0,
    })
  }
  const offset = typed ? 1 : 0
  let mode = 0
  for (const [index, slot] of LS_SLOTS.entries()) {
    const character = text[offset + index]
    if (character === '-') continue
    const bits = Object.hasOwn(slot.letters, character) ? slot.letters[character] : undefined
    if (bits === undefined) {
      throw invalidInput(
        `input has ${at(text, offset + index)}, in ${slot.name} slot of the ls mode string, which holds ${[...Object.keys(slot.letters), '-'].join(', ')}`,
        { field: 'input', position: offset + index },
      )
    }
    mode |= bits
  }
  return { mode, type: typed ? text[0] : '-' }
}

/** Whether `text` reads as an ls mode string; a symbolic `-rw-rw-rwx` reads as one too, the likelier meaning. */
function isLs(text: string): boolean {
  try {
    readLs(text)
    return true
  } catch {
    return false
  }
}

/** Which form the caller meant, so a mistake is reported in the terms of that form. */
function formOf(text: string): 'octal' | 'ls' | 'symbolic' {
  if (text[0] >= '0' && text[0] <= '9') return 'octal'
  if (isLs(text)) return 'ls'
  if (isIn(WHO, text[0]) || isOperator(text[0]) || text[0] === ',') {
    // `-rwxr-xr-q` is a mistyped ls string rather than a symbolic expression.
    if (text[0] === '-' && (text.length === 10 || text.length === 11) && !/[,=ugoa]/.test(text)) {
      try {
        compileSymbolic(text)
      } catch {
        return 'ls'
      }
    }
    return 'symbolic'
  }
  return 'ls'
}

const CLASS_NAMES = ['owner', 'group', 'others'] as const
const CLASS_LETTERS = ['u', 'g', 'o'] as const

/** `rwxr-xr-x`, with s/S and t/T for the special bits as ls writes them. */
function symbolicOf(mode: number): string {
  let text = ''
  for (let index = 0; index < 3; index++) {
    const shift = 6 - 3 * index
    const special = [SETUID, SETGID, STICKY][index] & mode
    const execute = (mode >> shift) & 1
    text += (mode >> shift) & 4 ? 'r' : '-'
    text += (mode >> shift) & 2 ? 'w' : '-'
    const letter = index === 2 ? 't' : 's'
    text += special ? (execute ? letter : letter.toUpperCase()) : execute ? 'x' : '-'
  }
  return text
}

/** The absolute symbolic form: `u=rwx,g=rx,o=rx`, then `u+s`, `g+s`, `o+t` for the special bits. */
function expressionOf(mode: number): string {
  const parts = CLASS_LETTERS.map((letter, index) => {
    const bits = (mode >> (6 - 3 * index)) & 7
    return `${letter}=${bits & 4 ? 'r' : ''}${bits & 2 ? 'w' : ''}${bits & 1 ? 'x' : ''}`
  })
  if (mode & SETUID) parts.push('u+s')
  if (mode & SETGID) parts.push('g+s')
  if (mode & STICKY) parts.push('o+t')
  return parts.join(',')
}

const pad4 = (mode: number) => mode.toString(8).padStart(4, '0')
/** The octal form people write: three digits, four with special bits. */
const shortOctal = (mode: number) => (mode > 0o777 ? mode.toString(8) : mode.toString(8).padStart(3, '0'))

function classBits(mode: number, index: number) {
  const bits = (mode >> (6 - 3 * index)) & 7
  return { read: (bits & 4) !== 0, write: (bits & 2) !== 0, execute: (bits & 1) !== 0 }
}

function describeMode(mode: number, type: string, isDirectory: boolean) {
  const symbolic = symbolicOf(mode)
  return {
    result: pad4(mode),
    action: 'mode' as const,
    octal: shortOctal(mode),
    symbolic,
    ls: `${type}${symbolic}`,
    expression: expressionOf(mode),
    special: { setuid: (mode & SETUID) !== 0, setgid: (mode & SETGID) !== 0, sticky: (mode & STICKY) !== 0 },
    owner: classBits(mode, 0),
    group: classBits(mode, 1),
    others: classBits(mode, 2),
    isDirectory,
    command: `chmod ${shortOctal(mode)} ${isDirectory ? '<directory>' : '<file>'}`,
  }
}

/** The classes whose bits the expression leaves as they were, for the message asking for `base`. */
function undecidedClasses(mode: Bits): string {
  const undecided = ~(mode.one | mode.zero) & ALL_BITS
  const names = [USER, GROUP, OTHERS].flatMap((mask, index) => (undecided & mask ? [CLASS_NAMES[index]] : []))
  return names.join(', ')
}

function readUmask(text: string, field: string): number {
  const umask = readOctal(text, field, 'a umask')
  if (umask > 0o777) {
    throw invalidInput(`${field} ${text} has special bits, which a umask never holds: its first of four digits must be 0 (at most 0777)`, {
      field,
      position: 0,
    })
  }
  return umask
}

function changeMode(input: string, base: string | undefined, umaskText: string, isDirectoryField: boolean) {
  const form = formOf(input)
  if (form === 'octal') return describeMode(readOctal(input, 'input', 'an octal mode'), isDirectoryField ? 'd' : '-', isDirectoryField)
  if (form === 'ls') {
    const { mode, type } = readLs(input)
    return describeMode(mode, type, type === 'd')
  }
  const changes = compileSymbolic(input)
  const umask = readUmask(umaskText, 'umask')
  // A directory's set-ID bits are kept unless named; without a starting mode they are taken as clear.
  const start: Bits = base === undefined ? { one: 0, zero: isDirectoryField ? SETUID | SETGID : 0 } : known(readOctal(base, 'base', 'an octal mode'))
  const mode = applyChanges(start, changes, umask, isDirectoryField)
  if ((mode.one | mode.zero) !== ALL_BITS) {
    throw invalidInput(
      `base is required: ${input} leaves bits of the ${undecidedClasses(mode)} as they were, so the result depends on the mode the ${isDirectoryField ? 'directory' : 'file'} has now; give it as base (e.g. 644), or assign u, g and o with = (u=rwx,g=rx,o=)`,
      { field: 'base' },
    )
  }
  return describeMode(mode.one, isDirectoryField ? 'd' : '-', isDirectoryField)
}

function umaskModes(input: string) {
  const umask = readUmask(input, 'input')
  const fileMode = 0o666 & ~umask
  const directoryMode = 0o777 & ~umask
  const allowed = 0o777 & ~umask
  return {
    result: pad4(umask),
    action: 'umask' as const,
    symbolic: expressionOf(allowed),
    fileMode: pad4(fileMode),
    fileSymbolic: symbolicOf(fileMode),
    directoryMode: pad4(directoryMode),
    directorySymbolic: symbolicOf(directoryMode),
    command: `umask ${shortOctal(umask)}`,
  }
}

const permissionsSchema = (whose: string) =>
  Type.Object(
    {
      read: Type.Boolean({ description: `Whether ${whose} may read.` }),
      write: Type.Boolean({ description: `Whether ${whose} may write.` }),
      execute: Type.Boolean({ description: `Whether ${whose} may execute (for a directory: search).` }),
    },
    { description: `mode: the permissions of ${whose}.` },
  )

const OCTAL_TEXT = { minLength: 1, maxLength: 16 }

export const chmod = defineOperation({
  name: 'chmod',
  category: 'converters',
  summary: 'Convert Unix file permissions between octal, rwx and symbolic chmod forms, and explain a umask',
  title: 'chmod permissions',
  aliases: [
    'file permissions',
    'unix permissions',
    'permissions calculator',
    'chmod calculator',
    'octal permissions',
    'file mode',
    'mode bits',
    'rwx',
    'ls -l',
    'symbolic mode',
    'umask',
    'setuid',
    'setgid',
    'sticky bit',
    '755',
    '644',
  ],
  description:
    '`mode` reads a file mode in any of three forms and writes it in all of them. An octal mode has 1 to 4 digits (`755`, `0755`, `4755`). An `ls` mode string has 9 characters (`rwxr-x---`) or 10 with the file type first (`-rwxr-xr-x`, `drwxrwsrwt`; `d` makes it a directory), optionally followed by the `+`, `.` or `@` that `ls -l` adds; s/S and t/T are the special bits with and without execute. ' +
    'A symbolic expression follows the POSIX `chmod` grammar (the Open Group Base Specifications): clauses `[ugoa]*([-+=]([rwxXst]*|[ugo]))+` separated by commas, such as `u+x,go-w`, `u=rwx,g=rx,o=` or `g=u`, applied in order to `base` as GNU coreutils `chmod` applies them. ' +
    'A clause without who-letters (`+x`, `=r`) is masked by `umask`, as chmod is; `X` adds execute only to a directory or to a mode that already has an execute bit; `s` changes set-user-ID with `u` and set-group-ID with `g`, `t` the sticky bit with `o`. ' +
    '`base` is needed unless the expression decides every bit (it assigns u, g and o with `=`, as `u=rwx,g=rx,o=` and `a=r` do); without it the answer is 422. With `isDirectory`, GNU chmod keeps a directory’s set-user-ID and set-group-ID bits unless the clause names `s`; without `base` they are taken as clear. GNU chmod also keeps them on a numeric `chmod 755` of a directory (2755 stays 2755; `chmod g-s` clears them): that is the file system tool’s behaviour, not part of the mode, so `command` does not show it. ' +
    'The answer is the mode as 4 octal digits, its short octal form, the `rwxr-xr-x` and `ls -l` strings, the absolute expression that sets it (`u=rwx,g=rx,o=rx`, then `u+s`, `g+s`, `o+t`), the special bits, each class’s read/write/execute, and the chmod command. ' +
    '`umask` reads a umask (1 to 4 octal digits, at most 0777) and gives the modes new files (0666 less the umask) and directories (0777 less it) get, with the `umask -S` form. ' +
    'Refused with 422 and the position: a character that is not part of the form, an octal digit 8 or 9, more than 4 digits, a wrong letter in an ls slot (`rwxr-xr-q`), a clause without an operator, and GNU’s octal after an operator (`=644`), which POSIX does not allow.',
  allowGet: true,
  input: Type.Object(
    {
      input: Type.String({
        minLength: 1,
        maxLength: 1000,
        description:
          'mode: an octal mode (`755`, `4755`), an ls mode string (`rwxr-xr-x`, `drwxr-xr-x`) or a symbolic expression (`u+x,go-w`). umask: the umask, 1 to 4 octal digits (`022`).',
        examples: ['755', '-rwxr-xr-x', 'u=rwx,g=rx,o=', '022'],
      }),
      action: withDefault(Type.Enum(ACTIONS, { description: '`mode` reads and converts a mode; `umask` gives the modes a umask leaves.' }), 'mode'),
      base: Type.Optional(
        Type.String({
          ...OCTAL_TEXT,
          description:
            'mode: the starting mode (1 to 4 octal digits) a symbolic expression changes. Needed unless the expression assigns every class with `=`; not read for an octal or ls input.',
          examples: ['644'],
        }),
      ),
      umask: withDefault(
        Type.String({
          ...OCTAL_TEXT,
          description: 'mode: the umask (1 to 4 octal digits, at most 0777) that masks clauses without who-letters (`+x`, `=r`).',
        }),
        '022',
      ),
      isDirectory: withDefault(
        Type.Boolean({
          description:
            'mode: whether the file is a directory, for `X` and for the set-ID bits a directory keeps. An ls string’s file type decides it instead (`d` is a directory).',
        }),
        false,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'mode: the mode, 4 octal digits (`0755`). umask: the umask, 4 octal digits (`0022`).' }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    octal: Type.Optional(Type.String({ description: 'mode: the octal mode as chmod takes it, 3 digits or 4 with special bits (`755`, `4755`).' })),
    symbolic: Type.String({
      description:
        'mode: the nine permission characters (`rwxr-xr-x`, s/S and t/T for special bits). umask: the permissions it allows, as `umask -S` writes them.',
    }),
    ls: Type.Optional(Type.String({ description: 'mode: the mode as `ls -l` writes it, with the file type first (`-rwxr-xr-x`).' })),
    expression: Type.Optional(
      Type.String({ description: 'mode: the absolute symbolic expression that sets the mode (`u=rwx,g=rx,o=rx`, then `u+s`, `g+s`, `o+t`).' }),
    ),
    special: Type.Optional(
      Type.Object(
        {
          setuid: Type.Boolean({ description: 'Set-user-ID (4000).' }),
          setgid: Type.Boolean({ description: 'Set-group-ID (2000).' }),
          sticky: Type.Boolean({ description: 'The sticky bit (1000): in a directory, only a file’s owner may delete it.' }),
        },
        { description: 'mode: the special bits.' },
      ),
    ),
    owner: Type.Optional(permissionsSchema('the owner (u)')),
    group: Type.Optional(permissionsSchema('the group (g)')),
    others: Type.Optional(permissionsSchema('others (o)')),
    isDirectory: Type.Optional(Type.Boolean({ description: 'mode: whether the mode is read as a directory’s.' })),
    fileMode: Type.Optional(Type.String({ description: 'umask: the mode of a new file, 0666 less the umask (`0644`).' })),
    fileSymbolic: Type.Optional(Type.String({ description: 'umask: the new file’s mode as `rw-r--r--`.' })),
    directoryMode: Type.Optional(Type.String({ description: 'umask: the mode of a new directory, 0777 less the umask (`0755`).' })),
    directorySymbolic: Type.Optional(Type.String({ description: 'umask: the new directory’s mode as `rwxr-xr-x`.' })),
    command: Type.String({ description: 'The shell command: `chmod 755 <file>`, or `umask 022`.' }),
  }),
  actions: {
    mode: { fields: ['input', 'base', 'umask', 'isDirectory'] },
    umask: { fields: ['input'] },
  },
  examples: [
    {
      summary: 'An absolute symbolic expression in octal',
      input: { input: 'u=rwx,g=rx,o=' },
      output: {
        result: '0750',
        action: 'mode',
        octal: '750',
        symbolic: 'rwxr-x---',
        ls: '-rwxr-x---',
        expression: 'u=rwx,g=rx,o=',
        special: { setuid: false, setgid: false, sticky: false },
        owner: { read: true, write: true, execute: true },
        group: { read: true, write: false, execute: true },
        others: { read: false, write: false, execute: false },
        isDirectory: false,
        command: 'chmod 750 <file>',
      },
    },
    {
      summary: 'A relative change applied to a starting mode',
      input: { input: 'u+x,go-w', base: '666' },
      output: {
        result: '0744',
        action: 'mode',
        octal: '744',
        symbolic: 'rwxr--r--',
        ls: '-rwxr--r--',
        expression: 'u=rwx,g=r,o=r',
        special: { setuid: false, setgid: false, sticky: false },
        owner: { read: true, write: true, execute: true },
        group: { read: true, write: false, execute: false },
        others: { read: true, write: false, execute: false },
        isDirectory: false,
        command: 'chmod 744 <file>',
      },
    },
    {
      summary: 'An ls -l string with the sticky bit, in octal',
      input: { input: 'drwxrwxrwt' },
      output: {
        result: '1777',
        action: 'mode',
        octal: '1777',
        symbolic: 'rwxrwxrwt',
        ls: 'drwxrwxrwt',
        expression: 'u=rwx,g=rwx,o=rwx,o+t',
        special: { setuid: false, setgid: false, sticky: true },
        owner: { read: true, write: true, execute: true },
        group: { read: true, write: true, execute: true },
        others: { read: true, write: true, execute: true },
        isDirectory: true,
        command: 'chmod 1777 <directory>',
      },
    },
    {
      summary: 'The modes a umask gives new files and directories',
      input: { input: '027', action: 'umask' },
      output: {
        result: '0027',
        action: 'umask',
        symbolic: 'u=rwx,g=rx,o=',
        fileMode: '0640',
        fileSymbolic: 'rw-r-----',
        directoryMode: '0750',
        directorySymbolic: 'rwxr-x---',
        command: 'umask 027',
      },
    },
  ],
  runsInBrowser: true,
  run({ input, action, base, umask, isDirectory }) {
    if (action === 'umask') {
      if (base !== undefined) throw validationError('base', 'is read only by action mode; a umask has no starting mode')
      return umaskModes(input)
    }
    return changeMode(input, base, umask, isDirectory)
  },
})
