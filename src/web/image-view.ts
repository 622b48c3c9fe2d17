import { h, saveFile } from './dom.ts'

const EXTENSIONS: Record<string, string> = { 'image/svg+xml': 'svg', 'image/png': 'png' }

/** The image an answer's `result` holds, as its `mediaType` says: SVG markup or a PNG in base64. */
export function imageBlob(result: string, mediaType: string): Blob | undefined {
  if (mediaType === 'image/svg+xml') return new Blob([result], { type: mediaType })
  if (mediaType === 'image/png') return new Blob([Uint8Array.from(atob(result), (char) => char.charCodeAt(0))], { type: mediaType })
  return undefined
}

/** The image drawn into a PNG, at a size that prints sharply, for an SVG answer's PNG download and for the clipboard, which takes PNG only. */
async function asPng(blob: Blob): Promise<Blob> {
  if (blob.type === 'image/png') return blob
  const url = URL.createObjectURL(blob)
  try {
    const image = new Image()
    image.src = url
    await image.decode()
    const scale = Math.max(1, Math.ceil(512 / Math.max(image.naturalWidth, 1)))
    const canvas = h('canvas', { width: image.naturalWidth * scale, height: image.naturalHeight * scale })
    const context = canvas.getContext('2d')
    if (!context) throw new Error('no canvas')
    context.imageSmoothingEnabled = false
    context.fillStyle = '#ffffff'
    context.fillRect(0, 0, canvas.width, canvas.height)
    context.drawImage(image, 0, 0, canvas.width, canvas.height)
    return await new Promise((resolve, reject) => canvas.toBlob((png) => (png ? resolve(png) : reject(new Error('no PNG'))), 'image/png'))
  } finally {
    URL.revokeObjectURL(url)
  }
}

/**
 * An image result shown, with a download in each format it can be had in (named after the
 * operation) and, where the browser's clipboard takes images, a copy of it as an image.
 */
export function imageView(blob: Blob, baseName: string): HTMLElement {
  const url = URL.createObjectURL(blob)
  const image = h('img', { src: url, alt: 'The generated image', class: 'result-image', id: 'answer-image' })
  image.addEventListener('load', () => URL.revokeObjectURL(url), { once: true })
  const buttons: HTMLElement[] = []
  const button = (label: string, action: () => Promise<void>) => {
    const element = h('button', { type: 'button', class: 'secondary small' }, label)
    element.addEventListener('click', async () => {
      try {
        await action()
      } catch {
        element.textContent = `${label}: failed`
        setTimeout(() => {
          element.textContent = label
        }, 1500)
      }
    })
    buttons.push(element)
    return element
  }
  button('Download PNG', async () => saveFile(await asPng(blob), `${baseName}.png`)).id = 'download-png'
  if (blob.type !== 'image/png')
    button(`Download ${EXTENSIONS[blob.type]?.toUpperCase() ?? 'image'}`, async () => saveFile(blob, `${baseName}.${EXTENSIONS[blob.type] ?? 'bin'}`))
  if (typeof ClipboardItem !== 'undefined' && navigator.clipboard?.write && window.isSecureContext) {
    const copy = button('Copy image', async () => {
      await navigator.clipboard.write([new ClipboardItem({ 'image/png': asPng(blob) })])
      copy.textContent = 'Copied'
      setTimeout(() => {
        copy.textContent = 'Copy image'
      }, 1500)
    })
  }
  return h('div', { class: 'image-result' }, h('div', { class: 'image-frame' }, image), h('div', { class: 'toolbar' }, ...buttons))
}
