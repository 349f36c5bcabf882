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
      const read = await parseOpenapi(text);
      return read.json ?? JSON.stringify(read.document);
    },
    async openapiRead(text) {
      // JSON read unchanged is stored as given: writing 1.5 MB out again and hashing it a second
      // time bought nothing (the text is what the hash of the request already covers).
      const { document, json } = await parseOpenapi(text);
      return { json: json ?? JSON.stringify(document), document };
    },
    graphqlSdl: (text) => schemaText(parseGraphqlSchema(text)),
    graphqlRead(text) {
      // Stored as given, hashed once: printing GitHub's schema as SDL (55 ms) and hashing that
      // (7 ms) bought nothing, as parseGraphqlSchema reads an introspection answer as well.
      return { document: text, schema: parseGraphqlSchema(text) };
    },
  },
};
