import type { ErrorBody } from './api.ts'
import type { ErrorLocation, OperationForm } from './form.ts'

/**
 * Puts an error next to its cause: each field a 400 names (by its label, where the problem is the
 * whole field's), or the spot a 422 points at (in the field it names, `input` unless it says
 * otherwise). Returns what no field could take.
 */
export function showErrorInForm(form: OperationForm, error: ErrorBody, fieldProblems = error.details): string[] {
  const unplaced: string[] = []
  if (Array.isArray(fieldProblems)) {
    for (const problem of fieldProblems as Array<{ field?: string; message?: string }>) {
      const field = topLevelField(problem.field ?? '')
      // An item of a field keeps its path after the field's label: "To time zones/0".
      const label = `${form.fields.find((view) => view.field.name === field)?.field.label ?? field}${(problem.field ?? '').slice(field.length)}`
      const message = `${label} ${problem.message}`
      if (!form.showError(field, message)) unplaced.push(message)
    }
    return unplaced
  }
  if (fieldProblems && typeof fieldProblems === 'object') {
    const details = fieldProblems as ErrorLocation & { field?: string }
    const location =
      details.position !== undefined || details.line !== undefined || details.row !== undefined || details.path !== undefined ? details : undefined
    const named = details.field === undefined ? undefined : topLevelField(details.field)
    if (named !== undefined && form.showError(named, error.message, location)) return unplaced
    // Without a field or a spot named (a time-out, a limit of the service), the error is the request's, not a field's.
    if ((named !== undefined || location !== undefined) && form.showError('input', error.message, location)) return unplaced
  }
  unplaced.push(error.message)
  return unplaced
}

/** `replacements.x` and `columns[0]` belong to the fields `replacements` and `columns`. */
function topLevelField(path: string): string {
  return path.split(/[.[]/)[0]
}
