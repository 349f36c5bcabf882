/**
 * GraphQL schemas to operation plans, with the `graphql` package: a schema
 * from SDL or from an introspection result, and one tool for each query or
 * mutation field the tenant picks (`query.<field>`, `mutation.<field>`).
 * Variables are typed from the field's arguments (scalars, enums, input
 * objects, non-null, lists; custom scalars as strings); the selection set is
 * generated from the return type within depth and field caps, without
 * cycles and without fields that need arguments.
 *
 * @module
 */
import {
  buildClientSchema,
  buildSchema,
  getNamedType,
  getNullableType,
  GraphQLEnumType,
  type GraphQLField,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLScalarType,
  type GraphQLSchema,
  GraphQLUnionType,
  type IntrospectionQuery,
  isLeafType,
  printSchema,
} from "graphql";
import { z } from "zod";
import type { JsonSchema } from "@shared/export/json_schema.ts";
import { lazyInput } from "./lazy_input.ts";
import {
  cleanDescription,
  GenerationError,
  MAX_OPERATIONS,
  type OperationPlan,
  toolName,
} from "./operation.ts";

/** Options for {@link graphqlPlans}. */
export interface GraphqlPlanOptions {
  /** The source's name: every tool's prefix. */
  source: string;
  /** The fields exposed: `query.<field>` or `mutation.<field>`. */
  expose: readonly string[];
  /** Deepest selection. @default 3 */
  maxDepth?: number;
  /** Most fields selected in all. @default 60 */
  maxFields?: number;
}

/**
 * A schema from SDL, or from an introspection result (`{data: {__schema}}` or `{__schema}`) as JSON.
 *
 * @throws {GenerationError} when the text is neither.
 */
export function parseGraphqlSchema(text: string): GraphQLSchema {
  const trimmed = text.trim();
  try {
    if (trimmed.startsWith("{")) {
      const json = JSON.parse(trimmed);
      const result = (json.data ?? json) as IntrospectionQuery;
      return buildClientSchema(result);
    }
    return buildSchema(trimmed);
  } catch (error) {
    throw new GenerationError([{
      path: "document",
      message: `Not a GraphQL schema: ${String((error as Error).message ?? error).slice(0, 200)}`,
    }]);
  }
}

/** The SDL of a schema (how a schema fetched by introspection from a URL is stored). */
export function schemaText(schema: GraphQLSchema): string {
  return printSchema(schema);
}

/**
 * The picked fields, as plans.
 *
 * @throws {GenerationError} naming each unknown field or name that cannot be made.
 */
export function graphqlPlans(schema: GraphQLSchema, options: GraphqlPlanOptions): OperationPlan[] {
  const issues: { path: string; message: string }[] = [];
  const plans: OperationPlan[] = [];
  const names = new Map<string, string>();
  if (options.expose.length > MAX_OPERATIONS) {
    throw new GenerationError([{ path: "expose", message: `More than ${MAX_OPERATIONS} fields` }]);
  }
  for (const pick of options.expose) {
    const [kind, field] = pick.split(".", 2);
    const root = kind === "query"
      ? schema.getQueryType()
      : kind === "mutation"
      ? schema.getMutationType()
      : null;
    const definition = field ? root?.getFields()[field] : undefined;
    if (!root || !definition) {
      issues.push({
        path: `expose.${pick}`,
        message: `No ${kind || "query"} field "${field ?? pick}"`,
      });
      continue;
    }
    const name = toolName(options.source, `${kind === "mutation" ? "" : "get_"}${field}`);
    if (!name || names.has(name)) {
      issues.push({
        path: `expose.${pick}`,
        message: `"${pick}" makes no usable tool name, or one taken by "${names.get(name ?? "")}"`,
      });
      continue;
    }
    names.set(name, pick);
    plans.push(planField(schema, kind as "query" | "mutation", definition, name, options));
  }
  if (issues.length) throw new GenerationError(issues);
  return plans;
}

function planField(
  schema: GraphQLSchema,
  kind: "query" | "mutation",
  field: GraphQLField<unknown, unknown>,
  name: string,
  options: GraphqlPlanOptions,
): OperationPlan {
  // A non-null argument with a default is declared nullable: a call that leaves it out gets the
  // server's default (GraphQL allows a nullable variable where the argument has one), where
  // `$sort: Sort!` would make the server refuse the call for a missing variable.
  const variables = field.args.map((arg) =>
    `$${arg.name}: ${
      (arg.type instanceof GraphQLNonNull && arg.defaultValue !== undefined
        ? arg.type.ofType
        : arg.type).toString()
    }`
  );
  const budget = { fields: options.maxFields ?? 60 };
  const selection = selectionFor(schema, field.type, options.maxDepth ?? 3, new Set(), budget);
  const args = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(", ");
  const query = `${kind} ${snake(name)}${
    variables.length ? `(${variables.join(", ")})` : ""
  } { ${field.name}${args ? `(${args})` : ""}${selection} }`;
  return {
    name,
    origin: `${kind}.${field.name}`,
    title: field.name,
    description: cleanDescription(
      field.description,
      `GraphQL ${kind} ${field.name} on the tenant's API.`,
    ),
    input: lazyInput(graphqlInputSchema(field), name),
    output: z.unknown(),
    readOnly: kind === "query",
    destructive: false,
    send: { kind: "graphql", query, field: field.name },
  };
}

function snake(text: string): string {
  return text.replace(/[^A-Za-z0-9_]/g, "_");
}

/**
 * A field's arguments as the tool's strict input, in JSON Schema 2020-12
 * written as zod's route wrote it (`testing/zod_graphql_route.ts`; compared
 * in `graphql_test.ts`), so registration builds no zod to make it and each
 * argument's check is built from it on the first call that needs it.
 *
 * @param field A query or mutation field.
 * @returns A strict object of the field's arguments: non-null ones without a default required,
 *   the others optional and nullable.
 */
export function graphqlInputSchema(field: GraphQLField<unknown, unknown>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const arg of field.args) {
    const type = inputType(arg.type, 0);
    const described = arg.description
      ? { ...type, description: cleanDescription(arg.description, "", 300) }
      : type;
    if (arg.type instanceof GraphQLNonNull && arg.defaultValue === undefined) {
      properties[arg.name] = described;
      required.push(arg.name);
    } else properties[arg.name] = optional(arg.type, described);
  }
  return strictObject(properties, required);
}

// An optional argument or input field: null is a value only for a nullable type (a non-null one
// with a default may be left out, and the server refuses a null there).
function optional(type: GraphQLInputType, mapped: JsonSchema): JsonSchema {
  return type instanceof GraphQLNonNull ? mapped : nullable(mapped);
}

function strictObject(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return {
    type: "object",
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

// `.nullable()` as zod writes it: a bare type becomes a type list, anything else a union.
function nullable(schema: JsonSchema): JsonSchema {
  const keys = Object.keys(schema);
  return keys.length === 1 && keys[0] === "type" && typeof schema.type === "string"
    ? { type: [schema.type, "null"] }
    : { anyOf: [schema, { type: "null" }] };
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function inputType(type: GraphQLInputType, depth: number): JsonSchema {
  if (type instanceof GraphQLNonNull) return inputType(type.ofType, depth);
  if (type instanceof GraphQLList) {
    const item = inputType(type.ofType, depth + 1);
    return { type: "array", items: type.ofType instanceof GraphQLNonNull ? item : nullable(item) };
  }
  if (type instanceof GraphQLEnumType) {
    return { type: "string", enum: type.getValues().map((value) => value.name) };
  }
  if (type instanceof GraphQLInputObjectType) {
    // Input objects may refer to themselves: past a depth, the rest is an open object.
    if (depth > 6) {
      return { type: "object", propertyNames: { type: "string" }, additionalProperties: {} };
    }
    if (type.isOneOf) {
      // `@oneOf`: exactly one field, not null. One strict branch per field says it to every
      // dialect (and the input check refuses none, two, or a null before anything is sent).
      return {
        anyOf: Object.values(type.getFields()).map((field) =>
          strictObject({ [field.name]: inputType(field.type, depth + 1) }, [field.name])
        ),
      };
    }
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const field of Object.values(type.getFields())) {
      const mapped = inputType(field.type, depth + 1);
      if (field.type instanceof GraphQLNonNull && field.defaultValue === undefined) {
        properties[field.name] = mapped;
        required.push(field.name);
      } else properties[field.name] = optional(field.type, mapped);
    }
    return strictObject(properties, required);
  }
  if (type instanceof GraphQLScalarType) {
    switch (type.name) {
      case "Int":
        return { type: "integer", minimum: -(2 ** 31), maximum: 2 ** 31 - 1 };
      case "Float":
        return { type: "number" };
      case "Boolean":
        return { type: "boolean" };
      case "ID":
        return {
          anyOf: [{ type: "string" }, { type: "integer", minimum: -MAX_SAFE, maximum: MAX_SAFE }],
        };
      case "String":
        return { type: "string" };
      default:
        // A custom scalar's shape is the server's own (JSON objects, Money numbers, Date text):
        // any JSON value goes, and the server's own check answers for it.
        return { description: customScalarNote(type) };
    }
  }
  return {};
}

/**
 * What a custom scalar's input says to the model: its name and the server's description of it,
 * as it takes any JSON value.
 */
export function customScalarNote(type: GraphQLScalarType): string {
  const said = type.description ? `: ${type.description}` : "";
  const spec = type.specifiedByURL ? ` (${type.specifiedByURL})` : "";
  return cleanDescription(`A ${type.name}, the API's own scalar${said}${spec}`, "", 300);
}

/**
 * A bounded selection set for a type: objects' fields that need no
 * arguments, `depth` levels deep, at most `budget.fields` fields in all, no
 * type twice on a path. Unions and interfaces select `__typename` and an
 * inline fragment (`... on T { … }`) per possible type, so the model sees
 * which kind of thing came back and its fields.
 */
function selectionFor(
  schema: GraphQLSchema,
  type: GraphQLOutputType,
  depth: number,
  path: Set<string>,
  budget: { fields: number },
): string {
  const named = getNamedType(getNullableType(type));
  if (isLeafType(named)) return "";
  if (depth <= 0 || path.has(named.name)) return " { __typename }";
  const inner = new Set(path).add(named.name);
  if (named instanceof GraphQLObjectType) {
    const picked = fieldsOf(schema, named, depth, inner, budget, new Set());
    return picked.length ? ` { ${picked.join(" ")} }` : " { __typename }";
  }
  const abstract = named as GraphQLUnionType | GraphQLInterfaceType;
  const picked = ["__typename"];
  const shared = new Set<string>();
  if (abstract instanceof GraphQLInterfaceType) {
    for (const field of fieldsOf(schema, abstract, depth, inner, budget, new Set())) {
      picked.push(field);
      shared.add(field.split(/[ {]/, 1)[0]);
    }
  }
  for (const possible of schema.getPossibleTypes(abstract)) {
    if (budget.fields <= 0) break;
    const own = fieldsOf(
      schema,
      possible,
      depth,
      new Set(inner).add(possible.name),
      budget,
      shared,
    );
    if (own.length) picked.push(`... on ${possible.name} { ${own.join(" ")} }`);
  }
  return ` { ${picked.join(" ")} }`;
}

function fieldsOf(
  schema: GraphQLSchema,
  object: GraphQLObjectType | GraphQLInterfaceType,
  depth: number,
  inner: Set<string>,
  budget: { fields: number },
  skip: Set<string>,
): string[] {
  const picked: string[] = [];
  for (const field of Object.values(object.getFields())) {
    if (budget.fields <= 0) break;
    if (skip.has(field.name)) continue;
    if (
      field.args.some((arg) => arg.type instanceof GraphQLNonNull && arg.defaultValue === undefined)
    ) {
      continue;
    }
    const fieldNamed = getNamedType(field.type);
    if (isLeafType(fieldNamed)) {
      budget.fields--;
      picked.push(field.name);
      continue;
    }
    if (depth <= 1 || inner.has(fieldNamed.name)) continue;
    budget.fields--;
    const sub = selectionFor(schema, field.type, depth - 1, inner, budget);
    if (sub && sub !== " { __typename }") picked.push(`${field.name}${sub}`);
    else budget.fields++;
  }
  return picked;
}

/** The standard introspection query, for fetching a schema from a URL. */
export { getIntrospectionQuery } from "graphql";
