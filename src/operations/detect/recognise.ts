import { defineRecogniser, suggest, unlessRefused } from '../../core/recognise.ts'
import { readPemBlocks } from '../../lib/asn1/pem.ts'
import { decodeBase64 } from '../../lib/bytes/base64.ts'
import { domainLabels } from '../../lib/net/domains.ts'

// The types that belong to no one operation: detect's own recognisers.

export const dataUri = defineRecogniser({
  type: 'dataUri',
  label: 'data: URI (RFC 2397)',
  recognise(text) {
    if (!/^data:/i.test(text)) return undefined
    const comma = text.indexOf(',')
    if (comma < 0) return undefined
    const parameters = text.slice(5, comma).split(';')
    const base64 = parameters[parameters.length - 1].toLowerCase() === 'base64'
    const mediaType = parameters[0].trim() || 'text/plain'
    if (!/^[\w.+-]+\/[\w.+-]+$/.test(mediaType)) return undefined
    const payload = text.slice(comma + 1)
    if (
      base64 &&
      payload.length > 0 &&
      unlessRefused(() => decodeBase64(payload, { variant: 'standard', padding: payload.includes('='), strict: false })) === undefined
    )
      return undefined
    const details = { mediaType: mediaType.toLowerCase(), base64, payloadStart: comma + 1 }
    return { confidence: 100, details, next: base64 ? suggest('base64', { action: 'decode' }) : suggest('url', { action: 'decode' }) }
  },
})

/** A PEM text ends with an END line. */
const PEM_LAST_LINE = /-----END [^\r\n]*-----$/
const MAX_PEM_BLOCKS = 1000
/** The labels the x509 operation reads, and those the key operation reads (RFC 7468, OpenSSL and OpenSSH). */
const X509_LABELS = new Set(['CERTIFICATE', 'TRUSTED CERTIFICATE', 'CERTIFICATE REQUEST', 'NEW CERTIFICATE REQUEST', 'X509 CRL', 'PKCS7'])
const KEY_LABELS = new Set(['PUBLIC KEY', 'PRIVATE KEY', 'ENCRYPTED PRIVATE KEY', 'RSA PRIVATE KEY', 'RSA PUBLIC KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY'])

export const pem = defineRecogniser({
  type: 'pem',
  label: 'PEM block (RFC 7468)',
  recognise(text) {
    // One block, or several (a certificate chain as `openssl s_client -showcerts` pastes it), from the first line to the last.
    if (!text.startsWith('-----BEGIN ') || !PEM_LAST_LINE.test(text)) return undefined
    const blocks = unlessRefused(() => readPemBlocks(text, MAX_PEM_BLOCKS))
    if (blocks === undefined || blocks.length === 0 || blocks.some((block) => block.der.length === 0)) return undefined
    const label = blocks[0].label
    const details: Record<string, unknown> = { label }
    if (blocks.length > 1) details.blocks = blocks.length
    const reader = X509_LABELS.has(label) ? suggest('x509', { action: 'parse' }) : KEY_LABELS.has(label) ? suggest('key', { action: 'inspect' }) : null
    return { confidence: 100, details, next: reader }
  },
})

export const mac = defineRecogniser({
  type: 'mac',
  label: 'MAC address (EUI-48)',
  recognise(text) {
    const colonOrHyphen = /^[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}(?:\1[0-9A-Fa-f]{2}){4}$/.test(text)
    if (!colonOrHyphen && !/^[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}$/.test(text)) return undefined
    const first = Number.parseInt(text.slice(0, 2), 16)
    return { confidence: 95, details: { multicast: (first & 1) === 1, locallyAdministered: (first & 2) === 2 }, next: null }
  },
})

const HTML_EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/

export const email = defineRecogniser({
  type: 'email',
  label: 'E-mail address',
  async recognise(text) {
    if (text.length > 254 || !HTML_EMAIL.test(text)) return undefined
    const domain = text.slice(text.lastIndexOf('@') + 1)
    const labels = await domainLabels(domain)
    return labels && { confidence: 90, details: { tld: labels[labels.length - 1].toLowerCase() }, next: null }
  },
})

const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/

export const semver = defineRecogniser({
  type: 'semver',
  label: 'Semantic version (SemVer 2.0.0)',
  recognise(text) {
    if (text.length > 256) return undefined
    const match = SEMVER.exec(text)
    if (!match) return undefined
    const details: Record<string, unknown> = { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) }
    if (match[4] !== undefined) details.prerelease = match[4]
    if (match[5] !== undefined) details.build = match[5]
    return { confidence: match[4] !== undefined || match[5] !== undefined ? 80 : 60, details, next: null }
  },
})
