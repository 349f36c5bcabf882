/**
 * What the catalog keeps of a tool and of a service: the rows of
 * `public.service_tools`, `public.services` and
 * `automations.service_capabilities`, built from the registry's tools and
 * the packs' events. Pure: no database here (see `catalog_sync.ts`).
 *
 * @module
 */
import { z } from "zod";
import type { JsonSchema } from "@shared/export/json_schema.ts";
import { toJsonSchema } from "@shared/export/json_schema.ts";
import { canonicalJson, sha256Hex } from "@shared/runtime/canonical.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import type { ToolAuth } from "@shared/registry/define_tool.ts";

/** A service of the catalog: a pack's domain, the platform's own tools, or a tenant's API. */
export interface CatalogService {
  /** snake_case, unique per tenant (shared services: unique among shared ones). */
  name: string;
  /** Human title. */
  title: string;
  /** What it is for, one line. */
  summary: string;
  /** Words search finds its tools by (its agents' example requests in en/rw/fr). @default "" */
  keywords?: string;
  /** Where its tools come from. */
  kind: "pack" | "platform" | "tenant_api";
  /** What automations may start on. @default none: polling only */
  capabilities?: CatalogCapabilities;
}

/** One event a service's automations may be triggered by. */
export interface CatalogEvent {
  /** snake_case, e.g. `message_received`. */
  name: string;
  /** One line. */
  description: string;
  /** The payload as the event delivers it. */
  payload: z.ZodObject;
}

/** What a service offers automations (seed 003's `service_capabilities`). */
export interface CatalogCapabilities {
  /** Events it emits; a service with events supports webhooks. */
  events?: readonly CatalogEvent[];
  /** Whether its tools can be polled on a schedule. @default true */
  supportsPolling?: boolean;
  /** Guidance for the agent that builds automations (delays, quirks). */
  notes?: string;
  /** How callers authenticate. @default ["user"] */
  authTypes?: readonly string[];
}

/** A row of `public.service_tools`, as the sync writes it. */
export interface ToolRow {
  name: string;
  title: string;
  summary: string;
  description: string;
  category: string;
  parameters: JsonSchema;
  returns: JsonSchema;
  side_effects: string;
  auth: ToolAuth;
  confirm_required: boolean;
  idempotent: boolean;
  internal: boolean;
  keywords: string;
  content_hash: string;
}

/** A row of `automations.service_capabilities`, as the sync writes it. */
export interface CapabilityRow {
  supports_webhooks: boolean;
  webhook_events: string[];
  webhook_payload_schemas: Record<string, {
    description: string;
    trigger_data_fields: Record<string, string>;
  }>;
  supports_polling: boolean;
  notes: string;
  auth_types: string[];
}

/** The longest one-line summary the index shows. */
export const SUMMARY_MAX = 120;

/**
 * A tool's one line for the index: the first sentence of its description
 * when it is short, else its title (titles are written as one line). The
 * index must stay under its token budget with every tool on one line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { oneLine } from "./catalog_entries.ts";
 * assert.equal(oneLine("Get price", "Latest price of a symbol. Cached 5 s."), "Latest price of a symbol.");
 * ```
 */
export function oneLine(title: string, description: string): string {
  const first = description.trim().split(/(?<=[.!?])\s/)[0]?.trim() ?? "";
  if (first && first.length <= SUMMARY_MAX) return first;
  return title.length <= SUMMARY_MAX ? title : `${title.slice(0, SUMMARY_MAX - 1)}…`;
}

// Building a row exports two JSON Schemas and hashes them: kept per tool object, so a
// process that builds many platforms (tests, benches) does it once per tool.
const ROWS = new WeakMap<AnyTool, Promise<ToolRow>>();

/**
 * The catalog row of a tool (cached per tool object).
 *
 * @param tool A registered tool.
 * @returns Its row, with a hash of everything the row says.
 */
export function toolRow(tool: AnyTool): Promise<ToolRow> {
  let row = ROWS.get(tool);
  if (!row) ROWS.set(tool, row = buildToolRow(tool));
  return row;
}

async function buildToolRow(tool: AnyTool): Promise<ToolRow> {
  const { $schema: _a, title: _b, description: _c, ...parameters } = toJsonSchema(tool);
  const { $schema: _d, title: _e, description: _f, ...returns } = toJsonSchema(tool, {
    io: "output",
  });
  const body: Omit<ToolRow, "content_hash"> = {
    name: tool.name,
    title: tool.title,
    summary: oneLine(tool.title, tool.description).slice(0, 200),
    description: tool.description.slice(0, 4000),
    category: tool.category,
    parameters,
    returns,
    side_effects: tool.sideEffects,
    auth: tool.auth,
    confirm_required: tool.confirmRequired,
    idempotent: tool.idempotent,
    internal: tool.internal,
    keywords: parameterWords(parameters).slice(0, 8000),
  };
  return { ...body, content_hash: (await sha256Hex(canonicalJson(body))).slice(0, 32) };
}

// The parameters' names and descriptions: what a search for "pickup" should find a ride by.
function parameterWords(schema: unknown): string {
  const words: string[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach(walk);
    const record = node as Record<string, unknown>;
    if (typeof record.description === "string") words.push(record.description);
    if (record.properties && typeof record.properties === "object") {
      for (const [key, value] of Object.entries(record.properties)) {
        words.push(key.replaceAll("_", " "));
        walk(value);
      }
    }
    for (const key of ["items", "anyOf", "oneOf", "allOf"]) walk(record[key]);
  };
  walk(schema);
  return [...new Set(words)].join(" ");
}

/**
 * The capabilities row of a service: its events' `trigger_data` fields come
 * from their payload schemas, as `event.<path>` with each field's
 * description (or its type when it has none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { capabilityRow } from "./catalog_entries.ts";
 * const row = capabilityRow({ events: [{ name: "message_received", description: "A message came in",
 *   payload: z.object({ text: z.string().describe("What they wrote") }) }] });
 * assert.deepEqual(row.webhook_payload_schemas.message_received.trigger_data_fields,
 *   { "event.text": "What they wrote" });
 * ```
 */
export function capabilityRow(capabilities: CatalogCapabilities = {}): CapabilityRow {
  const events = capabilities.events ?? [];
  return {
    supports_webhooks: events.length > 0,
    webhook_events: events.map((event) => event.name),
    webhook_payload_schemas: Object.fromEntries(events.map((event) => [event.name, {
      description: event.description,
      trigger_data_fields: triggerDataFields(event.payload),
    }])),
    supports_polling: capabilities.supportsPolling ?? true,
    notes: capabilities.notes ?? "",
    auth_types: [...capabilities.authTypes ?? ["user"]],
  };
}

/** `event.<path>` → description, for every leaf of a payload schema (nested objects by dots). */
export function triggerDataFields(payload: z.ZodObject): Record<string, string> {
  const schema = z.toJSONSchema(payload, { io: "output", unrepresentable: "any" }) as JsonSchema;
  const fields: Record<string, string> = {};
  const walk = (node: JsonSchema, path: string) => {
    const properties = node.properties as Record<string, JsonSchema> | undefined;
    if (node.type === "object" && properties) {
      for (const [key, child] of Object.entries(properties)) walk(child, `${path}.${key}`);
      return;
    }
    const type = Array.isArray(node.type) ? node.type.join("|") : node.type;
    fields[path] = typeof node.description === "string"
      ? node.description
      : node.enum
      ? `one of ${(node.enum as unknown[]).join(", ")}`
      : String(type ?? "value");
  };
  walk(schema, "event");
  return fields;
}

/** A hash of a service's row and capabilities, to skip writing what did not change. */
export async function serviceHash(service: CatalogService): Promise<string> {
  const { capabilities, ...rest } = service;
  return (await sha256Hex(canonicalJson({ ...rest, capabilities: capabilityRow(capabilities) })))
    .slice(0, 32);
}
