/**
 * The full generator: {@link GENERATED_TOOLS_SYNC_ENGINE}'s plans plus
 * registration's readers (the OpenAPI validator `@scalar/openapi-parser`
 * with YAML, and GraphQL introspection), about a megabyte of bundle: for the
 * tools function, the dev server and tests.
 *
 * @module
 */
import { parseGraphqlSchema, schemaText } from "./graphql.ts";
import { parseOpenapi } from "./openapi_validate.ts";
import { GENERATED_TOOLS_SYNC_ENGINE, type GeneratedToolsEngine } from "./sync_engine.ts";

export { GENERATED_TOOLS_SYNC_ENGINE };
export type { DocumentReaders, GeneratedToolsEngine } from "./sync_engine.ts";

/** Plans and registration's readers. */
export const GENERATED_TOOLS_ENGINE: GeneratedToolsEngine = {
  plan: GENERATED_TOOLS_SYNC_ENGINE.plan,
  readers: {
    async openapiJson(text) {
      return JSON.stringify((await parseOpenapi(text)).document);
    },
    async openapiRead(text) {
      const { document } = await parseOpenapi(text);
      return { json: JSON.stringify(document), document };
    },
    graphqlSdl: (text) => schemaText(parseGraphqlSchema(text)),
  },
};
