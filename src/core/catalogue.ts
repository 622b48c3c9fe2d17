import { CATEGORIES, type OperationInfo } from './operation.ts'

/** Every operation lives under this prefix: the major version of the API is in its paths. */
export const API_PREFIX = '/api/v1'

/**
 * The catalogue `GET /api/v1` answers (and `devutils list --json` prints): each operation of the
 * three categories with its path, methods and summary. The workflows are not operations of
 * the catalogue; they are documented in the OpenAPI document.
 */
export function catalogue(operations: readonly OperationInfo[]) {
  return operations
    .filter((operation) => (CATEGORIES as readonly string[]).includes(operation.category))
    .map((operation) => ({
      name: operation.name,
      category: operation.category,
      path: `${API_PREFIX}/${operation.name}`,
      methods: operation.allowGet ? ['GET', 'POST'] : ['POST'],
      summary: operation.summary,
    }))
}
