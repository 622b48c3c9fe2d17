import { defineRecogniser, suggest, unlessRefused } from '../../core/recognise.ts'
import { decodeBase32 } from '../../lib/bytes/base32.ts'

export const otpauthUri = defineRecogniser({
  type: 'otpauthUri',
  label: 'otpauth:// URI (TOTP/HOTP key)',
  recognise(text) {
    const match = /^otpauth:\/\/(totp|hotp)\/[^?#]*\?([^#]*)$/i.exec(text)
    if (!match) return undefined
    const parameters = new URLSearchParams(match[2])
    const secret = parameters.get('secret')
    // A key in Base32 (Key Uri Format), as otp reads it: letters in either case, padding optional.
    if (!secret || !/^[A-Za-z2-7]+=*$/.test(secret) || unlessRefused(() => decodeBase32(secret.toUpperCase(), 'rfc4648')) === undefined) return undefined
    const type = match[1].toLowerCase()
    const fields: Record<string, unknown> = { type }
    const algorithm = (parameters.get('algorithm') ?? 'SHA1').toUpperCase()
    if (['SHA1', 'SHA256', 'SHA512'].includes(algorithm)) fields.algorithm = algorithm
    const digits = Number(parameters.get('digits') ?? 6)
    if (digits === 6 || digits === 7 || digits === 8) fields.digits = digits
    const period = Number(parameters.get('period') ?? 30)
    if (type === 'totp' && Number.isInteger(period) && period >= 1 && period <= 3600) fields.period = period
    // The URI's secret parameter, not the URI, is what the otp operation takes: it is never repeated here.
    return { confidence: 100, details: { ...fields }, next: suggest('otp', fields, 'secret') }
  },
})
