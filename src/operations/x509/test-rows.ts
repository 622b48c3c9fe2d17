import assert from 'node:assert/strict'
import { largestCrl } from '../../../test/heavy-builders.ts'
import { certificatePem, certificateWithNames, LYING_LENGTH, nestedSequences } from '../../../test/hostile-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'
import { DEFAULT_CONFIG } from '../../core/config.ts'
import { x509 } from './index.ts'

/** x509's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('x509 of 50,000 nested SEQUENCEs as base64', { input: nestedSequences(50_000).toString('base64') }, 422, 'LIMIT_EXCEEDED'),
    hostile(
      'x509 of a certificate with 10,000 subjectAltNames',
      { input: certificatePem(certificateWithNames(Array.from({ length: 10_000 }, (_, i) => `h${i}.example`))) },
      200,
    ),
    hostile('x509 of a certificate whose length octets claim more than there is', { input: certificatePem(LYING_LENGTH) }, 422, 'INVALID_INPUT'),
    hostile(
      'x509 of a certificate followed by garbage bytes: parsed, with a warning',
      { input: certificatePem(Buffer.concat([certificateWithNames(['a.example']), Buffer.from('garbage')])) },
      200,
    ),
    hostile(
      'x509 of a NUL in a DNS name: shown escaped, with a warning',
      { input: certificatePem(certificateWithNames(['bank.example\0.evil.example'])) },
      200,
    ),
    hostile('x509 of 1,001 PEM blocks', { input: '-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n'.repeat(1001) }, 422, 'LIMIT_EXCEEDED'),
    {
      ...hostile(
        'x509 generate with both keyType and privateKey',
        { action: 'generate', subject: 'CN=x', keyType: 'p-256', privateKey: 'x' },
        400,
        'VALIDATION_ERROR',
      ),
      field: 'keyType',
    },
  ],
  heavy: [
    { summary: 'a CRL of as many entries as a body holds', input: { input: largestCrl() } },
    {
      summary: 'a certificate of as many one-letter subjectAltNames as a body holds, refused by their count',
      input: { input: certificateWithNames(Array.from({ length: Math.floor((DEFAULT_CONFIG.bodyLimit - 1024) / 4) - 100 }, () => 'a')).toString('base64') },
    },
  ],
  mcpTasks: [
    {
      task: 'decode this PEM certificate and show its expiry date and fingerprint',
      arguments: { input: (x509.examples[0].input as { input: string }).input },
      check: (data) =>
        assert.deepEqual(
          (data.result as Array<{ notAfter: string; fingerprints: { sha256: string } }>).map((item) => item.notAfter),
          ['2026-04-01T00:00:00Z'],
        ),
    },
  ],
}
