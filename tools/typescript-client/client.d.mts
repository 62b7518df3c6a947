// Types of client.mjs: the client's paths come from schema.d.ts (generated from openapi.yaml).
import type { Client, ClientOptions } from "openapi-fetch";
import type { paths } from "./schema.js";

export type { components, operations, paths } from "./schema.js";

/** A client of the service at `baseUrl` (e.g. "http://localhost:8000"). */
export declare function cribbageClient(baseUrl: string, options?: Omit<ClientOptions, "baseUrl">): Client<paths>;
