import { lazily } from '../../core/lazy.ts'

/** @scure/base, loaded with the first call that needs it. */
export const scure = lazily(() => import('@scure/base'))
