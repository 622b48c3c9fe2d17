import { defineRecogniser, suggest, unlessRefused } from '../../core/recognise.ts'
import { decodeMorse, Unknowns } from './index.ts'

const MORSE_SYMBOLS = { dot: '.', dash: '-', letterSeparator: ' ', wordSeparator: ' / ' }

export const morse = defineRecogniser({
  type: 'morse',
  label: 'Morse code',
  recognise(text) {
    // At least two symbols: a lone dot or dash is too short to call Morse.
    if (!/^[.\-/ ]+$/.test(text) || !/[.-][ /]*[.-]/.test(text)) return undefined
    const decoded = unlessRefused(() => {
      const unknowns = new Unknowns()
      const result = decodeMorse(text, MORSE_SYMBOLS, unknowns)
      unknowns.settle('error', 'Morse code')
      return result
    })
    return decoded === undefined ? undefined : { confidence: 80, details: {}, next: suggest('morse', { action: 'decode' }) }
  },
})
