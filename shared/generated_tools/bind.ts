/**
 * An operation plan bound to a tenant's source (base URL, private-network
 * setting, credentials) as a registry tool. Every call goes through
 * {@link safeFetch}; the tenant's credential is opened only for the request
 * and never enters a result, a trace, a log or an error.
 *
 * Descriptor from the method: GET/HEAD are read-only and run without the
 * database; other methods are side-effecting, send the call's idempotency key
 * as `Idempotency-Key`, and call out in `prepare` (no transaction held while
 * the API answers); DELETE asks for confirmation.
 *
 * @module
 */
import { z } from "zod";
import { ToolFailure } from "@shared/contract/result.ts";
import type { ErrorCode } from "@shared/contract/errors.ts";
import { defineTool, type ExecutionContext, type Tool } from "@shared/registry/define_tool.ts";
import type { GraphqlSend, HttpSend, OperationPlan, SecurityScheme } from "./operation.ts";
import { type Resolver, safeFetch, SafeFetchError } from "./safe_fetch.ts";
import { exampleFromSchema } from "./json_schema_zod.ts";
import { openFile } from "./file_input.ts";
import { setExportKey } from "@shared/export/export_cache.ts";

/** A credential as a tenant's staff set it (opened only to make a request). */
export type Credential = { value: string } | { username: string; password: string };

/** What binds plans to one tenant's source. */
export interface SourceBinding {
  /** The tenant. */
  orgId: string;
  /** The source's name (tools' prefix). */
  source: string;
  /** Calls go to `<baseUrl><path>` (OpenAPI) or to `baseUrl` (GraphQL). */
  baseUrl: string;
  /** Whether the tenant may reach private addresses. */
  allowPrivateNetwork: boolean;
  /** Opens the tenant's credential for a scheme; `null` when none is set. */
  credential(scheme: string): Promise<Credential | null>;
  /** DNS resolution (tests inject one). */
  resolve?: Resolver;
  /**
   * What the plans were made from ({@link planExportKey}): their tools' exports are then kept
   * per process under it (`shared/export/export_cache.ts`) and shared by every binding of them.
   */
  exportKey?: string;
}

/**
 * The content key of plans made from one document: the kind, the document's hash and the
 * stored shape determine every plan's name, description, schemas and descriptor, so their
 * exports are the same whichever tenant, binding or registry holds them.
 */
export function planExportKey(kind: string, documentHash: string, shape: number): string {
  return `${kind}\n${documentHash}\nplans v${shape}`;
}

/** Most bytes of an API's answer read. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

// The empty input defineTool checks the descriptor over, one for all plans: zod sets an object up
// on its first parse, and a new one per plan cost most of binding 200 of them.
const EMPTY_INPUT = z.object({});
const EMPTY_EXAMPLES = [{ input: {} }] as const;

/** Builds the tool for a plan on a binding. */
export function bindPlan(plan: OperationPlan, binding: SourceBinding): Tool {
  const needsService = plan.send.kind === "http" && plan.send.security.length > 0;
  const call = async (
    args: Record<string, unknown>,
    ctx: Pick<ExecutionContext, "signal" | "idempotency_key">,
  ) => {
    const data = plan.send.kind === "http"
      ? await sendHttp(plan.send, args, ctx, binding, plan.readOnly)
      : await sendGraphql(plan.send, args, ctx, binding);
    return answerAsDocumented(plan, binding, data);
  };
  const spec = {
    name: plan.name,
    title: plan.title,
    description: plan.description,
    category: `api.${binding.source}`,
    input: plan.input,
    output: plan.output,
    sideEffects: plan.readOnly ? "none" as const : `writes.api_${binding.source}` as const,
    auth: needsService ? "service" as const : "user" as const,
    latencyBudgetMs: 1000,
    timeoutMs: 10_000,
    idempotent: true,
    confirmRequired: plan.destructive,
    openWorld: true,
    usesDatabase: !plan.readOnly,
    ...(plan.readOnly
      ? { execute: (args: Record<string, unknown>, ctx: ExecutionContext) => call(args, ctx) }
      : {
        prepare: (args: Record<string, unknown>, ctx: ExecutionContext) => call(args, ctx),
        execute: (_args: Record<string, unknown>, ctx: ExecutionContext) =>
          Promise.resolve(ctx.prepared),
      }),
  };
  // defineTool checks the descriptor over an empty input, so the plan's own checks (built on
  // first use for a stored plan) are not built here; the example is checked below, or was when
  // the plan was stored.
  const checked = defineTool({ ...spec, input: EMPTY_INPUT, examples: EMPTY_EXAMPLES } as never);
  let examples: { input: Record<string, unknown> }[];
  if (plan.exampleChecked) {
    examples = plan.example ? [{ input: plan.example }] : [];
  } else {
    const example = plan.example ?? exampleInput(plan.input);
    // No example we can make honours the document's constraints (a pattern): none is given.
    examples = plan.input.safeParse(example).success ? [{ input: example }] : [];
  }
  const tool: Tool = { ...(checked as Tool), input: plan.input, examples };
  return binding.exportKey === undefined ? tool : setExportKey(tool, binding.exportKey);
}

/**
 * The API's answer, if it has the shape its document describes. One that does not (a list where
 * an object was promised) cannot be handed on as the tool's data (MCP clients check it against
 * the tool's `outputSchema`), and is the API's failure, not ours: said as such, never
 * `INTERNAL_ERROR`. A write may still have been done, so the message does not say otherwise.
 */
function answerAsDocumented(plan: OperationPlan, binding: SourceBinding, data: unknown): unknown {
  const checked = plan.output.safeParse(data);
  if (checked.success) return data;
  const where = [
    ...new Set(checked.error.issues.map((issue) => issue.path.join(".") || "the answer")),
  ].slice(0, 3).join(", ");
  throw new ToolFailure(
    "SERVICE_UNAVAILABLE",
    `${binding.source} answered, but not as its API document describes (${where}), so the answer cannot be shown${
      plan.readOnly ? "" : "; whether it was done is for that API to say"
    }`,
  );
}

/** A plausible input for a schema (required fields only), for the tool's example. */
export function exampleInput(input: z.ZodObject): Record<string, unknown> {
  const json = z.toJSONSchema(input, { unrepresentable: "any", io: "input" });
  return exampleFromSchema(json, json) as Record<string, unknown>;
}

async function credentialHeaders(
  send: HttpSend,
  binding: SourceBinding,
): Promise<{ headers: Record<string, string>; query: [string, string][]; names: string[] }> {
  const none = { headers: {}, query: [], names: [] };
  if (send.security.length === 0) return none;
  for (const requirement of send.security) {
    const opened = await Promise.all(requirement.map((scheme) => binding.credential(scheme.name)));
    if (opened.some((credential) => credential === null)) continue;
    const headers: Record<string, string> = {};
    const query: [string, string][] = [];
    const names: string[] = [];
    requirement.forEach((scheme: SecurityScheme, index) => {
      const credential = opened[index]!;
      if (scheme.type === "basic") {
        const pair = "username" in credential
          ? `${credential.username}:${credential.password}`
          : credential.value;
        headers.authorization = `Basic ${btoa(pair)}`;
        names.push("authorization");
        return;
      }
      const value = "value" in credential ? credential.value : credential.password;
      if (scheme.type === "bearer") {
        headers.authorization = `Bearer ${value}`;
        names.push("authorization");
      } else if (scheme.in === "query") {
        query.push([scheme.paramName!, value]);
      } else if (scheme.in === "cookie") {
        headers.cookie = `${scheme.paramName}=${value}`;
        names.push("cookie");
      } else {
        headers[scheme.paramName!.toLowerCase()] = value;
        names.push(scheme.paramName!.toLowerCase());
      }
    });
    return { headers, query, names };
  }
  if (send.securityOptional) return none;
  const wanted = send.security.map((set) => set.map((scheme) => scheme.name).join(" + "));
  throw new ToolFailure(
    "AUTH_ERROR",
    `No credential is set for this API (${
      wanted.join(" or ")
    }): staff set one with api_credential_set`,
  );
}

async function sendHttp(
  send: HttpSend,
  args: Record<string, unknown>,
  ctx: Pick<ExecutionContext, "signal" | "idempotency_key">,
  binding: SourceBinding,
  readOnly: boolean,
): Promise<unknown> {
  let path = send.path;
  const headers: Record<string, string> = { accept: "application/json" };
  const url = new URL(binding.baseUrl.replace(/\/+$/, "") + "/");
  const query = new URLSearchParams();
  const cookies: string[] = [];
  for (const parameter of send.parameters) {
    const value = args[parameter.key];
    if (value === undefined) continue;
    const text = typeof value === "string" ? value : JSON.stringify(value);
    // A list in a path or header is OpenAPI's `simple` style: its items joined by commas.
    const simple = Array.isArray(value) ? value.map(String).join(",") : text;
    if (parameter.in === "path") {
      path = path.replaceAll(`{${parameter.name}}`, encodeURIComponent(simple));
    } else if (parameter.in === "query") {
      if (Array.isArray(value) && parameter.join !== undefined) {
        query.append(parameter.name, value.map(String).join(parameter.join));
      } else if (Array.isArray(value)) {
        value.forEach((item) => query.append(parameter.name, String(item)));
      } else query.append(parameter.name, text);
    } else if (parameter.in === "cookie") {
      // OpenAPI's `form` style for cookies; each value percent-encoded, as a cookie value may
      // not hold spaces, commas, semicolons or quotes (RFC 6265).
      const items = Array.isArray(value) ? value : [value];
      cookies.push(
        `${parameter.name}=${
          items.map((item) =>
            encodeURIComponent(typeof item === "string" ? item : JSON.stringify(item))
          )
            .join(",")
        }`,
      );
    } else headers[parameter.name.toLowerCase()] = simple;
  }
  const secret = await credentialHeaders(send, binding);
  Object.assign(headers, secret.headers);
  // The tool's cookies go beside a cookie credential, in one header.
  if (cookies.length) {
    headers.cookie = [...cookies, ...(secret.headers.cookie ? [secret.headers.cookie] : [])].join(
      "; ",
    );
  }
  for (const [name, value] of secret.query) query.append(name, value);
  const target = new URL(path.replace(/^\/+/, ""), url);
  target.search = query.toString();
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (send.bodyKey && args[send.bodyKey] !== undefined) {
    const encoded = await encodeBody(send, args[send.bodyKey], send.bodyKey, ctx, binding);
    body = encoded.body;
    headers["content-type"] = encoded.type;
  }
  if (!readOnly && ctx.idempotency_key) headers["idempotency-key"] = ctx.idempotency_key;
  const response = await fetchOrFail(
    target,
    { method: send.method, headers, body },
    ctx,
    binding,
    secret.names,
  );
  if (send.method === "HEAD" || response.status === 204 || !response.text) return null;
  return parseJson(response.text);
}

/** A call's body on the wire, with its content type. */
async function encodeBody(
  send: HttpSend,
  value: unknown,
  path: string,
  ctx: Pick<ExecutionContext, "signal">,
  binding: SourceBinding,
): Promise<{ body: string | Uint8Array<ArrayBuffer>; type: string }> {
  const encoding = send.bodyEncoding ?? "json";
  const source = {
    allowPrivateNetwork: binding.allowPrivateNetwork,
    resolve: binding.resolve,
    signal: ctx.signal,
  };
  if (encoding === "text") {
    return { body: String(value), type: send.bodyMediaType ?? "text/plain" };
  }
  if (encoding === "bytes") {
    const file = await openFile(
      value as Record<string, unknown>,
      path,
      send.bodyMediaType ?? "application/octet-stream",
      source,
    );
    return { body: file.bytes, type: file.mediaType };
  }
  if (encoding === "json" || !value || typeof value !== "object") {
    return { body: JSON.stringify(value), type: "application/json" };
  }
  // Form fields: scalars as text, arrays as repeated fields, objects as JSON text; files (multipart)
  // as file parts.
  const form = encoding === "form" ? new URLSearchParams() : new FormData();
  for (const [name, field] of Object.entries(value as Record<string, unknown>)) {
    if (field === undefined) continue;
    const items = Array.isArray(field) ? field : [field];
    for (const [index, item] of items.entries()) {
      const fileType = send.files?.[name];
      if (fileType !== undefined && form instanceof FormData) {
        const at = Array.isArray(field) ? `${path}.${name}.${index}` : `${path}.${name}`;
        const file = await openFile(item as Record<string, unknown>, at, fileType, source);
        form.append(name, new Blob([file.bytes], { type: file.mediaType }), file.filename);
      } else form.append(name, typeof item === "object" ? JSON.stringify(item) : String(item));
    }
  }
  if (form instanceof URLSearchParams) {
    return { body: form.toString(), type: "application/x-www-form-urlencoded" };
  }
  // Encoded as fetch would (the boundary in the content type), as bytes: files need not be text.
  const encoded = new Response(form);
  return {
    body: new Uint8Array(await encoded.arrayBuffer()),
    type: encoded.headers.get("content-type")!,
  };
}

async function sendGraphql(
  send: GraphqlSend,
  args: Record<string, unknown>,
  ctx: Pick<ExecutionContext, "signal">,
  binding: SourceBinding,
): Promise<unknown> {
  const headers: Record<string, string> = {
    accept: "application/json",
    "content-type": "application/json",
  };
  const credential = await binding.credential("default");
  if (credential) {
    headers.authorization = "value" in credential
      ? `Bearer ${credential.value}`
      : `Basic ${btoa(`${credential.username}:${credential.password}`)}`;
  }
  const response = await fetchOrFail(
    new URL(binding.baseUrl),
    { method: "POST", headers, body: JSON.stringify({ query: send.query, variables: args }) },
    ctx,
    binding,
    ["authorization"],
  );
  const answer = parseJson(response.text) as { data?: Record<string, unknown>; errors?: unknown[] };
  if (Array.isArray(answer?.errors) && answer.errors.length) {
    // The API's words are data for the model (shortened), not a message of ours.
    const messages = answer.errors.slice(0, 3).map((error) =>
      String((error as { message?: unknown })?.message ?? "error").slice(0, 200)
    );
    if (answer.data?.[send.field] == null) {
      throw new ToolFailure("VALIDATION_ERROR", "The API refused the request", {
        details: { api_errors: messages },
      });
    }
  }
  return answer?.data?.[send.field] ?? null;
}

/**
 * An API's JSON answer. A NUL character (`\u0000`) in a string, which JSON allows, becomes U+FFFD:
 * Postgres' jsonb cannot hold one, and the answer is kept in the call's ledger and traces.
 */
function parseJson(text: string): unknown {
  try {
    return text.includes("\\u0000") ? JSON.parse(text, withoutNul) : JSON.parse(text);
  } catch {
    throw new ToolFailure("SERVICE_UNAVAILABLE", "The API answered something that is not JSON");
  }
}

function withoutNul(_key: string, value: unknown): unknown {
  if (typeof value === "string") return value.replaceAll("\0", "\uFFFD");
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (!keys.some((key) => key.includes("\0"))) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(keys.map((key) => [key.replaceAll("\0", "\uFFFD"), record[key]]));
}

const STATUS_CODES: [number, ErrorCode][] = [
  [400, "VALIDATION_ERROR"],
  [401, "AUTH_ERROR"],
  [403, "AUTH_ERROR"],
  [404, "NOT_FOUND"],
  [409, "CONFLICT"],
  [410, "EXPIRED"],
  [422, "VALIDATION_ERROR"],
  [429, "RATE_LIMIT"],
];

async function fetchOrFail(
  url: URL,
  init: RequestInit,
  ctx: Pick<ExecutionContext, "signal">,
  binding: SourceBinding,
  sensitiveHeaders: string[],
) {
  let response;
  try {
    response = await safeFetch(url, init, {
      allowPrivateNetwork: binding.allowPrivateNetwork,
      timeoutMs: 9_000,
      maxBytes: MAX_RESPONSE_BYTES,
      signal: ctx.signal,
      resolve: binding.resolve,
      sensitiveHeaders,
    });
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    // The fetch error names the host only: no header, no query string, so no credential.
    if (error.kind === "timeout") {
      throw new ToolFailure("TIMEOUT", "The API did not answer in time");
    }
    if (error.kind === "blocked_address") {
      throw new ToolFailure(
        "SERVICE_UNAVAILABLE",
        `The API's address is refused: ${error.message} (this tenant is not set up for private networks)`,
      );
    }
    throw new ToolFailure("SERVICE_UNAVAILABLE", `The API could not be used: ${error.message}`);
  }
  if (response.status >= 200 && response.status < 300) return response;
  const code = STATUS_CODES.find(([status]) => status === response.status)?.[1] ??
    "SERVICE_UNAVAILABLE";
  throw new ToolFailure(code, `The API answered HTTP ${response.status}`, {
    details: { status: response.status },
  });
}
