/**
 * The generator as the composition root hands it to a function that serves
 * tenants' generated tools. This module is the light one: plans from stored
 * documents (OpenAPI as JSON, GraphQL SDL or introspection JSON) with `graphql` and our mapper, for
 * any function that calls tenants' tools (the agent, MCP). Registration's
 * readers (the OpenAPI validator, YAML) are `engine.ts`.
 *
 * @module
 */
import { planSource, type PlanSourceOptions, type SourceDocument } from "./generate.ts";
import type { GraphQLSchema } from "graphql";
import type { OperationPlans } from "./operation.ts";

/** What registration needs beyond plans: reading documents as they arrive. */
export interface DocumentReaders {
  /**
   * An OpenAPI document (JSON or YAML) validated and normalised to the JSON stored.
   *
   * @throws {GenerationError} naming what is invalid.
   */
  openapiJson(text: string): Promise<string>;
  /**
   * As {@link DocumentReaders.openapiJson}, also handing back the document it
   * read, so registration maps that instead of parsing the JSON it stores again.
   *
   * @throws {GenerationError} naming what is invalid.
   */
  openapiRead?(text: string): Promise<{ json: string; document: Record<string, unknown> }>;
  /**
   * An introspection answer (or SDL) as the SDL stored for the source.
   *
   * @throws {GenerationError} when it is not a schema.
   */
  graphqlSdl(text: string): string;
  /**
   * Reads an introspection answer or SDL, handing back the document to store
   * (the text as given: every instance reads either form) and the schema it
   * read, so registration maps that instead of parsing the document again.
   *
   * @throws {GenerationError} when it is not a schema.
   */
  graphqlRead?(text: string): { document: string; schema: GraphQLSchema };
}

/** Makes plans from documents. */
export interface GeneratedToolsEngine {
  /**
   * A stored source's plans (cached by tenant and document hash).
   *
   * @throws {GenerationError} naming what cannot be read or mapped.
   */
  plan(source: SourceDocument, options?: PlanSourceOptions): Promise<OperationPlans>;
  /** Registration's readers; absent where APIs are not registered. */
  readers?: DocumentReaders;
}

/** Plans from stored documents only. */
export const GENERATED_TOOLS_SYNC_ENGINE: GeneratedToolsEngine = {
  plan: (source, options) => planSource(source, { ...options, validate: false }),
};
