import { Type } from 'typebox'

/** The longest image a decode takes, in base64 characters: about what the request body holds. */
export const MAX_IMAGE_BASE64 = 1_400_000

const pointSchema = Type.Object({ x: Type.Number(), y: Type.Number() })
/** Where a symbol lies in the image: its corners, in pixels from the top left. */
export const positionSchema = Type.Object(
  { topLeft: pointSchema, topRight: pointSchema, bottomRight: pointSchema, bottomLeft: pointSchema },
  { description: 'The corners of the symbol in the image, in pixels from its top-left corner.' },
)
