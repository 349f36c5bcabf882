import assert from "node:assert/strict";
import { petstoreDocument } from "@testing/tenant_api_server.ts";
import { ToolFailure } from "@shared/contract/result.ts";
import { GENERATED_TOOLS_ENGINE } from "./engine.ts";
import { openapi30Yaml, SHOP_SDL, swagger2Document } from "@testing/api_corpus.ts";
import { buildSchema, getIntrospectionQuery, graphqlSync } from "graphql";
import { zodToJsonSchema } from "@shared/export/json_schema.ts";
import { GENERATED_TOOLS_SYNC_ENGINE } from "./sync_engine.ts";
import { documentHash } from "./operation.ts";
import { generateChecked } from "./source_tools.ts";
import { bindPlan } from "./bind.ts";
import { exportTools } from "@shared/export/export_tools.ts";
import { UNTYPED_NOTE } from "@shared/export/gemini.ts";
import type { GeneratedToolsEngine } from "./sync_engine.ts";

/** The full engine, counting how often registration's reader runs. */
function countingEngine(): { engine: GeneratedToolsEngine; reads: () => number } {
  let reads = 0;
  const readers = GENERATED_TOOLS_ENGINE.readers!;
  return {
    engine: {
      plan: GENERATED_TOOLS_ENGINE.plan,
      readers: {
        openapiJson(text) {
          reads++;
          return readers.openapiJson(text);
        },
        graphqlSdl: readers.graphqlSdl,
      },
    },
    reads: () => reads,
  };
}

Deno.test("generateChecked() answers the same text, tenant, name and exposure from its cache, and nothing else", async () => {
  const { engine, reads } = countingEngine();
  const text = JSON.stringify(petstoreDocument("https://pets.example.com"));
  const key = { orgId: "org-a", name: "petstore", kind: "openapi" as const, expose: [] };
  const first = await generateChecked(key, text, engine);
  assert.equal(reads(), 1);
  assert.equal(await generateChecked(key, text, engine), first, "a retry is the same result");
  assert.equal(reads(), 1, "and reads nothing again");
  // Anything that changes the result is generated again: the tenant, the exposure, the text.
  await generateChecked({ ...key, orgId: "org-b" }, text, engine);
  await generateChecked({ ...key, expose: ["getPet"] }, text, engine);
  await generateChecked(key, text.replace("List pets", "List the pets"), engine);
  assert.equal(reads(), 4);
});

Deno.test("generateChecked() does not cache a refusal: the same broken text is refused again", async () => {
  const { engine, reads } = countingEngine();
  const key = { orgId: "org-c", name: "broken", kind: "openapi" as const, expose: [] };
  const text = JSON.stringify({ openapi: "3.1.0", info: { title: "x" }, paths: { "/a": 5 } });
  for (let attempt = 0; attempt < 2; attempt++) {
    await assert.rejects(
      generateChecked(key, text, engine),
      (error) => error instanceof ToolFailure && error.code === "VALIDATION_ERROR",
    );
  }
  assert.equal(reads(), 2);
});

Deno.test("generateChecked() stores a JSON document read unchanged as given, and a changed or YAML one as the JSON it was read as", async () => {
  const key = (name: string) => ({ orgId: "org-d", name, kind: "openapi" as const, expose: [] });
  // Pretty-printed, as a tenant's file usually is: kept byte for byte, hashed once.
  const pretty = JSON.stringify(petstoreDocument("https://pets.example.com"), null, 2);
  const kept = await generateChecked(key("kept"), pretty, GENERATED_TOOLS_ENGINE);
  assert.equal(kept.document, pretty);
  assert.equal(kept.hash, await documentHash(pretty));
  // Read differently than given: the stored JSON is what was read (and what its hash covers).
  const noVersion = petstoreDocument("https://pets.example.com") as Record<string, unknown>;
  noVersion.info = { title: "Pets" };
  const cases = [
    JSON.stringify(noVersion),
    openapi30Yaml("https://api.example.com"),
    JSON.stringify(swagger2Document("https://api.example.com")),
  ];
  for (const [index, text] of cases.entries()) {
    const made = await generateChecked(key(`changed${index}`), text, GENERATED_TOOLS_ENGINE);
    assert.notEqual(made.document, text);
    assert.equal(made.document, JSON.stringify(JSON.parse(made.document)));
    assert.equal(made.hash, await documentHash(made.document));
  }
});

Deno.test("generateChecked() stores a GraphQL introspection answer or SDL as given, hashed once, and another instance maps what is stored to the same plans", async () => {
  const answer = graphqlSync({ schema: buildSchema(SHOP_SDL), source: getIntrospectionQuery() });
  const expose = ["query.search", "mutation.placeOrder"];
  const shape = (plans: Awaited<ReturnType<typeof generateChecked>>["plans"]) =>
    plans.map((plan) => ({
      name: plan.name,
      send: plan.send,
      input: zodToJsonSchema(plan.input, { io: "input" }),
    }));
  const made = [];
  for (const [index, text] of [JSON.stringify(answer, null, 1), SHOP_SDL].entries()) {
    const key = { orgId: `org-g${index}`, name: "shop", kind: "graphql" as const, expose };
    const registered = await generateChecked(key, text, GENERATED_TOOLS_ENGINE);
    assert.equal(registered.document, text);
    assert.equal(registered.hash, await documentHash(text));
    // Another instance (plans of another stored version): the stored document, read afresh.
    const again = await GENERATED_TOOLS_SYNC_ENGINE.plan({
      ...key,
      orgId: "org-other",
      document: registered.document,
      documentHash: registered.hash,
    });
    assert.deepEqual(shape(again), shape(registered.plans));
    made.push(shape(registered.plans));
  }
  assert.deepEqual(made[0], made[1], "the answer and the SDL make the same tools");
});

Deno.test("generateChecked() refuses a GraphQL text that is not a schema with VALIDATION_ERROR at document, storing nothing", async () => {
  for (
    const text of ['{"data": {"nothing": 1}}', "type Query {", '{"errors": [{"message": "no"}]}']
  ) {
    const key = { orgId: "org-h", name: "bad", kind: "graphql" as const, expose: ["query.a"] };
    await assert.rejects(generateChecked(key, text, GENERATED_TOOLS_ENGINE), (error) => {
      assert.ok(error instanceof ToolFailure, String(error));
      assert.equal(error.code, "VALIDATION_ERROR");
      assert.equal(error.fields?.[0]?.path, "document", JSON.stringify(error.fields));
      return true;
    });
  }
});

Deno.test("generateChecked() registers fields of no type: any JSON value where the dialect takes one, and Gemini told honestly what it can send", async () => {
  const text = JSON.stringify({
    openapi: "3.1.0",
    info: { title: "Settings", version: "1" },
    paths: {
      "/settings/{key}": {
        put: {
          operationId: "putSetting",
          parameters: [{ name: "key", in: "path", required: true, schema: { type: "string" } }],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["value"],
                  properties: { value: { description: "The new value." }, note: {} },
                },
              },
            },
          },
          responses: { 200: { description: "ok" } },
        },
      },
    },
  });
  const key = {
    orgId: "org-a",
    name: "settings",
    kind: "openapi" as const,
    expose: ["putSetting"],
  };
  const generated = await generateChecked(key, text, GENERATED_TOOLS_ENGINE);
  const [plan] = generated.plans;
  // Any JSON value passes the check: an object, a list, a number, null.
  for (const value of [{ on: true }, [1, 2], 3, null, "x"]) {
    assert.equal(plan.input.safeParse({ key: "k", body: { value } }).success, true);
  }
  assert.equal(plan.input.safeParse({ key: "k", body: {} }).success, false, "still required");
  const tool = bindPlan(plan, {
    orgId: "org-a",
    source: "settings",
    baseUrl: "https://api.invalid",
    allowPrivateNetwork: false,
    credential: () => Promise.resolve(null),
  });
  const mcp = JSON.parse(JSON.stringify(exportTools([tool], "mcp")));
  const value = mcp.tools[0].inputSchema.properties.body.properties.value;
  assert.equal(value.type, undefined, "MCP clients are given any JSON value");
  const gemini = JSON.parse(JSON.stringify(exportTools([tool], "gemini")));
  const declared = gemini.tools[0].parameters.properties.body.properties.value;
  assert.deepEqual(declared.anyOf.map((branch: { type: string }) => branch.type), [
    "string",
    "number",
    "boolean",
  ]);
  assert.equal(declared.description, `The new value. (${UNTYPED_NOTE})`);
});
