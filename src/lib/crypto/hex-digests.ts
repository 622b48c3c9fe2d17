/** The hash algorithms whose digest is this many hex digits long, the most common first. */
export const HASH_CANDIDATES: Readonly<Record<number, readonly string[]>> = {
  32: ['md5', 'md4', 'ntlm'],
  40: ['sha1', 'ripemd160'],
  64: ['sha256', 'sha3-256', 'blake2s256'],
  96: ['sha384', 'sha3-384'],
  128: ['sha512', 'sha3-512', 'blake2b512', 'whirlpool'],
}
