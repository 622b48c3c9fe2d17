/** The global `Buffer` that operations' code names without importing it, given to the page's bundle by the build. */
export { Buffer } from './buffer.ts'
