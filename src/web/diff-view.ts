import { h } from './dom.ts'
import { isRecord } from './views.ts'

export interface Hunk {
  oldStart: number
  oldLines: number
  newStart: number
  newLines: number
  lines: string[]
}

interface Change {
  value: string
  added: boolean
  removed: boolean
}

export const isHunkList = (value: unknown): value is Hunk[] =>
  Array.isArray(value) && value.every((hunk) => isRecord(hunk) && typeof hunk.oldStart === 'number' && Array.isArray(hunk.lines))

export const isChangeList = (value: unknown): value is Change[] =>
  Array.isArray(value) && value.every((change) => isRecord(change) && typeof change.value === 'string' && typeof change.added === 'boolean')

let views = 0

/**
 * One view of a diff's answer: with hunks, the unified diff or the hunks side by side (a toggle),
 * else the changes inline; with the counts of additions and deletions.
 */
export function diffView(data: Record<string, unknown>): HTMLElement {
  const counts = h(
    'p',
    { class: 'diff-counts' },
    h('span', { class: 'count-added' }, `+${Number(data.additions ?? 0)}`),
    ' ',
    h('span', { class: 'count-removed' }, `−${Number(data.deletions ?? 0)}`),
    h('span', { class: 'visually-hidden' }, ` (${Number(data.additions ?? 0)} added, ${Number(data.deletions ?? 0)} removed)`),
  )
  const view = h('div', { class: 'diff-view' }, counts)
  if (!isHunkList(data.hunks)) {
    if (isChangeList(data.changes)) view.append(changesView(data.changes))
    return view
  }
  const id = `diff-${++views}`
  const unified = patchView(String(data.result))
  const sideBySide = sideBySideView(data.hunks)
  sideBySide.hidden = true
  const choose = (side: boolean) => {
    unified.hidden = side
    sideBySide.hidden = !side
    unifiedButton.setAttribute('aria-pressed', String(!side))
    sideButton.setAttribute('aria-pressed', String(side))
  }
  const unifiedButton = h(
    'button',
    { type: 'button', class: 'secondary small', 'aria-pressed': 'true', 'aria-controls': id, onclick: () => choose(false) },
    'Unified',
  )
  const sideButton = h(
    'button',
    { type: 'button', class: 'secondary small', 'aria-pressed': 'false', 'aria-controls': id, onclick: () => choose(true) },
    'Side by side',
  )
  counts.after(h('div', { class: 'toolbar diff-toggle', role: 'group', 'aria-label': 'Diff layout' }, unifiedButton, sideButton))
  view.append(h('div', { id }, unified, sideBySide))
  return view
}

/** A unified diff with its added and removed lines coloured. */
function patchView(patch: string): HTMLElement {
  const pre = h('pre', { class: 'code patch', id: 'answer-result', tabindex: 0 })
  for (const line of patch.split('\n')) {
    const kind =
      line.startsWith('+++') || line.startsWith('---')
        ? 'file'
        : line.startsWith('@@')
          ? 'hunk'
          : line.startsWith('+')
            ? 'added'
            : line.startsWith('-')
              ? 'removed'
              : ''
    pre.append(h('span', { class: kind }, `${line}\n`))
  }
  return pre
}

const range = (start: number, lines: number) => (lines === 1 ? `${start}` : `${start},${lines}`)

/** Each hunk once, its removed lines beside the added lines that replace them. */
function sideBySideView(hunks: Hunk[]): HTMLElement {
  const body = h('tbody', {})
  const cell = (kind: string, number: number | undefined, text: string | undefined) => [
    h('td', { class: `line-number ${kind}` }, number === undefined ? '' : String(number)),
    h('td', { class: `line ${kind}` }, text === undefined ? '' : `${kind === 'removed' ? '−' : kind === 'added' ? '+' : ' '} ${text}`),
  ]
  for (const hunk of hunks) {
    body.append(
      h(
        'tr',
        { class: 'hunk' },
        h('th', { colspan: 4, scope: 'colgroup' }, `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`),
      ),
    )
    let oldLine = hunk.oldLines === 0 ? hunk.oldStart + 1 : hunk.oldStart
    let newLine = hunk.newLines === 0 ? hunk.newStart + 1 : hunk.newStart
    const lines = hunk.lines.filter((line) => !line.startsWith('\\'))
    for (let index = 0; index < lines.length; ) {
      if (lines[index].startsWith(' ')) {
        const text = lines[index].slice(1)
        body.append(h('tr', {}, ...cell('', oldLine++, text), ...cell('', newLine++, text)))
        index++
        continue
      }
      const removed: string[] = []
      const added: string[] = []
      while (index < lines.length && lines[index].startsWith('-')) removed.push(lines[index++].slice(1))
      while (index < lines.length && lines[index].startsWith('+')) added.push(lines[index++].slice(1))
      for (let row = 0; row < Math.max(removed.length, added.length); row++) {
        body.append(
          h(
            'tr',
            {},
            ...(row < removed.length ? cell('removed', oldLine++, removed[row]) : cell('', undefined, undefined)),
            ...(row < added.length ? cell('added', newLine++, added[row]) : cell('', undefined, undefined)),
          ),
        )
      }
    }
  }
  return h(
    'div',
    { class: 'side-by-side-frame', tabindex: 0, role: 'region', 'aria-label': 'The diff side by side' },
    h(
      'table',
      { class: 'side-by-side' },
      h('colgroup', {}, h('col', { class: 'line-number' }), h('col', {}), h('col', { class: 'line-number' }), h('col', {})),
      h('thead', {}, h('tr', {}, h('th', { colspan: 2, scope: 'colgroup' }, 'Old'), h('th', { colspan: 2, scope: 'colgroup' }, 'New'))),
      body,
    ),
  )
}

/** The changes of a diff inline, insertions and deletions marked as such (not by colour alone). */
function changesView(changes: Change[]): HTMLElement {
  return h(
    'pre',
    { class: 'code changes', id: 'answer-result', tabindex: 0 },
    ...changes.map((change) => (change.added ? h('ins', {}, change.value) : change.removed ? h('del', {}, change.value) : change.value)),
  )
}
