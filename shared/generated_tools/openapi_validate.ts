/**
 * Registration's reading of an OpenAPI document: JSON or YAML, validated
 * against the 3.0 or 3.1 specification with `@scalar/openapi-parser`.
 * Heavy (the validator and a YAML parser): only the full generator
 * (`engine.ts`) imports it.
 *
 * @module
 */
import { validate } from "@scalar/openapi-parser";
import type { ParsedOpenapi } from "./openapi.ts";
import { GenerationError } from "./operation.ts";

type Node = Record<string, unknown>;

/**
 * Parses and validates a document (JSON or YAML text).
 *
 * @throws {GenerationError} naming what is invalid, with JSON pointers.
 */
export async function parseOpenapi(text: string): Promise<ParsedOpenapi> {
  let result;
  try {
    result = await validate(text);
  } catch (error) {
    throw new GenerationError([{
      path: "#",
      message: `Not an OpenAPI document: ${String(error).slice(0, 200)}`,
    }]);
  }
  const document = result.specification as Node | undefined;
  const version = typeof document?.openapi === "string" ? document.openapi : "";
  if (!document || !/^3\.[01]\./.test(version)) {
    throw new GenerationError([{
      path: "#/openapi",
      message: "Only OpenAPI 3.0 and 3.1 documents are read",
    }]);
  }
  if (!result.valid) {
    throw new GenerationError(
      (result.errors ?? []).slice(0, 20).map((error) => ({
        path: `#${(error as { path?: string }).path ?? ""}`,
        message: String(error.message).slice(0, 200),
      })),
    );
  }
  return { document, version };
}
