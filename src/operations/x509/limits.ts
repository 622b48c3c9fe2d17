/** How much of an input is read: blocks, revoked entries listed, names in one extension. */
export const MAX_BLOCKS = 1000
export const MAX_REVOKED_LISTED = 1000
export const MAX_GENERAL_NAMES = 10_000
