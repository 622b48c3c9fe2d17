// bcrypt-pbkdf ships no types: the one function the OpenSSH key codec calls.
declare module 'bcrypt-pbkdf' {
  export function pbkdf(pass: Uint8Array, passlen: number, salt: Uint8Array, saltlen: number, key: Uint8Array, keylen: number, rounds: number): number
}
