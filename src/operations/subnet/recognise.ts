import { isIP } from 'node:net'
import { defineRecogniser, suggest, unlessRefused } from '../../core/recognise.ts'
import { parseBlock } from './index.ts'

/** An address alone is the block of that one address. */
const FULL_MASK = { 4: '255.255.255.255', 6: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff' } as const

export const ipv4 = defineRecogniser({
  type: 'ipv4',
  label: 'IPv4 address',
  recognise: (text) => (isIP(text) === 4 ? { confidence: 100, details: {}, next: suggest('subnet', { mask: FULL_MASK[4] }) } : undefined),
})

export const ipv6 = defineRecogniser({
  type: 'ipv6',
  label: 'IPv6 address',
  recognise: (text) =>
    isIP(text) === 6 && !text.includes('%') ? { confidence: 100, details: {}, next: suggest('subnet', { mask: FULL_MASK[6] }) } : undefined,
})

export const cidr = defineRecogniser({
  type: 'cidr',
  label: 'CIDR block (address/prefix)',
  recognise(text) {
    if (text.length > 64 || !text.includes('/')) return undefined
    const block = unlessRefused(() => parseBlock(text, undefined))
    return block && { confidence: 100, details: { version: block.version, prefixLength: block.prefixLength }, next: suggest('subnet') }
  },
})
