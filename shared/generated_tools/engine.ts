/**
 * The generator itself, as one value the composition root hands to the
 * functions that serve tenants' generated tools: parsing and validating
 * documents (`@scalar/openapi-parser`, `yaml`, `graphql`) weighs about a
 * megabyte of bundle, so only those functions (the tools function, the dev
 * server, tests) import this module; the others run without generated tools.
 *
 * @module
 */
import { planSource, type PlanSourceOptions, type SourceDocument } from "./generate.ts";
import { parseGraphqlSchema, schemaText } from "./graphql.ts";
import type { OperationPlan } from "./operation.ts";

/** Makes plans from documents. */
export interface GeneratedToolsEngine {
  /**
   * A source's plans (cached by tenant and document hash).
   *
   * @throws {GenerationError} naming what cannot be read or mapped.
   */
  plan(source: SourceDocument, options?: PlanSourceOptions): Promise<OperationPlan[]>;
  /**
   * An introspection answer (or SDL) as the SDL stored for the source.
   *
   * @throws {GenerationError} when it is not a schema.
   */
  graphqlSdl(text: string): string;
}

/** The engine. */
export const GENERATED_TOOLS_ENGINE: GeneratedToolsEngine = {
  plan: planSource,
  graphqlSdl: (text) => schemaText(parseGraphqlSchema(text)),
};
