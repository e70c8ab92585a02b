/** The path prefix of every API route, the OpenAPI document's and the docs site's included. */
export const API_BASE_PATH = '/api/public/v1';
