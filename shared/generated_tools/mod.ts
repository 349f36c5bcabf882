/**
 * Tools generated per tenant from its own OpenAPI 3.0/3.1 or GraphQL API
 * (seed 001 `dynamicApiTools`, issue 28):
 *
 * - `source_tools.ts`: the staff tools that register, list and remove a
 *   source and set its credentials, and the admins' URL allowlist tools;
 * - `openapi.ts`, `graphql.ts`: documents to operation plans
 *   (`operation.ts`), cached by document hash (`generate.ts`); OpenAPI
 *   inputs made as JSON Schema straight from the document
 *   (`input_schema.ts`) with their zod checks built per field on first use
 *   (`lazy_input.ts`), answers' schemas made lenient as JSON Schema
 *   (`output_schema.ts`);
 * - `stored_plan.ts`: plans stored at registration next to the document and
 *   read back by every other instance without mapping or building zod;
 * - `bind.ts`: a plan bound to the tenant's base URL and credentials as a
 *   tool, every call through the SSRF-safe fetcher (`safe_fetch.ts`), which
 *   connects to the address it checked (`pinned_request.ts`);
 * - `credential_box.ts`: credentials sealed with AES-GCM at rest;
 * - `sync.ts`: the Postgres-backed `TenantToolSync` every instance uses.
 *
 * This face is light (no parser): the generator (`engine.ts`, with
 * `@scalar/openapi-parser`, `yaml` and `graphql`) is imported only by the
 * functions that serve generated tools, and handed to the platform.
 *
 * @module
 */
export { bindPlan, type Credential, type SourceBinding } from "./bind.ts";
export { createCredentialBox, type CredentialBox, credentialBoxFromEnv } from "./credential_box.ts";
export type { SourceDocument } from "./generate.ts";
export type { GeneratedToolsEngine } from "./sync_engine.ts";
export {
  documentHash,
  GenerationError,
  MAX_DOCUMENT_BYTES,
  type OperationPlan,
} from "./operation.ts";
export {
  checkTarget,
  isBlockedAddress,
  type Resolver,
  safeFetch,
  SafeFetchError,
} from "./safe_fetch.ts";
export {
  apiCredentialSet,
  apiSourceList,
  apiSourceRegister,
  apiSourceRemove,
  apiUrlAllowlistGet,
  apiUrlAllowlistSet,
  GENERATED_TOOLS,
  type GeneratedToolsService,
  SOURCE_TOOLS,
  SOURCE_WRITES,
} from "./source_tools.ts";
export { createPostgresToolSync, type PostgresToolSyncOptions } from "./sync.ts";
