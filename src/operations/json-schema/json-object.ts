/** A JSON object, as a schema or an instance may hold one. */
export type JsonObject = Record<string, unknown>
export const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value)
