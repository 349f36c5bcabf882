/**
 * A source's document to operation plans, cached in-process by (tenant,
 * document hash, source name, exposed operations): a second sync on this
 * instance, or a repeated registration of the same document, does not parse
 * or map it again.
 *
 * @module
 */
import type { GraphQLSchema } from "graphql";
import { graphqlPlans, parseGraphqlSchema } from "./graphql.ts";
import { openapiPlans, type ParsedOpenapi, parseStoredOpenapi } from "./openapi.ts";
import {
  bytesOverLimit,
  documentHash,
  GenerationError,
  MAX_DOCUMENT_BYTES,
  type OperationPlans,
} from "./operation.ts";

/** What a source's plans depend on. */
export interface SourceDocument {
  /** The tenant. */
  orgId: string;
  /** The source's name (tools' prefix). */
  name: string;
  /** The document's language. */
  kind: "openapi" | "graphql";
  /** The document: OpenAPI JSON or YAML, GraphQL SDL or introspection JSON. */
  document: string;
  /** SHA-256 hex of `document`. */
  documentHash: string;
  /** Operations or fields exposed beyond what the document marks (GraphQL: all that are). */
  expose: readonly string[];
}

/** Options for {@link planSource}. */
export interface PlanSourceOptions {
  /**
   * Validate the OpenAPI document against its specification (the registration
   * does; an instance syncing a stored document may skip it: mapping still
   * refuses what it cannot read, and validation is most of a cold start).
   * @default true
   */
  validate?: boolean;
  /**
   * Reads and validates a document (registration's reader, `openapi_validate.ts`).
   * @default none: a stored JSON document is read unvalidated
   */
  parseOpenapi?: (text: string) => Promise<ParsedOpenapi>;
  /**
   * The OpenAPI document `source.document` is the JSON of, already read
   * (registration's): mapped as it is instead of parsing that JSON again.
   * Not to be changed afterwards.
   */
  parsed?: Record<string, unknown>;
  /**
   * The GraphQL schema `source.document` is the SDL of, already read
   * (registration's, from an introspection answer): mapped as it is instead
   * of parsing the SDL it printed. Not to be changed afterwards.
   */
  graphqlSchema?: GraphQLSchema;
}

export { documentHash, MAX_DOCUMENT_BYTES };

/** Plans held per instance; the oldest go first. */
const CACHE_LIMIT = 128;
const cache = new Map<string, Promise<OperationPlans>>();

/** How many generations this instance has run (not cache hits), for tests and benches. */
export const generationStats = { runs: 0 };

/**
 * The plans of a source, from the cache when this instance made them before.
 *
 * @throws {GenerationError} when the document is too large, invalid, or cannot be mapped.
 */
export function planSource(
  source: SourceDocument,
  options: PlanSourceOptions = {},
): Promise<OperationPlans> {
  const validate = (options.validate ?? true) && options.parseOpenapi !== undefined;
  const base = [source.orgId, source.documentHash, source.name, source.kind, ...source.expose]
    .join("\n");
  // A validated generation serves either kind of request; an unvalidated one only its own.
  const key = `${validate ? "valid" : "parsed"}\n${base}`;
  const cached = cache.get(`valid\n${base}`) ?? cache.get(key);
  if (cached) {
    // Most recently used last, so the limit drops the least used.
    const hit = cache.get(`valid\n${base}`) === cached ? `valid\n${base}` : key;
    cache.delete(hit);
    cache.set(hit, cached);
    return cached;
  }
  const made = generate(
    source,
    validate ? options.parseOpenapi : undefined,
    options.parsed,
    options.graphqlSchema,
  );
  cache.set(key, made);
  made.catch(() => cache.delete(key));
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  return made;
}

async function generate(
  source: SourceDocument,
  parseOpenapi: ((text: string) => Promise<ParsedOpenapi>) | undefined,
  parsed: Record<string, unknown> | undefined,
  graphqlSchema: GraphQLSchema | undefined,
): Promise<OperationPlans> {
  generationStats.runs++;
  const bytes = bytesOverLimit(source.document);
  if (bytes !== null) {
    throw new GenerationError([{
      path: "document",
      message: `The document is ${bytes} bytes; at most ${MAX_DOCUMENT_BYTES} are read`,
    }]);
  }
  if (source.kind === "openapi") {
    const read = parseOpenapi
      ? await parseOpenapi(source.document)
      : parseStoredOpenapi(parsed ?? source.document);
    return openapiPlans(read, {
      source: source.name,
      expose: source.expose,
    });
  }
  return graphqlPlans(graphqlSchema ?? parseGraphqlSchema(source.document), {
    source: source.name,
    expose: source.expose,
  });
}
