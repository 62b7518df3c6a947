// The cribbage service's TypeScript client: openapi-fetch typed by schema.d.ts, which
// `make clients` generates from openapi.yaml (openapi-typescript).  Every path, request
// body and answer is checked against the contract at compile time (client.d.mts).
import createClient from "openapi-fetch";

/**
 * A client of the service at `baseUrl` (e.g. "http://localhost:8000").
 * @param {string} baseUrl
 * @param {Omit<import("openapi-fetch").ClientOptions, "baseUrl">} [options] fetch, headers ...
 */
export function cribbageClient(baseUrl, options = {}) {
  return createClient({ ...options, baseUrl });
}
