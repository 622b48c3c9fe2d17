/** Where the server serves the web app's hashed files (script, style, catalogue, icon). */
export const WEB_ASSETS_PATH = '/assets/'

/** The page of one operation: a stable address to share, its inputs in the fragment. */
export const TOOL_PATH = '/tools/'

/** The page that chains operations. */
export const PIPELINE_PATH = '/pipeline'

/** The web app manifest, at a fixed address (index.html links it; an installed app keeps it). */
export const WEB_MANIFEST_PATH = '/manifest.webmanifest'

/** The service worker, at the root, so that its scope covers every page of the app. */
export const SERVICE_WORKER_PATH = '/sw.js'

/**
 * What index.html holds in place of the service's body limit, which the service writes there as it
 * serves the page (its configuration sets it; a built file cannot know it).
 */
export const BODY_LIMIT_PLACEHOLDER = '%BODY_LIMIT%'

/**
 * The name the page's worker script begins with, under WEB_ASSETS_PATH: the server gives it the
 * pages' own policy, which a worker keeps from its script's answer (see in-page.ts).
 */
export const PAGE_WORKER_NAME = 'page-worker'
