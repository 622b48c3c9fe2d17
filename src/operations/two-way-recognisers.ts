import type { Recogniser } from '../core/recognise.ts'

/**
 * The recognisers of the operations that work both ways, by operation, each loaded only when asked
 * for: the web app runs them on a tool's input to offer the other action when the text is plainly
 * on the other side already (core/other-action.ts). Listed are the readings that can be plausible
 * (70 or more in detect's table): hex-text's and base32's never are. jwt is not listed: it opens on
 * decode, and verify reads a token too.
 */
export const twoWayRecognisers: Readonly<Record<string, () => Promise<readonly Recogniser[]>>> = {
  base64: () => import('./base64/recognise.ts').then(({ base64, base64url }) => [base64, base64url]),
  'binary-text': () => import('./binary-text/recognise.ts').then(({ binary }) => [binary]),
  'html-entity': () => import('./html-entity/recognise.ts').then(({ htmlEntities }) => [htmlEntities]),
  morse: () => import('./morse/recognise.ts').then(({ morse }) => [morse]),
  timestamp: () => import('./timestamp/recognise.ts').then(({ isoDateTime, httpDate, unixTimestamp }) => [isoDateTime, httpDate, unixTimestamp]),
  url: () => import('./url/recognise.ts').then(({ percentEncoded }) => [percentEncoded]),
}
