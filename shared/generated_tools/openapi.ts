/**
 * OpenAPI 3.0 and 3.1 documents to operation plans: one per `operationId`
 * the document marks `x-agent: {action: true}` or the tenant names in
 * `expose`. Path, query and header parameters and the JSON body become one
 * strict input object; the first 2xx JSON response becomes a lenient output.
 * Validation (`@scalar/openapi-parser`, YAML) is `openapi_validate.ts`,
 * which only registration needs; `$ref`s are resolved while mapping (cycles
 * end as open objects).
 *
 * @module
 */
import { z } from "zod";
import {
  exampleFromSchema,
  pointerKey,
  resolvePointer,
  SchemaMappingError,
} from "./json_schema_zod.ts";
import {
  type BodyEncoding,
  cleanDescription,
  GenerationError,
  type HttpParameter,
  MAX_OPERATIONS,
  type OperationPlan,
  type OperationPlans,
  type SecurityScheme,
  type SkippedOperation,
  toolName,
} from "./operation.ts";
import { lazyOutput, lenientOutputSchema } from "./output_schema.ts";
import { type InputField, inputObjectSchema } from "./input_schema.ts";
import { lazyInput } from "./lazy_input.ts";
import { fileInputSchema, specificMediaTypes } from "./file_input.ts";

const METHODS = ["get", "put", "post", "delete", "patch", "head"] as const;

type Node = Record<string, unknown>;

/** Options for {@link openapiPlans}. */
export interface OpenapiPlanOptions {
  /** The source's name: every tool's prefix. */
  source: string;
  /** Operation ids exposed beyond those marked `x-agent: {action: true}`. */
  expose?: readonly string[];
}

/** A parsed, valid OpenAPI document. */
export interface ParsedOpenapi {
  /** The document as an object. */
  document: Node;
  /** `3.0.x` or `3.1.x`. */
  version: string;
  /**
   * The document's JSON exactly as it was given, when it came as JSON and was
   * read unchanged: stored and hashed as it is instead of written out again.
   */
  json?: string;
}

/**
 * Reads a stored document (JSON, as registration stores it, or the object
 * registration read it as) without validating it again: mapping still
 * refuses what it cannot read.
 *
 * @throws {GenerationError} when it is not JSON or not OpenAPI 3.0/3.1.
 */
export function parseStoredOpenapi(text: string | Record<string, unknown>): ParsedOpenapi {
  let document: unknown = text;
  // Registration hands over the document it read, not to be parsed a second time.
  if (typeof text === "string") {
    try {
      document = JSON.parse(text);
    } catch {
      throw new GenerationError([{ path: "#", message: "Not JSON" }]);
    }
  }
  const version = (document as Node | null)?.openapi;
  if (typeof version !== "string" || !/^3\.[01]\./.test(version)) {
    throw new GenerationError([{
      path: "#/openapi",
      message: "Only OpenAPI 3.0 and 3.1 documents are read",
    }]);
  }
  return { document: document as Node, version };
}

/**
 * The operations a tenant exposes, as plans.
 *
 * @throws {GenerationError} for an unknown or duplicate operation id, a name that sanitises to
 *   nothing or to another's, or a schema that cannot be mapped (each named by operation and pointer).
 */
export function openapiPlans(
  parsed: ParsedOpenapi,
  options: OpenapiPlanOptions,
): OperationPlans {
  const { document } = parsed;
  const expose = new Set(options.expose ?? []);
  const issues: { path: string; message: string }[] = [];
  const skipped: SkippedOperation[] = [];
  const plans: OperationPlan[] = [];
  const seenIds = new Map<string, string>();
  const seenNames = new Map<string, string>();
  const paths = (document.paths ?? {}) as Record<string, Node>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item?.[method] as Node | undefined;
      if (!operation || typeof operation !== "object") continue;
      const pointer = `#/paths/${pointerKey(path)}/${method}`;
      // Without an operationId, a stable one from the method and path ("get /pets/{petId}"), which
      // is also what a tenant lists in expose.
      const id = typeof operation.operationId === "string" && operation.operationId.trim()
        ? operation.operationId
        : `${method} ${path}`;
      if (seenIds.has(id)) {
        issues.push({
          path: pointer,
          message: `Duplicate operationId "${id}" (also at ${seenIds.get(id)})`,
        });
        continue;
      }
      seenIds.set(id, pointer);
      const marked = (operation["x-agent"] as Node | undefined)?.action === true;
      if (!(marked || expose.has(id))) continue;
      // An id of no usable letters (all non-Latin, say) is named from its method and path.
      const name = toolName(options.source, id) ?? toolName(options.source, `${method} ${path}`);
      if (!name) {
        issues.push({ path: pointer, message: `operationId "${id}" leaves no usable tool name` });
        continue;
      }
      if (seenNames.has(name)) {
        issues.push({
          path: pointer,
          message: `operationId "${id}" and "${seenNames.get(name)}" both become tool ${name}`,
        });
        continue;
      }
      seenNames.set(name, id);
      try {
        plans.push(planOperation(document, { path, method, operation, pointer, item, id, name }));
      } catch (error) {
        if (!(error instanceof SchemaMappingError)) throw error;
        issues.push({ path: error.pointer, message: `Operation ${id}: ${error.message}` });
        skipped.push({ operation: id, path: error.pointer, reason: error.message });
      }
    }
  }
  for (const id of expose) {
    if (!seenIds.has(id)) {
      issues.push({ path: "expose", message: `No operation has operationId "${id}"` });
    }
  }
  if (seenIds.size === 0) issues.push(nothingToCall(document));
  if (plans.length > MAX_OPERATIONS) {
    issues.push({ path: "#/paths", message: `More than ${MAX_OPERATIONS} operations exposed` });
  }
  // Operations that cannot be mapped are left out when others map (the answer names them); any
  // other problem, or nothing left to call, refuses the document.
  if (issues.length > skipped.length || (skipped.length && plans.length === 0)) {
    throw new GenerationError(issues);
  }
  return Object.assign(plans, { skipped });
}

/** How a query list is joined when not exploded (OpenAPI's `style` and `explode`). */
function queryJoin(node: Node): string | undefined {
  const style = typeof node.style === "string" ? node.style : "form";
  // Exploded by default for form only, as the specification says.
  const explode = typeof node.explode === "boolean" ? node.explode : style === "form";
  if (explode) return undefined;
  return ({ form: ",", spaceDelimited: " ", pipeDelimited: "|" } as Record<string, string>)[style];
}

/**
 * Why a document without a single operation makes no tool: one that only
 * describes webhooks (requests the API sends, OpenAPI 3.1 `webhooks`) has
 * nothing a tool could call, and one with no paths at all describes nothing.
 */
function nothingToCall(document: Node): { path: string; message: string } {
  const webhooks = Object.keys((document.webhooks ?? {}) as Node);
  if (webhooks.length) {
    const names = webhooks.slice(0, 5).join(", ") + (webhooks.length > 5 ? ", …" : "");
    return {
      path: "#/webhooks",
      message:
        `The document describes only webhooks (${names}): requests the API sends to you, not operations to call, so no tool can be made from it`,
    };
  }
  return {
    path: "#/paths",
    message: "The document has no operations (no method under paths): there is nothing to call",
  };
}

interface OperationAt {
  path: string;
  method: string;
  operation: Node;
  item: Node;
  pointer: string;
  id: string;
  name: string;
}

function deref(document: Node, node: unknown): Node {
  let current = node as Node;
  for (let hops = 0; typeof current?.$ref === "string" && hops < 16; hops++) {
    current = resolvePointer(document, current.$ref as string) as Node;
  }
  return current ?? {};
}

/** Whether a schema is a file's: binary, or with a media type of its own. */
function isFileSchema(node: Node): boolean {
  return node.format === "binary" || typeof node.contentMediaType === "string";
}

/**
 * A multipart form's schema with each file field (a file, or a list of files) made a file
 * argument ({@link fileInputSchema}), and those fields with the media type each is sent as when
 * the argument names none.
 */
function multipartWithFiles(
  document: Node,
  media: Node,
): { schema: unknown; files: Record<string, string> } {
  const top = deref(document, media.schema ?? { type: "object" });
  const properties = (top.properties ?? {}) as Record<string, unknown>;
  const encoding = (media.encoding ?? {}) as Record<string, Node>;
  const files: Record<string, string> = {};
  const rewritten: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(properties)) {
    const property = deref(document, raw);
    const items = property.type === "array" ? deref(document, property.items) : null;
    const file = isFileSchema(property) ? property : items && isFileSchema(items) ? items : null;
    if (!file) {
      rewritten[name] = raw;
      continue;
    }
    const declared = [encoding[name]?.contentType, file.contentMediaType]
      .filter((type): type is string => typeof type === "string");
    const mediaTypes = specificMediaTypes(declared);
    files[name] = mediaTypes[0] ?? "application/octet-stream";
    const argument = fileInputSchema({
      mediaTypes,
      description: String(file.description ?? property.description ?? ""),
    });
    rewritten[name] = file === property ? argument : {
      type: "array",
      items: argument,
      ...(typeof property.minItems === "number" ? { minItems: property.minItems } : {}),
      ...(typeof property.maxItems === "number" ? { maxItems: property.maxItems } : {}),
    };
  }
  if (Object.keys(files).length === 0) return { schema: media.schema ?? { type: "object" }, files };
  return { schema: { ...top, properties: rewritten }, files };
}

/**
 * The pointer of a form-encoded body's first file field (a file, or a list of files, with no
 * `contentEncoding` that makes it text), or null when it has none.
 */
function formFileField(document: Node, media: Node, schemaPointer: string): string | null {
  const raw = media.schema as Node | undefined;
  const top = deref(document, raw ?? {});
  const base = typeof raw?.$ref === "string" && raw.$ref.startsWith("#") ? raw.$ref : schemaPointer;
  const properties = (top.properties ?? {}) as Record<string, unknown>;
  for (const [name, property] of Object.entries(properties)) {
    const field = deref(document, property);
    const items = field.type === "array" ? deref(document, field.items) : null;
    const at = `${base}/properties/${pointerKey(name)}`;
    if (isFileSchema(field) && field.contentEncoding === undefined) return at;
    if (items && isFileSchema(items) && items.contentEncoding === undefined) return `${at}/items`;
  }
  return null;
}

/** An operation's input as fields, and how each travels. */
interface OperationInput {
  fields: InputField[];
  parameters: HttpParameter[];
  bodyKey: string | null;
  bodyEncoding: BodyEncoding;
  /** Multipart file fields, with the media type each is sent as by default. */
  files?: Record<string, string>;
  /** A text or bytes body's media type (the one declared, or the first of them). */
  bodyMediaType?: string;
}

/** Most characters of a text body (plain, CSV, XML). */
const MAX_TEXT_BODY = 1_000_000;

function isTextMedia(type: string): boolean {
  return type.startsWith("text/") || type === "application/xml" || type.endsWith("+xml");
}

function operationInput(document: Node, at: Omit<OperationAt, "id" | "name">): OperationInput {
  const { operation, pointer } = at;
  const fields: InputField[] = [];
  const keys = new Set<string>();
  const parameters: HttpParameter[] = [];
  // Path-level parameters first; an operation's own of the same name and place replace them.
  const declared = new Map<string, { node: Node; pointer: string }>();
  const lists: [unknown, string][] = [
    [at.item.parameters, `#/paths/${pointerKey(at.path)}/parameters`],
    [operation.parameters, `${pointer}/parameters`],
  ];
  for (const [list, base] of lists) {
    if (!Array.isArray(list)) continue;
    list.forEach((raw, index) => {
      const node = deref(document, raw);
      declared.set(`${node.in}:${node.name}`, { node, pointer: `${base}/${index}` });
    });
  }
  // A cookie the API requires is the tool's argument (sent in the Cookie header); an optional
  // one is left out, as cookies mostly carry a client's session state, which a model must not
  // make up; one that a security scheme of the operation sends is its credential.
  const credentialCookies = cookieCredentialNames(document, operation);
  for (const { node, pointer: at2 } of declared.values()) {
    const place = node.in as string;
    if (
      place === "cookie" && (node.required !== true || credentialCookies.has(String(node.name)))
    ) continue;
    if (place !== "path" && place !== "query" && place !== "header" && place !== "cookie") {
      throw new SchemaMappingError(at2, `Cannot map parameter location "${String(place)}"`);
    }
    const wire = String(node.name);
    if (place === "cookie" && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(wire)) {
      // RFC 6265: a cookie's name is a token; anything else cannot be sent in a Cookie header.
      throw new SchemaMappingError(
        `${at2}/name`,
        `Cannot send a cookie named ${JSON.stringify(wire)}`,
      );
    }
    let key = wire.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 64) || "param";
    while (keys.has(key)) key = `${place}_${key}`.slice(0, 64);
    keys.add(key);
    fields.push({
      key,
      schema: node.schema ?? contentSchema(node.content),
      pointer: `${at2}/schema`,
      description: cleanDescription(node.description, "", 300),
      required: node.required === true || place === "path",
    });
    const join = place === "query" ? queryJoin(node) : undefined;
    parameters.push({ key, name: wire, in: place, ...(join === undefined ? {} : { join }) });
  }
  let bodyKey: string | null = null;
  const body = operation.requestBody ? deref(document, operation.requestBody) : null;
  let bodyEncoding: BodyEncoding = "json";
  let files: Record<string, string> | undefined;
  let bodyMediaType: string | undefined;
  let description = "";
  if (body) {
    let schema = contentSchema(body.content);
    let mediaPointer = `${pointer}/requestBody/content/application~1json/schema`;
    const content = (body.content ?? {}) as Record<string, Node>;
    const types = Object.keys(content);
    const form = content["application/x-www-form-urlencoded"];
    const multipart = content["multipart/form-data"];
    // A file's bytes are not text: a form-encoded body cannot carry one honestly (OpenAPI
    // sends files as multipart). Such an operation is sent multipart when it also takes that,
    // and is refused by the field's pointer when it does not.
    const formFile = schema === undefined && form
      ? formFileField(
        document,
        form,
        `${pointer}/requestBody/content/application~1x-www-form-urlencoded/schema`,
      )
      : null;
    if (formFile && !multipart) {
      throw new SchemaMappingError(
        formFile,
        "A file field cannot be sent in an application/x-www-form-urlencoded body (its bytes are not text): declare the body multipart/form-data, or the field a string with contentEncoding: base64",
      );
    }
    if (schema === undefined && form && !formFile) {
      // A form of named fields maps as an object; it is sent form-encoded.
      schema = form.schema ?? { type: "object" };
      bodyEncoding = "form";
      mediaPointer = `${pointer}/requestBody/content/application~1x-www-form-urlencoded/schema`;
    } else if (schema === undefined && multipart) {
      // A multipart form maps the same way; its files are arguments of their own (base64 or url).
      mediaPointer = `${pointer}/requestBody/content/multipart~1form-data/schema`;
      const mapped = multipartWithFiles(document, multipart);
      schema = mapped.schema;
      if (Object.keys(mapped.files).length) files = mapped.files;
      bodyEncoding = "multipart";
    } else if (schema === undefined && types.length) {
      const text = types.find((type) => isTextMedia(type.split(";")[0].trim().toLowerCase()));
      if (text !== undefined) {
        // Text (plain, CSV, XML): the body is the string, sent as it is.
        mediaPointer = `${pointer}/requestBody/content/${pointerKey(text)}/schema`;
        bodyMediaType = text.split(";")[0].trim().toLowerCase();
        schema = { type: "string", maxLength: MAX_TEXT_BODY };
        description = `The request body, sent as ${bodyMediaType}.`;
        bodyEncoding = "text";
      } else {
        // Anything else (octet-stream, images, PDF, CBOR) is a file's bytes, sent as the body.
        mediaPointer = `${pointer}/requestBody/content`;
        const mediaTypes = specificMediaTypes(types);
        bodyMediaType = mediaTypes[0] ?? "application/octet-stream";
        schema = fileInputSchema({ mediaTypes });
        bodyEncoding = "bytes";
      }
    }
    if (schema === undefined) {
      throw new SchemaMappingError(
        `${pointer}/requestBody/content`,
        "Cannot map a request body that declares no media type",
      );
    }
    bodyKey = keys.has("body") ? "request_body" : "body";
    fields.push({
      key: bodyKey,
      schema,
      pointer: mediaPointer,
      description,
      required: body.required === true,
    });
  }
  return { fields, parameters, bodyKey, bodyEncoding, files, bodyMediaType };
}

/**
 * The fields an operation's input is made of (its parameters and body, with
 * the document's schemas), found by the plan's `origin`: for comparing the
 * direct JSON Schema route with zod's in tests and benches.
 *
 * @returns The fields, or `undefined` when no operation has that id.
 */
export function openapiInputFields(document: Node, origin: string): InputField[] | undefined {
  const paths = (document.paths ?? {}) as Record<string, Node>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item?.[method] as Node | undefined;
      if (!operation || typeof operation !== "object") continue;
      const id = typeof operation.operationId === "string" && operation.operationId.trim()
        ? operation.operationId
        : `${method} ${path}`;
      if (id !== origin) continue;
      const pointer = `#/paths/${pointerKey(path)}/${method}`;
      return operationInput(document, { path, method, operation, item, pointer }).fields;
    }
  }
  return undefined;
}

function planOperation(document: Node, at: OperationAt): OperationPlan {
  const { operation, pointer, method } = at;
  const { fields, parameters, bodyKey, bodyEncoding, files, bodyMediaType } = operationInput(
    document,
    at,
  );
  // The input's JSON Schema straight from the document (what is stored and listed); its zod
  // checks are built from it field by field when a call needs them.
  const inputSchema = inputObjectSchema(fields, document);
  const example: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.required) example[field.key] = exampleFromSchema(field.schema, document);
  }
  const upper = method.toUpperCase();
  const readOnly = upper === "GET" || upper === "HEAD";
  const fallback = `${upper} ${at.path} on the tenant's API.`;
  return {
    name: at.name,
    origin: at.id,
    title: cleanDescription(operation.summary, at.id, 80),
    description: cleanDescription(operation.description ?? operation.summary, fallback),
    input: lazyInput(inputSchema, at.name),
    example,
    output: outputSchema(document, operation, pointer, at.name),
    readOnly,
    destructive: upper === "DELETE",
    send: {
      kind: "http",
      method: upper,
      path: at.path,
      parameters,
      bodyKey,
      ...(bodyEncoding !== "json" ? { bodyEncoding } : {}),
      ...(files ? { files } : {}),
      ...(bodyMediaType ? { bodyMediaType } : {}),
      ...security(document, operation, pointer),
    },
  };
}

function contentSchema(content: unknown): unknown {
  if (!content || typeof content !== "object") return undefined;
  for (const [type, media] of Object.entries(content as Record<string, Node>)) {
    const base = type.split(";")[0].trim().toLowerCase();
    if (base === "application/json" || base.endsWith("+json")) return media?.schema ?? true;
  }
  return undefined;
}

function outputSchema(document: Node, operation: Node, pointer: string, name: string): z.ZodType {
  const responses = (operation.responses ?? {}) as Record<string, unknown>;
  const code = Object.keys(responses).sort().find((status) => /^2(\d\d|XX)$/i.test(status));
  if (!code) return z.unknown();
  const response = deref(document, responses[code]);
  const schema = contentSchema(response.content);
  if (schema === undefined) return z.unknown();
  try {
    // Plain JSON (cheap); its zod check is built only when a call's answer is checked.
    return lazyOutput(
      lenientOutputSchema(schema, `${pointer}/responses/${code}`, { root: document }),
      name,
    );
  } catch {
    // A vague or odd response schema must not cost the tenant the tool: the answer passes.
    return z.unknown();
  }
}

/** The cookie names an operation's security schemes send (`apiKey` `in: cookie`). */
function cookieCredentialNames(document: Node, operation: Node): Set<string> {
  const names = new Set<string>();
  const requirements = (operation.security ?? document.security ?? []) as Node[];
  const schemes = ((document.components as Node | undefined)?.securitySchemes ?? {}) as Record<
    string,
    Node
  >;
  for (const requirement of Array.isArray(requirements) ? requirements : []) {
    for (const name of Object.keys(requirement ?? {})) {
      const scheme = schemes[name] ? deref(document, schemes[name]) : undefined;
      if (scheme?.type === "apiKey" && scheme.in === "cookie") names.add(String(scheme.name));
    }
  }
  return names;
}

function security(document: Node, operation: Node, pointer: string) {
  const requirements = (operation.security ?? document.security ?? []) as Node[];
  const schemes = ((document.components as Node | undefined)?.securitySchemes ?? {}) as Record<
    string,
    Node
  >;
  const accepted: SecurityScheme[][] = [];
  let securityOptional = requirements.length === 0;
  for (const requirement of requirements) {
    const names = Object.keys(requirement ?? {});
    if (names.length === 0) {
      securityOptional = true;
      continue;
    }
    const set: SecurityScheme[] = [];
    for (const name of names) {
      const scheme = deref(document, schemes[name]);
      if (!scheme?.type) {
        throw new SchemaMappingError(`${pointer}/security`, `Unknown security scheme "${name}"`);
      }
      if (scheme.type === "apiKey") {
        const place = scheme.in as string;
        if (place !== "header" && place !== "query" && place !== "cookie") {
          throw new SchemaMappingError(
            `#/components/securitySchemes/${pointerKey(name)}`,
            "Cannot map apiKey location",
          );
        }
        set.push({ name, type: "apiKey", in: place, paramName: String(scheme.name) });
      } else if (scheme.type === "http" && String(scheme.scheme).toLowerCase() === "basic") {
        set.push({ name, type: "basic" });
      } else {
        // http bearer, oauth2, openIdConnect: the tenant stores a token sent as a bearer.
        set.push({ name, type: "bearer" });
      }
    }
    accepted.push(set);
  }
  return { security: accepted, securityOptional };
}
