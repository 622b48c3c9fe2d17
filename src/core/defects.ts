import { mappedStack } from './mapped-stack.ts'

/** What the log may say of a defect, and of each error in its chain of causes. */
export interface DefectDescription {
  type: string
  code?: unknown
  /** The stack frames, without the header line, which holds the message. */
  stack?: string
  cause?: DefectDescription
}

/**
 * What the log may say of a defect: its type, code and where it was thrown, and the same of its
 * cause and the cause's cause, but never a message, which a library may have filled with the
 * request's input.
 */
export function describeDefect(error: unknown, described: Set<unknown> = new Set()): DefectDescription {
  if (!(error instanceof Error)) return { type: typeof error }
  described.add(error)
  const { code } = error as Error & { code?: unknown }
  const description: DefectDescription = { type: error.name, code, stack: stackFramesOf(error) }
  // A cause that is already in the chain would make the description endless.
  if ('cause' in error && !described.has(error.cause)) description.cause = describeDefect(error.cause, described)
  return description
}

const STACK_FRAME = /^\s+at /

/** The lines of an error's stack that name a place in the code (a message may run over several lines of its own), in the sources. */
function stackFramesOf(error: Error): string | undefined {
  if (error.stack === undefined) return undefined
  return mappedStack(
    error.stack
      .split('\n')
      .filter((line) => STACK_FRAME.test(line))
      .join('\n'),
  )
}
