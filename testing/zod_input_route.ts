/**
 * The route generated OpenAPI inputs took before they were made as JSON
 * Schema straight from the document: each field's schema through zod
 * (`jsonSchemaToZod`, input mode) into a strict object, exported by zod's
 * `z.toJSONSchema`. Tests compare the direct route with it (the bench compares with an older
 * checkout instead, `--before`).
 *
 * @module
 */
import { z } from "zod";
import { type JsonSchema, zodToJsonSchema } from "@shared/export/json_schema.ts";
import { jsonSchemaToZod } from "@shared/generated_tools/json_schema_zod.ts";
import type { InputField } from "@shared/generated_tools/input_schema.ts";
import { openapiInputFields } from "@shared/generated_tools/openapi.ts";
import type { OperationPlan } from "@shared/generated_tools/operation.ts";

/** The strict input object of an operation's fields, built with zod as before. */
export function zodRouteInput(fields: readonly InputField[], root: unknown): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const field of fields) {
    let type = jsonSchemaToZod(field.schema, field.pointer, { mode: "input", root });
    if (field.description) type = type.describe(field.description);
    shape[field.key] = field.required ? type : type.optional();
  }
  return z.strictObject(shape);
}

/** The input's JSON Schema as zod's route wrote it. */
export function zodRouteInputSchema(fields: readonly InputField[], root: unknown): JsonSchema {
  return zodToJsonSchema(zodRouteInput(fields, root), { io: "input" });
}

/** An OpenAPI plan with its input built by zod's route (a plan of `document`). */
export function withZodRouteInput(
  plan: OperationPlan,
  document: Record<string, unknown>,
): OperationPlan {
  const fields = openapiInputFields(document, plan.origin);
  if (!fields) throw new Error(`No operation ${plan.origin} in the document`);
  return { ...plan, input: zodRouteInput(fields, document) };
}
