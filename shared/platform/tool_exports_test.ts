/**
 * Every tool the platform registers, in every export dialect, within that
 * dialect's own rules; and a Gemini model's call, written to the Gemini
 * declaration (a map as JSON text), going through the pipeline exactly like
 * the native call. The tool list comes from the running platform's registry,
 * so a new tool is held to every dialect without editing this file.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  checkOpenAIStrict,
  EXPORT_FORMATS,
  exportTools,
  GEMINI_KEYWORDS,
  type GeminiFunctionDeclaration,
  type JsonSchema,
  type JsonSchemaTool,
  NAME_RULES,
  type OpenAIFunctionTool,
  toGeminiFunctionDeclarations,
  ToolExportError,
} from "@shared/export/mod.ts";
import type { AnthropicTool } from "@shared/export/anthropic.ts";
import { decodeToolArguments } from "@shared/export/encoded_maps.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import { dbTest, openTestDatabase, testBackends, type TestDatabase } from "@testing/db.ts";
import { allKeys, newAjv, toGeminiArguments } from "@testing/export_fixtures.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";

/** Checks one exported definition against its dialect's rules; returns its provider name. */
const DIALECT_RULES: Record<string, (definition: unknown, tool: AnyTool) => string> = {
  jsonschema(definition) {
    const { name, inputSchema, outputSchema } = definition as JsonSchemaTool;
    for (const schema of [inputSchema, outputSchema]) {
      const ajv = newAjv();
      assert.equal(ajv.validateSchema(schema), true, `${name}: ${ajv.errorsText(ajv.errors)}`);
      ajv.compile(schema);
    }
    return name;
  },
  openai(definition) {
    const { function: fn } = definition as OpenAIFunctionTool;
    assert.match(fn.name, NAME_RULES.openai.pattern);
    assert.equal(fn.parameters.type, "object", fn.name);
    if (fn.strict) assert.deepEqual(checkOpenAIStrict(fn.parameters), [], fn.name);
    newAjv().compile(fn.parameters);
    return fn.name;
  },
  anthropic(definition, tool) {
    const { name, input_schema } = definition as AnthropicTool;
    assert.match(name, NAME_RULES.anthropic.pattern);
    assert.equal(input_schema.type, "object", name);
    const validate = newAjv().compile(input_schema);
    for (const example of tool.examples) assert.equal(validate(example.input), true, name);
    return name;
  },
  gemini(definition) {
    const { name, parameters } = definition as GeminiFunctionDeclaration;
    assert.match(name, NAME_RULES.gemini.pattern);
    const keys = allKeys(parameters).map(({ key }) => key);
    for (const forbidden of ["$ref", "$defs", "definitions", "additionalProperties", "$schema"]) {
      assert.equal(keys.includes(forbidden), false, `${name} has ${forbidden}`);
    }
    for (const keyword of schemaKeywords(parameters)) {
      assert.ok(GEMINI_KEYWORDS.has(keyword), `${name} uses ${keyword}`);
    }
    return name;
  },
  mcp(definition, tool) {
    const parsed = ToolSchema.parse(definition);
    assert.match(parsed.name, NAME_RULES.mcp.pattern);
    const validate = newAjv().compile(parsed.inputSchema);
    for (const example of tool.examples) assert.equal(validate(example.input), true, parsed.name);
    return parsed.name;
  },
};

/** Schema keywords used in a schema (keys of `properties` are names, `enum` values are data). */
function schemaKeywords(schema: unknown): string[] {
  if (Array.isArray(schema)) return schema.flatMap(schemaKeywords);
  if (typeof schema !== "object" || schema === null) return [];
  return Object.entries(schema).flatMap(([key, value]) =>
    key === "properties"
      ? [key, ...Object.values(value as JsonSchema).flatMap(schemaKeywords)]
      : key === "enum"
      ? [key]
      : [key, ...schemaKeywords(value)]
  );
}

/**
 * A test of the registry's own tools and their exports, which do not depend on the database
 * engine (the runtime needs one to start): it runs once, on PGlite, wherever PGlite is tested,
 * not a second time on Postgres (it builds every export of every tool, the file's longest work).
 */
function registryTest(name: string, fn: (db: TestDatabase) => Promise<void>): void {
  Deno.test({
    name,
    ignore: !testBackends().includes("pglite"),
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const db = await openTestDatabase("pglite");
      try {
        await fn(db);
      } finally {
        await db.dispose();
      }
    },
  });
}

registryTest(
  "every registered tool appears in every export dialect, within its rules",
  async (db) => {
    const rt = await createTestRuntime(db);
    const tools = rt.platform.registry.list();
    assert.ok(tools.length >= 30, `${tools.length} tools registered`);
    for (const format of EXPORT_FORMATS) {
      const exported = exportTools(tools, format);
      assert.equal(exported.tools.length, tools.length, format);
      const names = exported.tools.map((definition, index) =>
        exported.names.fromProvider(DIALECT_RULES[format](definition, tools[index]))
      );
      assert.deepEqual(names, tools.map((tool) => tool.name), format);
    }
  },
);

registryTest(
  "every registered tool's examples, written to its Gemini declaration, decode to the native arguments",
  async (db) => {
    const rt = await createTestRuntime(db);
    const tools = rt.platform.registry.list();
    const { functionDeclarations } = toGeminiFunctionDeclarations(tools);
    for (const [index, tool] of tools.entries()) {
      const { parameters } = functionDeclarations[index];
      for (const example of tool.examples) {
        const args = toGeminiArguments(example.input, parameters);
        if (parameters) {
          const validate = newAjv().compile(parameters);
          assert.equal(validate(args), true, `${tool.name}: ${JSON.stringify(validate.errors)}`);
        }
        const decoded = decodeToolArguments(tool, args);
        assert.deepEqual(decoded, example.input, tool.name);
      }
    }
  },
);

dbTest("a Gemini call to momo_charge, metadata as JSON text, is the native call", async (db) => {
  const rt = await createTestRuntime(db);
  const { functionDeclarations } = toGeminiFunctionDeclarations(rt.platform.registry.list());
  const declaration = functionDeclarations.find((found) => found.name === "momo_charge")!;
  const native = {
    amount: 5000,
    currency: "RWF",
    phone: "0788 000 001",
    memo: "Rent share",
    idempotency_key: "gemini-1",
    payee_phone: "0788123456",
    metadata: { quote: "Q-7F3A", share: { of: 3 } },
  };
  const gemini = toGeminiArguments(native, declaration.parameters) as Record<string, unknown>;
  assert.equal(gemini.metadata, '{"quote":"Q-7F3A","share":{"of":3}}');
  const validate = newAjv().compile(declaration.parameters!);
  assert.equal(validate(gemini), true, JSON.stringify(validate.errors));
  assert.equal(validate(native), false);

  // The confirmation is bound to the arguments' fingerprint: one asked for with the
  // native arguments passes the Gemini call only if both read the same.
  const asked = await rt.callAs(USER.aline, "momo_charge", native, { idempotencyKey: "gemini-1" });
  assert.equal(asked.error.code, "CONFIRMATION_REQUIRED");
  const paid = await rt.callAs(USER.aline, "momo_charge", gemini, {
    idempotencyKey: "gemini-1",
    confirmation: asked.error.confirmation.token,
  });
  assert.ok(paid.ok, JSON.stringify(paid));
  // The native call with the same key replays that very charge.
  const again = await rt.callAs(USER.aline, "momo_charge", native, {
    idempotencyKey: "gemini-1",
    confirmation: asked.error.confirmation.token,
  });
  assert.deepEqual(again, paid);
  const [row] = await db.query<{ quote: string; of: number }>(
    `select metadata->>'quote' as quote, (metadata#>>'{share,of}')::int as of
     from public.payments where momo_ref = $1`,
    [paid.data.momo_ref],
  );
  assert.deepEqual(row, { quote: "Q-7F3A", of: 3 });
});

dbTest(
  "a map sent as text that is not an object's JSON is a validation error naming the field",
  async (db) => {
    const rt = await createTestRuntime(db);
    const result = await rt.callAs(USER.aline, "momo_charge", {
      amount: 5000,
      currency: "RWF",
      memo: "Rent share",
      idempotency_key: "gemini-2",
      payee_phone: "0788123456",
      metadata: '{"quote": "Q-7F3A"',
    }, { idempotencyKey: "gemini-2" });
    assert.equal(result.error.code, "VALIDATION_ERROR");
    assert.deepEqual(result.error.fields.map((field: { path: string }) => field.path), [
      "metadata",
    ]);
  },
);

dbTest(
  "a tool registered at run time that a dialect cannot carry is refused, by name",
  async (db) => {
    const rt = await createTestRuntime(db);
    const dated = defineTool({
      name: "calendar.add_event",
      title: "Add event",
      description: "Adds a calendar event.",
      category: "calendar",
      input: z.object({ at: z.date() }),
      output: z.object({ id: z.string() }),
      examples: [{ input: { at: new Date("2026-01-01T00:00:00Z") } }],
      sideEffects: "none",
      execute: () => Promise.resolve({ id: "e1" }),
    });
    assert.throws(
      () => rt.platform.register(dated, { tenantId: ORG.easymo }),
      new ToolExportError("jsonschema", [
        { tool: "calendar.add_event", reason: "Date cannot be represented in JSON Schema" },
      ]),
    );
    assert.equal(rt.platform.get("calendar.add_event", { tenantId: ORG.easymo }), undefined);
  },
);
