/** Every operation lives under this prefix (the seed's versioning rule). */
export const API_PREFIX = '/api/v1'
