import type { WebOperation } from './catalogue-types.ts'
import { h } from './dom.ts'
import type { FieldView, OperationForm } from './form.ts'

/** How an operation takes a file into its `input`: its bytes in base64, or its text. */
type FileUse =
  /** Bytes, with the field that then says base64, or the action that reads a file. */
  { kind: 'bytes'; encodingField?: string; action?: string } | { kind: 'text' }

/** What a JSON body holds besides the file: the other fields and the punctuation around them. */
const BODY_ROOM_BYTES = 1024

/**
 * How the operation takes a file, if it does: bytes where it says how its input is encoded (hash,
 * base64, compress, …) or where an action reads a file (an image to decode), text for the other
 * operations whose input is text.
 */
export function fileUseOf(operation: WebOperation): FileUse | undefined {
  const input = operation.fields.find((field) => field.name === 'input')
  if (!input) return undefined
  const encodings = operation.fields.find((field) => field.name === 'inputEncoding')?.schema.enum ?? []
  if (encodings.includes('base64') && encodings.includes('utf8')) return { kind: 'bytes', encodingField: 'inputEncoding' }
  const action = Object.entries(operation.actions ?? {}).find(([, described]) => described.readsFile)?.[0]
  if (action !== undefined) return { kind: 'bytes', action }
  const takesText = input.schema.type === 'string' || (input.schema.anyOf ?? []).some((branch) => branch.type === 'string')
  return takesText ? { kind: 'text' } : undefined
}

/** A size in plain words: bytes, KB or MB (of 1,024). */
export function sizeInWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  if (bytes < 1024 * 1024) return `${Math.floor(bytes / 1024)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

/**
 * "Open file…" under the operation's main input, and what a file dropped on the page does: read it
 * into the input, as base64 for an operation of bytes (its input encoding set to base64, or its
 * action to the one that reads a file) or as UTF-8 text; a file larger than a request may carry is
 * refused before it is read, in plain words. Returns the function that opens a file, for the
 * page's drop zone, or undefined where the operation takes no file.
 */
export function fileOpener(operation: WebOperation, form: OperationForm, bodyLimitBytes: number): ((file: File) => Promise<void>) | undefined {
  const use = fileUseOf(operation)
  const view = form.fields.find(({ field }) => field.name === 'input')
  if (!use || !view) return undefined
  const room = bodyLimitBytes - BODY_ROOM_BYTES
  const largest = use.kind === 'bytes' ? Math.floor((room * 3) / 4) : room
  const note = h('p', { class: 'file-note', 'aria-live': 'polite' })
  const picker = h('input', { type: 'file', class: 'visually-hidden', tabindex: -1, 'aria-hidden': 'true' })
  const open = async (file: File) => {
    view.errorSlot.replaceChildren()
    if (file.size > largest) {
      note.textContent = `${file.name} is ${sizeInWords(file.size)}: this tool takes files up to ${sizeInWords(largest)}, as a request to the service holds at most ${sizeInWords(bodyLimitBytes)}.`
      return
    }
    const bytes = new Uint8Array(await file.arrayBuffer())
    let text: string
    if (use.kind === 'bytes') text = base64Of(bytes)
    else {
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
      } catch {
        note.textContent = `${file.name} is not UTF-8 text, and this tool reads text.`
        return
      }
    }
    fill(view, text)
    if (use.kind === 'bytes') chooseByteReading(form, use)
    note.textContent = `Opened ${file.name} (${sizeInWords(file.size)})${use.kind === 'bytes' ? ' as base64' : ''}.`
  }
  picker.addEventListener('change', () => {
    const [file] = picker.files ?? []
    if (file) void open(file)
    picker.value = ''
  })
  const button = h('button', { type: 'button', class: 'secondary small', id: 'open-file', onclick: () => picker.click() }, 'Open file…')
  const row = h('div', { class: 'file-row' }, button, picker, h('span', { class: 'hint' }, `up to ${sizeInWords(largest)}, or drop it here`))
  view.control.element.after(row, note)
  return open
}

/** Sets the input's text as typing would, so that the page answers it. */
function fill(view: FieldView, text: string): void {
  view.control.setText(text)
  view.control.focusTarget.dispatchEvent(new Event('input', { bubbles: true }))
}

/** Has the form read the input as bytes: its encoding set to base64, or the action that reads a file chosen. */
function chooseByteReading(form: OperationForm, use: Extract<FileUse, { kind: 'bytes' }>): void {
  const [name, value] = use.action === undefined ? [use.encodingField, 'base64'] : ['action', use.action]
  const target = form.fields.find(({ field }) => field.name === name)
  if (!target) return
  target.control.setText(value)
  target.control.focusTarget.dispatchEvent(new Event('change', { bubbles: true }))
}

function base64Of(bytes: Uint8Array): string {
  let binary = ''
  // In slices: a spread of the whole file would pass more arguments than a call may take.
  for (let start = 0; start < bytes.length; start += 0x8000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000))
  return btoa(binary)
}
