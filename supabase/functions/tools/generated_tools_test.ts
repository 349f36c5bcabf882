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
