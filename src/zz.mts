import { execute } from '/work/main/src/core/execute.ts'
import { key } from '/work/main/src/operations/key.ts'
import { x509 } from '/work/main/src/operations/x509.ts'
const bad = `-----BEGIN PRIVATE KEY-----\nMEICAQAwEwYHKoZIzj0CAQYIKoZIzj0DAQcEKDAmAgEBBCERERERERERERERERER\nERERERERERERERERERERERERERE=\n-----END PRIVATE KEY-----\n`
const zero = `-----BEGIN PRIVATE KEY-----\nMEECAQAwEwYHKoZIzj0CAQYIKoZIzj0DAQcEJzAlAgEBBCAAAAAAAAAAAAAAAAAA\nAAAAAAAAAAAAAAAAAAAAAAAAAA==\n-----END PRIVATE KEY-----\n`
const big = `-----BEGIN PRIVATE KEY-----\nMEECAQAwEwYHKoZIzj0CAQYIKoZIzj0DAQcEJzAlAgEBBCD/////////////////\n/////////////////////////w==\n-----END PRIVATE KEY-----\n`
const kdf = `-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIGNMFkGCSqGSIb3DQEFDTBMMCsGCSqGSIb3DQEFDDAeBAgBAQEBAQEBAQIEf///\n/zAMBggqhkiG9w0CCQUAMB0GCWCGSAFlAwQBKgQQAgICAgICAgICAgICAgICAgQw\nAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMD\n-----END ENCRYPTED PRIVATE KEY-----\n`
for (const [name, input] of [['33-byte', bad], ['zero', zero], ['>= n', big]]) {
  for (const body of [{ action: 'inspect', input }, { action: 'convert', input, to: 'jwk' }]) {
    try { const r: any = await execute(key, body); console.log(name, body.action, 'OK', r.type ?? r.result?.slice?.(0, 30)) } catch (e: any) { console.log(name, body.action, e.status, e.code, e.message) }
  }
  try { await execute(x509, { action: 'generate', subject: 'CN=x', privateKey: input }); console.log(name, 'x509 OK') } catch (e: any) { console.log(name, 'x509', e.status, e.code, e.message) }
}
try { await execute(x509, { action: 'generate', subject: 'CN=x', privateKey: kdf, passphrase: 'p' }); console.log('kdf OK') } catch (e: any) { console.log('kdf', e.status, e.code, e.message) }
// a valid EC key still works
const { generateKeyPairSync } = await import('node:crypto')
for (const namedCurve of ['P-256', 'P-384', 'P-521', 'secp256k1', 'brainpoolP256r1']) {
  const pem = generateKeyPairSync('ec', { namedCurve }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string
  const r: any = await execute(key, { action: 'inspect', input: pem }); console.log(namedCurve, 'valid ok', !!r)
}
