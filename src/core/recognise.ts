import { isDevutilsError } from './errors.ts'

/**
 * How an operation recognises its input in a pasted text, for `detect`. Each operation declares its
 * recognisers beside its definition (`operations/<name>/recognise.ts`); the registry hands them to
 * detect, which imports none of them.
 */
export interface Recogniser<Type extends string = string> {
  /** The type's name, as detect answers it (camelCase: `jwt`, `isoDateTime`). */
  type: Type
  /** The type in words. */
  label: string
  /** The text, trimmed and not empty: what it tells as this type, or undefined where it is not of this type. */
  recognise(text: string): Recognition | undefined | Promise<Recognition | undefined>
  /**
   * The type is bytes written in some alphabet (Base64, hex): any structured text may also pass for
   * it, so detect leaves it out where a structure of confidence 90 or more covers the text.
   */
  encoding?: boolean
  /** Past this many characters recognising may hold the event loop too long: detect then runs on a worker thread. */
  offloadPast?: number
}

/** What a recogniser tells of a text of its type. */
export interface Recognition {
  /** How sure, 0 to 100, from a fixed table per type: the same text always gets the same number. */
  confidence: number
  /** What the type tells about this text (a version, a time, a key type); never a copy of the text. */
  details?: Record<string, unknown>
  /** What to run next with this text; none (null) where no operation works on the type. */
  next?: Suggestion | null
}

/** An operation to run with the recognised text. */
export interface Suggestion {
  operation: string
  /** The fields to send it besides the text. */
  fields: Record<string, unknown>
  /** The field that takes the text. */
  field: string
}

/** Exists so TypeScript keeps each recogniser's type name as a literal, for detect's schemas. */
export const defineRecogniser = <const Type extends string>(recogniser: Recogniser<Type>): Recogniser<Type> => recogniser

export const suggest = (operation: string, fields: Record<string, unknown> = {}, field = 'input'): Suggestion => ({ operation, fields, field })

/**
 * Runs one of devutils' readers, which refuse what they cannot read with a DevutilsError: undefined
 * where it refused. Any other error is a defect and is not hidden.
 */
export function unlessRefused<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch (error) {
    if (isDevutilsError(error)) return undefined
    throw error
  }
}

/** The window of plausible times (of timestamps and embedded times), fixed so that an answer never changes with the clock. */
const PLAUSIBLE_FROM = Date.UTC(1990, 0, 1)
const PLAUSIBLE_UNTIL = Date.UTC(2100, 0, 1)
export const isPlausibleTime = (ms: number) => ms >= PLAUSIBLE_FROM && ms < PLAUSIBLE_UNTIL
