/** GS1 modulo 10 (GTIN-8/12/13/14, so EAN and UPC): weights 3 and 1 alternating from the right, 3 beside the check digit. */
export function gs1CheckDigit(payload: string): string {
  let sum = 0
  const digits = Array.from(payload, (char) => char.charCodeAt(0) - 48)
  for (let i = digits.length - 1, weight = 3; i >= 0; i--, weight = 4 - weight) sum += digits[i] * weight
  return String((10 - (sum % 10)) % 10)
}
