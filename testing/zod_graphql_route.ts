/**
 * The route generated GraphQL inputs took before they were made as JSON
 * Schema straight from the schema: each argument typed with zod into a strict
 * object, exported by zod's `z.toJSONSchema`. `graphql_test.ts` compares the
 * direct route (`graphqlInputSchema`) with it.
 *
 * @module
 */
import {
  type GraphQLArgument,
  GraphQLEnumType,
  type GraphQLField,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLScalarType,
} from "graphql";
import { z } from "zod";
import { type JsonSchema, zodToJsonSchema } from "@shared/export/json_schema.ts";
import { cleanDescription } from "@shared/generated_tools/operation.ts";
import { customScalarNote } from "@shared/generated_tools/graphql.ts";

/** A field's input as zod's route built it. */
export function zodRouteGraphqlInput(field: GraphQLField<unknown, unknown>): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const arg of field.args) shape[arg.name] = argType(arg);
  return z.strictObject(shape);
}

/** The input's JSON Schema as zod's route wrote it (what `graphqlInputSchema` must equal). */
export function zodRouteGraphqlInputSchema(field: GraphQLField<unknown, unknown>): JsonSchema {
  return zodToJsonSchema(zodRouteGraphqlInput(field), { io: "input" });
}

function argType(arg: GraphQLArgument): z.ZodType {
  const type = inputType(arg.type, 0);
  const described = arg.description
    ? type.describe(cleanDescription(arg.description, "", 300))
    : type;
  return arg.type instanceof GraphQLNonNull
    ? (arg.defaultValue === undefined ? described : described.optional())
    : described.nullable().optional();
}

function inputType(type: GraphQLInputType, depth: number): z.ZodType {
  if (type instanceof GraphQLNonNull) return inputType(type.ofType, depth);
  if (type instanceof GraphQLList) {
    const item = inputType(type.ofType, depth + 1);
    return z.array(type.ofType instanceof GraphQLNonNull ? item : item.nullable());
  }
  if (type instanceof GraphQLEnumType) {
    return z.enum(type.getValues().map((value) => value.name) as [string, ...string[]]);
  }
  if (type instanceof GraphQLInputObjectType) {
    // Input objects may refer to themselves: past a depth, the rest is an open object.
    if (depth > 6) return z.record(z.string(), z.unknown());
    if (type.isOneOf) {
      return z.union(
        Object.values(type.getFields()).map((field) =>
          z.strictObject({ [field.name]: inputType(field.type, depth + 1) })
        ),
      );
    }
    const shape: Record<string, z.ZodType> = {};
    for (const field of Object.values(type.getFields())) {
      const mapped = inputType(field.type, depth + 1);
      shape[field.name] = field.type instanceof GraphQLNonNull
        ? (field.defaultValue === undefined ? mapped : mapped.optional())
        : mapped.nullable().optional();
    }
    return z.strictObject(shape);
  }
  if (type instanceof GraphQLScalarType) {
    switch (type.name) {
      case "Int":
        return z.number().int().min(-(2 ** 31)).max(2 ** 31 - 1);
      case "Float":
        return z.number();
      case "Boolean":
        return z.boolean();
      case "ID":
        return z.union([z.string(), z.number().int()]);
      case "String":
        return z.string();
      default:
        return z.unknown().describe(customScalarNote(type));
    }
  }
  return z.unknown();
}
