/** The size of an answer, counted while it is built, so that one past the output limit is refused before it is whole. */

import { limitExceeded } from '../../core/errors.ts'
import { OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'

/** What the answer may hold before it is refused, counted while it is built. */
export class OutputBudget {
  used = 0
  add(units: number): void {
    this.used += units
    if (this.used > OUTPUT_LIMIT_BYTES) {
      throw limitExceeded(`The result would be larger than the ${OUTPUT_LIMIT_BYTES}-byte output limit; match fewer or shorter pieces`, {
        limit: OUTPUT_LIMIT_BYTES,
      })
    }
  }
}

/** What each match object and each group entry adds to the answer besides its text. */
export const MATCH_OVERHEAD = 48
export const GROUP_OVERHEAD = 64
export const PIECE_OVERHEAD = 4
