// JSON Merge Patch (RFC 7396): applied, generated from two documents, and counted.
import { setOwn, type WarningList } from '../../lib/json/value.ts'
import { escapeToken, isObject, type JsonObject, quoted } from './apply.ts'
import type { Tokens } from './diff.ts'

/** Applies a JSON Merge Patch (RFC 7396 §2), building new objects where it changes them and leaving `target` as it was. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch
  const result: JsonObject = {}
  if (isObject(target)) for (const key of Object.keys(target)) setOwn(result, key, target[key])
  for (const key of Object.keys(patch)) {
    const value = patch[key]
    if (value === null) delete result[key]
    else setOwn(result, key, applyMergePatch(Object.hasOwn(result, key) ? result[key] : undefined, value))
  }
  return result
}

/** What a merge patch does, counted: the members it sets or removes at every depth; a patch that is no object replaces the document, one. */
export function mergePatchOperations(patch: unknown): number {
  if (!isObject(patch)) return 1
  let count = 0
  for (const value of Object.values(patch)) count += isObject(value) && Object.keys(value).length > 0 ? mergePatchOperations(value) : 1
  return count
}

/** Generates a merge patch (RFC 7396) from `before` to `after`, saying what a merge patch cannot express. */
export function mergePatchDiff(before: unknown, after: unknown, path: string, warnings: WarningList, tokens: Tokens): unknown {
  if (!isObject(after)) {
    if (Array.isArray(after) && Array.isArray(before) && tokens.of(before) !== tokens.of(after)) arrayWarning(path, warnings)
    return after
  }
  if (!isObject(before)) {
    nullWarnings(after, path, warnings)
    return after
  }
  const patch: JsonObject = {}
  for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) setOwn(patch, key, null)
  for (const key of Object.keys(after)) {
    const value = after[key]
    const had = Object.hasOwn(before, key)
    if (had && tokens.of(before[key]) === tokens.of(value)) continue
    const childPath = `${path}/${escapeToken(key)}`
    if (value === null) {
      warnings.add(
        `compareTo's member ${quoted(childPath)} is null, which a merge patch cannot set: ${had ? 'the patch removes the member instead' : 'the patch leaves it out'}`,
      )
      if (had) setOwn(patch, key, null)
    } else setOwn(patch, key, mergePatchDiff(had ? before[key] : undefined, value, childPath, warnings, tokens))
  }
  return patch
}

function arrayWarning(path: string, warnings: WarningList): void {
  warnings.add(`the array at ${path === '' ? 'the root' : quoted(path)} is replaced whole: a merge patch cannot edit an array in place`)
}

/** The null members of an object that a merge patch sets whole: applying it drops them. */
function nullWarnings(value: JsonObject, path: string, warnings: WarningList): void {
  for (const key of Object.keys(value)) {
    const childPath = `${path}/${escapeToken(key)}`
    if (value[key] === null) warnings.add(`compareTo's member ${quoted(childPath)} is null, which a merge patch cannot set: the patch leaves it out`)
    else if (isObject(value[key])) nullWarnings(value[key] as JsonObject, childPath, warnings)
  }
}
