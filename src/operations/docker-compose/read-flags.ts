import { invalidInput } from '../../core/errors.ts'
import { KNOWN, VALUED, WITHOUT_COMPOSE_FORM } from './flag-table.ts'
import type { Word } from './shell.ts'

export interface Flag {
  name: string
  value: string | undefined
  /** `--flag=false` for a boolean. */
  off: boolean
  start: number
}

export const flagError = (message: string, flag: Flag) =>
  invalidInput(`${message.replace('{flag}', flag.name)} (at position ${flag.start})`, { position: flag.start, flag: flag.name })

/** Splits `docker run` flags as Docker's CLI (spf13/pflag) does, up to the image: answers the flags and the index of the image. */
export function readFlags(words: Word[], from: number): { flags: Flag[]; image: number } {
  const flags: Flag[] = []
  let index = from
  while (index < words.length) {
    const { text, start } = words[index]
    if (text === '--') return { flags, image: index + 1 }
    if (!text.startsWith('-') || text === '-') return { flags, image: index }
    index++
    if (text.startsWith('--')) {
      const equals = text.indexOf('=')
      const name = equals === -1 ? text : text.slice(0, equals)
      if (!KNOWN.has(name)) throw unknownFlag(name, start)
      if (VALUED.has(name)) {
        let value = equals === -1 ? undefined : text.slice(equals + 1)
        if (value === undefined) {
          if (index >= words.length) throw flagError('The flag {flag} needs a value', { name, value, off: false, start })
          value = words[index++].text
        }
        flags.push({ name, value, off: false, start })
      } else {
        const setting = equals === -1 ? 'true' : text.slice(equals + 1)
        if (!/^(?:true|false|1|0)$/.test(setting)) throw flagError('The flag {flag} takes true or false', { name, value: undefined, off: false, start })
        flags.push({ name, value: undefined, off: setting === 'false' || setting === '0', start })
      }
      continue
    }
    // A group of one-letter flags (-it, -dp 80:80): each a boolean, until one that takes the rest as its value.
    for (let letter = 1; letter < text.length; letter++) {
      const name = `-${text[letter]}`
      if (!KNOWN.has(name)) throw unknownFlag(name, start)
      if (!VALUED.has(name)) {
        flags.push({ name, value: undefined, off: false, start })
        continue
      }
      let value = text.slice(letter + 1)
      if (value.startsWith('=')) value = value.slice(1)
      else if (value === '') {
        if (index >= words.length) throw flagError('The flag {flag} needs a value', { name, value, off: false, start })
        value = words[index++].text
      }
      flags.push({ name, value, off: false, start })
      break
    }
  }
  return { flags, image: index }
}

function unknownFlag(name: string, position: number) {
  if (WITHOUT_COMPOSE_FORM.has(name)) {
    return invalidInput(`The flag ${name} (at position ${position}) has no Compose form; remove it, or set it on the container after docker compose up`, {
      position,
      flag: name,
    })
  }
  return invalidInput(`The flag ${name} (at position ${position}) is not a docker run flag this converter knows`, { position, flag: name })
}
