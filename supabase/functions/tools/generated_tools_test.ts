import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { callConfirmed, createTestRuntime, type TestData } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import {
  allowTenantApiOnLoopback,
  petstoreDocument,
  startTenantApi,
} from "@testing/tenant_api_server.ts";
import { serveFunction } from "@testing/serve_function.ts";
import { startEchoApi } from "@testing/api_corpus.ts";
import { createToolsApp } from "./app.ts";

dbTest(
  "generated tools: another instance's tools function lists them in the MCP dialect with their annotations",
  async (db) => {
    const api = startTenantApi();
    const a = await createTestRuntime(db);
    const b = await createTestRuntime(db);
    const app = createToolsApp(b);
    const server = serveFunction("tools", (request) => app.fetch(request));
    try {
      await allowTenantApiOnLoopback(db, ORG.easymo);
      const registered: TestData = await callConfirmed(a, USER.jean, "api_source_register", {
        name: "petstore",
        kind: "openapi",
        document: JSON.stringify(petstoreDocument(api.url)),
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      const headers = { authorization: `Bearer ${await b.tokenFor(USER.jean)}` };
      const listed = await (await fetch(`${server.url}?format=mcp`, { headers })).json();
      assert.equal(listed.ok, true);
      const tools = new Map<string, TestData>(
        listed.data.tools.map((tool: TestData) => [tool.name, tool]),
      );
      const list = tools.get("petstore_list_pets");
      assert.ok(list, "listed by the instance that did not register it");
      assert.equal(list.annotations.readOnlyHint, true);
      assert.equal(list.inputSchema.properties.limit.maximum, 100);
      const remove = tools.get("petstore_delete_pet");
      assert.equal(remove.annotations.destructiveHint, true);
      // Beaver's staff see none of them.
      const beaver = {
        authorization: `Bearer ${await b.tokenFor(USER.paul)}`,
        "x-org-id": ORG.beaver,
      };
      const theirs = await (await fetch(`${server.url}?format=mcp`, { headers: beaver })).json();
      assert.equal(
        theirs.data.tools.some((tool: TestData) => tool.name.startsWith("petstore_")),
        false,
      );
    } finally {
      await server.close();
      await api.close();
      await a.platform.traces.flush();
      await b.platform.traces.flush();
    }
  },
);

/** One operation Gemini's subset cannot express (a map beside a string, nested) and one it can. */
function unionsDocument(apiUrl: string): Record<string, unknown> {
  const post = (operationId: string, value: unknown) => ({
    post: {
      operationId,
      "x-agent": { action: true },
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["value"],
              properties: { value },
              additionalProperties: false,
            },
          },
        },
      },
      responses: { 200: { description: "ok" } },
    },
  });
  return {
    openapi: "3.1.0",
    info: { title: "Settings", version: "1" },
    servers: [{ url: `${apiUrl}/settings` }],
    paths: {
      "/labels": post("setLabel", { type: "string" }),
      "/weights": post("setWeights", {
        oneOf: [
          { type: "string" },
          {
            oneOf: [
              { type: "object", additionalProperties: { type: "integer" } },
              { type: "integer" },
            ],
          },
        ],
      }),
    },
  };
}

dbTest(
  "generated tools: a tool Gemini cannot express is registered, said so, left out of Gemini's listing only, and called",
  async (db) => {
    const api = startEchoApi();
    const rt = await createTestRuntime(db);
    const app = createToolsApp(rt);
    const server = serveFunction("tools", (request) => app.fetch(request));
    try {
      await allowTenantApiOnLoopback(db, ORG.easymo);
      const registered: TestData = await callConfirmed(rt, USER.jean, "api_source_register", {
        name: "settings",
        kind: "openapi",
        document: JSON.stringify(unionsDocument(api.url)),
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      assert.deepEqual(
        registered.data.tools.map((tool: TestData) => tool.name).sort(),
        ["settings_set_label", "settings_set_weights"],
      );
      assert.deepEqual(
        registered.data.not_offered.map((left: TestData) => [left.tool, left.format]),
        [["settings_set_weights", "gemini"]],
      );
      assert.match(registered.data.not_offered[0].reason, /map beside a string/);
      // Staff who did not keep that answer see it in the list, from another instance too; the
      // list shows only the org's own (RLS as the source's rows).
      const other = await createTestRuntime(db);
      const sources: TestData = await other.callAs(USER.jean, "api_source_list", {});
      assert.equal(sources.ok, true, JSON.stringify(sources));
      const [settings] = sources.data.sources;
      assert.equal(settings.name, "settings");
      assert.deepEqual(settings.not_offered, registered.data.not_offered);
      assert.deepEqual(settings.skipped, []);
      const beaver: TestData = await other.callAs(USER.paul, "api_source_list", {}, {
        org: ORG.beaver,
      });
      assert.deepEqual(beaver.data.sources, []);
      const seen = await db.asCaller(
        { sub: USER.paul, role: "authenticated" },
        (tx) =>
          tx.query("select not_offered from public.api_sources where not_offered is not null"),
        {},
      );
      assert.deepEqual(seen, [], "another tenant's staff read none of it");
      await other.platform.traces.flush();
      const headers = { authorization: `Bearer ${await rt.tokenFor(USER.jean)}` };
      const names = async (format: string) => {
        const listed = await (await fetch(`${server.url}?format=${format}`, { headers })).json();
        assert.equal(listed.ok, true, JSON.stringify(listed));
        const ours = listed.data.tools.filter((tool: TestData) =>
          (tool.name ?? tool.function?.name).startsWith("settings_")
        );
        // Every dialect that can say so says unknown fields are refused, on each object.
        if (format !== "gemini") {
          for (const tool of ours) {
            const schema = tool.inputSchema ?? tool.input_schema ?? tool.function?.parameters;
            assert.equal(schema.additionalProperties, false, `${format}: the root`);
            assert.equal(schema.properties.body.additionalProperties, false, `${format}: body`);
          }
        }
        return ours.map((tool: TestData) => tool.name ?? tool.function?.name).sort();
      };
      assert.deepEqual(await names("gemini"), ["settings_set_label"]);
      for (const format of ["mcp", "anthropic", "openai", "jsonschema"]) {
        assert.deepEqual(
          await names(format),
          ["settings_set_label", "settings_set_weights"],
          format,
        );
      }
      const called: TestData = await callConfirmed(rt, USER.jean, "settings_set_weights", {
        body: { value: { a: 1, b: 2 } },
      });
      assert.equal(called.ok, true, JSON.stringify(called));
      assert.equal(api.requests.at(-1)!.body, JSON.stringify({ value: { a: 1, b: 2 } }));
    } finally {
      await server.close();
      await api.close();
      await rt.platform.traces.flush();
    }
  },
);
