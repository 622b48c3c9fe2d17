/** The names this operation gives the OIDs it knows. */

export const SIGNATURE_ALGORITHMS: Record<string, { name: string; hash?: string; weak?: true }> = {
  '1.2.840.113549.1.1.2': { name: 'md2WithRSAEncryption', hash: 'md2', weak: true },
  '1.2.840.113549.1.1.4': { name: 'md5WithRSAEncryption', hash: 'md5', weak: true },
  '1.2.840.113549.1.1.5': { name: 'sha1WithRSAEncryption', hash: 'sha1', weak: true },
  '1.3.14.3.2.29': { name: 'sha1WithRSAEncryption', hash: 'sha1', weak: true },
  '1.2.840.113549.1.1.14': { name: 'sha224WithRSAEncryption', hash: 'sha224' },
  '1.2.840.113549.1.1.11': { name: 'sha256WithRSAEncryption', hash: 'sha256' },
  '1.2.840.113549.1.1.12': { name: 'sha384WithRSAEncryption', hash: 'sha384' },
  '1.2.840.113549.1.1.13': { name: 'sha512WithRSAEncryption', hash: 'sha512' },
  '1.2.840.113549.1.1.10': { name: 'rsassa-pss' },
  '1.2.840.10045.4.1': { name: 'ecdsa-with-SHA1', hash: 'sha1', weak: true },
  '1.2.840.10045.4.3.1': { name: 'ecdsa-with-SHA224', hash: 'sha224' },
  '1.2.840.10045.4.3.2': { name: 'ecdsa-with-SHA256', hash: 'sha256' },
  '1.2.840.10045.4.3.3': { name: 'ecdsa-with-SHA384', hash: 'sha384' },
  '1.2.840.10045.4.3.4': { name: 'ecdsa-with-SHA512', hash: 'sha512' },
  '1.2.840.10040.4.3': { name: 'dsa-with-SHA1', hash: 'sha1', weak: true },
  '2.16.840.1.101.3.4.3.1': { name: 'dsa-with-SHA224', hash: 'sha224' },
  '2.16.840.1.101.3.4.3.2': { name: 'dsa-with-SHA256', hash: 'sha256' },
  '1.3.101.112': { name: 'ed25519' },
  '1.3.101.113': { name: 'ed448' },
}
export const HASH_OIDS: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.4': 'sha224',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
}

export const EXTENSION_NAMES: Record<string, string> = {
  '2.5.29.14': 'subjectKeyIdentifier',
  '2.5.29.15': 'keyUsage',
  '2.5.29.16': 'privateKeyUsagePeriod',
  '2.5.29.17': 'subjectAltName',
  '2.5.29.18': 'issuerAltName',
  '2.5.29.19': 'basicConstraints',
  '2.5.29.20': 'cRLNumber',
  '2.5.29.21': 'cRLReason',
  '2.5.29.24': 'invalidityDate',
  '2.5.29.27': 'deltaCRLIndicator',
  '2.5.29.28': 'issuingDistributionPoint',
  '2.5.29.29': 'certificateIssuer',
  '2.5.29.30': 'nameConstraints',
  '2.5.29.31': 'cRLDistributionPoints',
  '2.5.29.32': 'certificatePolicies',
  '2.5.29.33': 'policyMappings',
  '2.5.29.35': 'authorityKeyIdentifier',
  '2.5.29.36': 'policyConstraints',
  '2.5.29.37': 'extendedKeyUsage',
  '2.5.29.46': 'freshestCRL',
  '2.5.29.54': 'inhibitAnyPolicy',
  '1.3.6.1.5.5.7.1.1': 'authorityInfoAccess',
  '1.3.6.1.5.5.7.1.11': 'subjectInfoAccess',
  '1.3.6.1.5.5.7.1.24': 'tlsFeature',
  '1.3.6.1.4.1.11129.2.4.2': 'signedCertificateTimestamps',
  '1.3.6.1.4.1.11129.2.4.3': 'ctPrecertificatePoison',
}

export const KEY_USAGES = [
  'digitalSignature',
  'nonRepudiation',
  'keyEncipherment',
  'dataEncipherment',
  'keyAgreement',
  'keyCertSign',
  'cRLSign',
  'encipherOnly',
  'decipherOnly',
] as const

export const EXTENDED_KEY_USAGES: Record<string, string> = {
  '1.3.6.1.5.5.7.3.1': 'serverAuth',
  '1.3.6.1.5.5.7.3.2': 'clientAuth',
  '1.3.6.1.5.5.7.3.3': 'codeSigning',
  '1.3.6.1.5.5.7.3.4': 'emailProtection',
  '1.3.6.1.5.5.7.3.8': 'timeStamping',
  '1.3.6.1.5.5.7.3.9': 'OCSPSigning',
  '2.5.29.37.0': 'anyExtendedKeyUsage',
}

export const CRL_REASONS = [
  'unspecified',
  'keyCompromise',
  'cACompromise',
  'affiliationChanged',
  'superseded',
  'cessationOfOperation',
  'certificateHold',
  'unused',
  'removeFromCRL',
  'privilegeWithdrawn',
  'aACompromise',
]

export const CSR_ATTRIBUTES: Record<string, string> = {
  '1.2.840.113549.1.9.7': 'challengePassword',
  '1.2.840.113549.1.9.14': 'extensionRequest',
  '1.2.840.113549.1.9.2': 'unstructuredName',
  '1.3.6.1.4.1.311.13.2.3': 'osVersion',
}

export const SCT_HASHES = ['none', 'md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512']
export const SCT_SIGNATURES = ['anonymous', 'rsa', 'dsa', 'ecdsa']
