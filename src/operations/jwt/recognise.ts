import { defineRecogniser, suggest, unlessRefused } from '../../core/recognise.ts'
import { jose, readToken } from './index.ts'

export const jwt = defineRecogniser({
  type: 'jwt',
  label: 'JSON Web Token (RFC 7519)',
  async recognise(text) {
    if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(text)) return undefined
    const decoder = await jose()
    const token = unlessRefused(() => readToken(decoder, text))
    if (token === undefined || typeof token.header.alg !== 'string') return undefined
    const { alg, typ, kid } = token.header
    // Only the header's algorithm, type and key ID: the claims are never repeated.
    const details: Record<string, unknown> = { alg }
    if (typeof typ === 'string') details.typ = typ
    if (typeof kid === 'string') details.kid = kid
    details.signed = token.signature !== ''
    return { confidence: 100, details, next: suggest('jwt', { action: 'decode' }) }
  },
})
