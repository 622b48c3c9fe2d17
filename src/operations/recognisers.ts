import { integer } from './base-convert/recognise.ts'
import { base32 } from './base32/recognise.ts'
import { base64, base64url } from './base64/recognise.ts'
import { binary } from './binary-text/recognise.ts'
import { color } from './color/recognise.ts'
import { gzipBase64 } from './compress/recognise.ts'
import { cron } from './cron/recognise.ts'
import { defineDetect } from './detect/index.ts'
import { dataUri, email, mac, pem, semver } from './detect/recognise.ts'
import { hash } from './hash/recognise.ts'
import { hex } from './hex-text/recognise.ts'
import { htmlEntities } from './html-entity/recognise.ts'
import { ksuid, objectId, ulid } from './id/recognise.ts'
import { domain } from './idn/recognise.ts'
import { json } from './json/recognise.ts'
import { jwt } from './jwt/recognise.ts'
import { sshPublicKey } from './key/recognise.ts'
import { morse } from './morse/recognise.ts'
import { otpauthUri } from './otp/recognise.ts'
import { bcrypt, phcHash } from './password-hash/recognise.ts'
import { cidr, ipv4, ipv6 } from './subnet/recognise.ts'
import { httpDate, isoDateTime, unixTimestamp } from './timestamp/recognise.ts'
import { percentEncoded } from './url/recognise.ts'
import { url } from './url-parse/recognise.ts'
import { uuid } from './uuid/recognise.ts'
import { xml } from './xml-json/recognise.ts'
import { yaml } from './yaml-json/recognise.ts'

/**
 * Every operation's recognisers of its input, in detect's precedence order: a tie in confidence goes
 * to the one listed first. An operation declares them in its own `recognise.ts`; this list hands them
 * to detect, which imports no other operation.
 */
export const recognisers = [
  dataUri,
  pem,
  jwt,
  bcrypt,
  phcHash,
  otpauthUri,
  uuid,
  ipv4,
  ipv6,
  cidr,
  url,
  json,
  isoDateTime,
  mac,
  sshPublicKey,
  httpDate,
  xml,
  ulid,
  email,
  cron,
  color,
  gzipBase64,
  percentEncoded,
  binary,
  morse,
  semver,
  htmlEntities,
  objectId,
  ksuid,
  unixTimestamp,
  domain,
  base64,
  base64url,
  hash,
  yaml,
  hex,
  base32,
  integer,
] as const

/** detect over them: registry.ts and index.ts both take it from here, so that it is one object. */
export const detect = defineDetect(recognisers)
