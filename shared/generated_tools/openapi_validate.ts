/**
 * Registration's reading of an OpenAPI document: JSON or YAML, Swagger 2.0
 * upgraded to 3.1, validated against the OpenAPI meta-schema of its version.
 * Heavy (the validator and a YAML parser): only the full generator
 * (`engine.ts`) imports it.
 *
 * The checks are `@scalar/openapi-parser`'s `validate()` (the same
 * meta-schemas through `@scalar/openapi-validator`, whose AJV validators are
 * compiled once per process; every `$ref` must resolve; path templates and
 * path parameters must agree), done without its costs that check nothing:
 * JSON is read with `JSON.parse` (not the YAML parser), and references are
 * checked by walking the document once instead of cloning and dereferencing
 * all of it. On GitHub's 200-operation subset (1.5 MB) that is about a fifth
 * of the time (see docs/generated_tools.md).
 *
 * @module
 */
import { upgrade } from "@scalar/openapi-upgrader";
import { validatePathParameters } from "@scalar/openapi-validator";
import { validate as validateSwagger20 } from "./openapi_meta/v2_0.ts";
import { validate as validateOpenapi30 } from "./openapi_meta/v3_0.ts";
import { validate as validateOpenapi31 } from "./openapi_meta/v3_1.ts";
import { parse as parseYaml } from "yaml";
import type { ParsedOpenapi } from "./openapi.ts";
import { GenerationError } from "./operation.ts";
import { pointerKey, resolvePointer } from "./json_schema_zod.ts";

type Node = Record<string, unknown>;
type Issue = { path: string; message: string };

/**
 * YAML aliases one anchor may expand to (a billion-laughs document stops here): the limit
 * `@scalar/openapi-parser` uses, which real API Gateway exports with merge keys need.
 */
const MAX_YAML_ALIASES = 100_000;
/** At most this many problems are reported. */
const MAX_ISSUES = 20;

/**
 * Parses and validates a document (JSON or YAML text). A Swagger 2.0 document
 * is validated as 2.0, then upgraded to OpenAPI 3.1 (what is stored and mapped).
 *
 * @throws {GenerationError} naming what is invalid, with JSON pointers.
 */
export function parseOpenapi(text: string): Promise<ParsedOpenapi> {
  try {
    return Promise.resolve(readOpenapi(text));
  } catch (error) {
    return Promise.reject(error);
  }
}

function readOpenapi(text: string): ParsedOpenapi {
  const read = parseText(text);
  let document = read.value;
  let unchanged = read.json;
  const declared = typeof document.openapi === "string"
    ? document.openapi
    : typeof document.swagger === "string"
    ? document.swagger
    : "";
  if (!/^(3\.[01]\.\d+|2\.0)$/.test(declared)) {
    throw new GenerationError([{
      path: typeof document.swagger === "string" ? "#/swagger" : "#/openapi",
      message: declared
        ? `OpenAPI ${declared.slice(0, 20)} is not read: give OpenAPI 3.0 or 3.1, or Swagger 2.0`
        : "Not an OpenAPI document: it has no openapi (3.0, 3.1) or swagger (2.0) field",
    }]);
  }
  // Lenient as @scalar/openapi-parser: a missing info.version is not worth refusing an API for.
  const info = document.info as Node | undefined;
  if (info && typeof info === "object" && typeof info.version !== "string") {
    info.version = "0.1.0";
    unchanged = false;
  }
  if (declared.startsWith("3.0.") && nullTypesAsNullable(document) > 0) unchanged = false;
  const metaIssues = metaSchemaIssues(document, declared);
  if (metaIssues.length) throw new GenerationError(metaIssues);
  const issues = referenceIssues(document);
  if (issues.length === 0) {
    for (const error of validatePathParameters(withResolvedParameters(document))) {
      issues.push({ path: pointerOf(error.path), message: String(error.message).slice(0, 200) });
    }
  }
  if (issues.length) throw new GenerationError(issues.slice(0, MAX_ISSUES));
  if (declared === "2.0") {
    document = upgradeSwagger(document);
    unchanged = false;
  }
  return { document, version: String(document.openapi), ...(unchanged ? { json: text } : {}) };
}

/** Keywords whose values are data or extensions, not schemas: never rewritten. */
const DATA_KEYWORDS = new Set(["example", "examples", "default", "enum", "const", "value"]);

/**
 * OpenAPI 3.1's ways of saying null, written in a 3.0 document (a common
 * mix: generators and hand edits that follow JSON Schema), rewritten as 3.0
 * says them, in place: `type: "null"` is `nullable: true, enum: [null]`, and
 * a type list `[T, "null"]` is `type: T, nullable: true` (a list of several
 * other types is left for validation to name). The meaning is unambiguous,
 * so the API is read as its authors meant instead of refused.
 *
 * @returns How many schemas were rewritten.
 */
function nullTypesAsNullable(node: unknown, depth = 0): number {
  if (depth > 200 || node === null || typeof node !== "object") return 0;
  if (Array.isArray(node)) {
    return node.reduce((sum: number, item) => sum + nullTypesAsNullable(item, depth + 1), 0);
  }
  const object = node as Node;
  let rewritten = 0;
  if (object.type === "null") {
    delete object.type;
    object.nullable = true;
    object.enum = [null];
    rewritten++;
  } else if (Array.isArray(object.type) && object.type.includes("null")) {
    const others = object.type.filter((type) => type !== "null");
    if (others.length === 1) {
      object.type = others[0];
      object.nullable = true;
      rewritten++;
    }
  }
  for (const [key, value] of Object.entries(object)) {
    if (DATA_KEYWORDS.has(key) || key.startsWith("x-")) continue;
    rewritten += nullTypesAsNullable(value, depth + 1);
  }
  return rewritten;
}

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
}

type MetaValidator = ((document: unknown) => boolean) & { errors?: AjvError[] | null };

/**
 * The document against its version's meta-schema. The validators are AJV's
 * standalone code, generated and committed (`openapi_meta/`), so no instance
 * compiles a meta-schema (110–210 ms each).
 */
function metaSchemaIssues(document: Node, declared: string): Issue[] {
  const validator: MetaValidator = declared === "2.0"
    ? validateSwagger20
    : declared.startsWith("3.0.")
    ? validateOpenapi30
    : validateOpenapi31;
  if (validator(document)) return [];
  const issues: Issue[] = [];
  const seen = new Set<string>();
  // The deepest first: a oneOf's failure at a parent says less than the field that broke it.
  const errors = [...(validator.errors ?? [])].sort((a, b) =>
    b.instancePath.split("/").length - a.instancePath.split("/").length
  );
  for (const error of errors) {
    if (error.keyword === "if") continue; // its "then" says what is wrong
    const message = wording(error);
    const path = `#${error.instancePath}`;
    const key = `${path}\n${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ path, message: message.slice(0, 200) });
    if (issues.length >= MAX_ISSUES) break;
  }
  return issues;
}

/** An AJV error in words (the generated validators carry no messages, to stay small). */
function wording(error: AjvError): string {
  const params = error.params ?? {};
  const text = (value: unknown) => JSON.stringify(value)?.slice(0, 80) ?? String(value);
  switch (error.keyword) {
    case "required":
      return `Missing required field ${text(params.missingProperty)}`;
    case "additionalProperties":
    case "unevaluatedProperties":
      return `Unknown field ${
        text(params.additionalProperty ?? params.unevaluatedProperty)
      } is not allowed here`;
    case "type":
      return `Must be of type ${text(params.type)}`;
    case "enum":
      return `Must be one of ${text(params.allowedValues)}`;
    case "const":
      return `Must be ${text(params.allowedValue)}`;
    case "pattern":
      return `Must match the pattern ${text(params.pattern)}`;
    case "format":
      return `Must be a valid ${text(params.format)}`;
    case "oneOf":
      return "Must match exactly one of the allowed forms";
    case "anyOf":
      return "Must match one of the allowed forms";
    case "not":
      return "Has a combination of fields that is not allowed";
    case "propertyNames":
      return `Field name ${text(params.propertyName)} is not allowed`;
    case "minItems":
    case "minProperties":
    case "minLength":
      return `Must have at least ${text(params.limit)} ${error.keyword.slice(3).toLowerCase()}`;
    case "maxItems":
    case "maxProperties":
    case "maxLength":
      return `Must have at most ${text(params.limit)} ${error.keyword.slice(3).toLowerCase()}`;
    case "uniqueItems":
      return "Must not repeat items";
    default:
      return error.message ?? `Fails the "${error.keyword}" rule of the OpenAPI specification`;
  }
}

function parseText(text: string): { value: Node; json: boolean } {
  let value: unknown;
  let json = false;
  try {
    // JSON is YAML, but the YAML parser is many times slower on it (550 ms against 6 ms on 1.5 MB).
    value = jsonOrNothing(text);
    json = value !== undefined;
    value ??= parseYaml(text, { maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    throw new GenerationError([{
      path: "#",
      message: `Not JSON or YAML: ${String((error as Error)?.message ?? error).slice(0, 200)}`,
    }]);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new GenerationError([{ path: "#", message: "The document is not an object" }]);
  }
  return { value: value as Node, json };
}

function jsonOrNothing(text: string): unknown {
  if (text.trimStart()[0] !== "{") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // a YAML flow mapping, or broken: the YAML parser says which
  }
}

/** Objects whose keys are names (a property called `example` or `x-id` is a schema there). */
const NAME_MAPS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "schemas",
  "responses",
  "parameters",
  "requestBodies",
  "headers",
  "securitySchemes",
  "pathItems",
  "callbacks",
  "links",
  "content",
  "encoding",
  "webhooks",
]);
/** Values that are data, where a `$ref` key is not a reference (as `@scalar/openapi-parser`). */
const LITERALS = new Set(["example", "examples", "default", "enum", "const", "dependentRequired"]);

/**
 * Every `$ref` in a reference position must point inside the document at
 * something that exists. Extensions (`x-…`) and example data are not read,
 * as `@scalar/openapi-parser` reads them neither.
 */
function referenceIssues(document: Node): Issue[] {
  const issues: Issue[] = [];
  const seen = new Set<unknown>();
  // Each distinct reference is resolved once (GitHub's 200 operations name a few hundred targets
  // tens of thousands of times), and the pointer of a node is written only for a problem: the
  // walk keeps the keys leading to it instead of a string per node.
  const verdicts = new Map<string, string | null>();
  const keys: string[] = [];
  const here = () => `#${keys.map((key) => `/${pointerKey(key)}`).join("")}`;
  const walk = (node: unknown, namesHere: boolean): void => {
    if (issues.length >= MAX_ISSUES || !node || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        keys.push(String(index));
        walk(node[index], false);
        keys.pop();
      }
      return;
    }
    const record = node as Node;
    const ref = record.$ref;
    if (typeof ref === "string" && !namesHere) {
      let problem = verdicts.get(ref);
      if (problem === undefined) {
        problem = !ref.startsWith("#")
          ? `External reference "${ref.slice(0, 120)}": give one self-contained document`
          : pointsAtNothing(document, ref)
          ? `Reference "${ref.slice(0, 120)}" points at nothing in the document`
          : null;
        verdicts.set(ref, problem);
      }
      if (problem !== null) issues.push({ path: `${here()}/$ref`, message: problem });
    }
    for (const key of Object.keys(record)) {
      if (!namesHere && (key.startsWith("x-") || LITERALS.has(key))) continue;
      const value = record[key];
      if (!value || typeof value !== "object") continue;
      keys.push(key);
      walk(value, !namesHere && NAME_MAPS.has(key));
      keys.pop();
    }
  };
  walk(document, false);
  return issues;
}

function pointsAtNothing(document: Node, ref: string): boolean {
  try {
    return resolvePointer(document, ref) === undefined;
  } catch {
    return true; // a malformed escape (%zz) points nowhere
  }
}

/** The paths with their parameter lists' `$ref`s resolved (all the path check reads). */
function withResolvedParameters(document: Node): Node {
  const resolve = (list: unknown) =>
    Array.isArray(list)
      ? list.map((item) => {
        let current = item as Node;
        for (let hops = 0; typeof current?.$ref === "string" && hops < 16; hops++) {
          current = resolvePointer(document, current.$ref as string) as Node;
        }
        return current;
      })
      : list;
  const paths: Record<string, Node> = {};
  for (const [path, raw] of Object.entries((document.paths ?? {}) as Record<string, Node>)) {
    if (!raw || typeof raw !== "object") continue;
    const item: Node = { ...raw, parameters: resolve(raw.parameters) };
    for (const [key, value] of Object.entries(raw)) {
      if (value && typeof value === "object" && !Array.isArray(value) && "parameters" in value) {
        item[key] = { ...value as Node, parameters: resolve((value as Node).parameters) };
      }
    }
    paths[path] = item;
  }
  return { ...document, paths };
}

function upgradeSwagger(document: Node): Node {
  let upgraded: Node | null;
  try {
    upgraded = upgrade(document, "3.1") as unknown as Node | null;
  } catch (error) {
    throw new GenerationError([{
      path: "#/swagger",
      message: `This Swagger 2.0 document cannot be upgraded to OpenAPI 3.1: ${
        String((error as Error)?.message ?? error).slice(0, 200)
      }`,
    }]);
  }
  if (!upgraded || typeof upgraded.openapi !== "string" || !/^3\.1\./.test(upgraded.openapi)) {
    throw new GenerationError([{
      path: "#/swagger",
      message: "This Swagger 2.0 document cannot be upgraded to OpenAPI 3.1",
    }]);
  }
  return upgraded;
}

function pointerOf(path: unknown): string {
  if (Array.isArray(path)) return `#/${path.map((part) => pointerKey(String(part))).join("/")}`;
  if (typeof path === "string" && path) return path.startsWith("/") ? `#${path}` : `#/${path}`;
  return "#";
}
