/** Where the server serves the web app's hashed files (script, style, catalogue, icon). */
export const WEB_ASSETS_PATH = '/assets/'

/** The page of one operation: a stable address to share, its inputs in the fragment. */
export const TOOL_PATH = '/tools/'

/** The page that chains operations. */
export const PIPELINE_PATH = '/pipeline'
