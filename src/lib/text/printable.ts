const utf8 = new TextDecoder('utf-8', { fatal: true })

/** Bytes as UTF-8 text without control characters other than tab and line breaks; undefined otherwise, and for no bytes. */
export function printableText(bytes: Uint8Array): string | undefined {
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    // A fatal TextDecoder throws a TypeError for bytes that are not UTF-8.
    return undefined
  }
  if (text.length === 0) return undefined
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(text) ? undefined : text
}
