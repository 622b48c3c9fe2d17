/** A letter's value in ISO 7064 MOD 97-10 as ISO 13616 (IBAN) and ISO 17442 (LEI) apply it: A is 10 … Z is 35. */
const mod97Value = (char: string) => {
  const code = char.charCodeAt(0)
  return code >= 65 ? code - 55 : code - 48
}

/** ISO 7064 MOD 97-10 (pure system, two check digits): the number with them appended is 1 modulo 97. */
export function mod97_10CheckDigits(payload: string): string {
  let remainder = 0
  for (const char of payload) {
    const value = mod97Value(char)
    remainder = (remainder * (value > 9 ? 100 : 10) + value) % 97
  }
  return String(98 - ((remainder * 100) % 97)).padStart(2, '0')
}
