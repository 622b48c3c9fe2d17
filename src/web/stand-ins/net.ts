/**
 * `node:net` in the page: only `isIP`, which answers 4 for an IPv4 address in dotted decimal (four
 * numbers 0–255 without leading zeros), 6 for an IPv6 address in any of RFC 4291's text forms,
 * with an optional zone after '%', and 0 for anything else, as Node does.
 */

const DECIMAL_OCTET = /^(?:0|[1-9]\d{0,2})$/
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/
const ZONE = /^[0-9a-zA-Z.:-]+$/

function isIPv4(text: string): boolean {
  const parts = text.split('.')
  return parts.length === 4 && parts.every((part) => DECIMAL_OCTET.test(part) && Number(part) <= 255)
}

/** Whether these colon-separated groups, of which the last may be an IPv4 address, make up `count` 16-bit groups. */
function groupsMake(groups: string[], count: number): boolean {
  const last = groups.at(-1)!
  const lastGroups = isIPv4(last) ? 2 : HEX_GROUP.test(last) ? 1 : 0
  if (lastGroups === 0) return false
  return groups.slice(0, -1).every((group) => HEX_GROUP.test(group)) && groups.length - 1 + lastGroups === count
}

function isIPv6(text: string): boolean {
  const zoneAt = text.indexOf('%')
  if (zoneAt >= 0 && !ZONE.test(text.slice(zoneAt + 1))) return false
  const address = zoneAt >= 0 ? text.slice(0, zoneAt) : text
  const halves = address.split('::')
  if (halves.length > 2) return false
  if (halves.length === 1) return groupsMake(address.split(':'), 8)
  const [head, tail] = halves.map((half) => (half === '' ? [] : half.split(':')))
  if (!head.every((group) => HEX_GROUP.test(group))) return false
  // '::' stands for one group or more.
  if (tail.length === 0) return head.length <= 7
  for (let tailGroups = 1; head.length + tailGroups <= 7; tailGroups++) if (groupsMake(tail, tailGroups)) return true
  return false
}

export function isIP(text: string): 0 | 4 | 6 {
  if (isIPv4(text)) return 4
  if (isIPv6(text)) return 6
  return 0
}
