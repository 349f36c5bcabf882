// The whole path through MCP: a client connected to one instance lists the tenant's tools
// and calls search_businesses_with_tags; the tenant's staff register an OpenAPI document through
// another instance; the client hears list_changed, sees the generated tools, and calls one
// against the tenant's API (a loopback server implementing the document).
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  type Tool as Listed,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { dbTest } from "@testing/db.ts";
import { callConfirmed, createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { PET_API_KEY, petstoreDocument, startTenantApi } from "@testing/tenant_api_server.ts";
import { serveFunction } from "@testing/serve_function.ts";
import { createMcpApp } from "./app.ts";

function structured(result: unknown) {
  // deno-lint-ignore no-explicit-any
  return (result as CallToolResult).structuredContent as any;
}

dbTest(
  "an MCP client hears list_changed when its tenant registers an OpenAPI document elsewhere, then calls the generated tool",
  async (db) => {
    const api = startTenantApi();
    // The tenant may reach its API on loopback (an operator's setting; tests only).
    await db.query(
      `insert into public.api_source_settings (org_id, url_allowlist, allow_private_network)
       values ($1, '{127.0.0.1}', true)
       on conflict (org_id) do update set allow_private_network = true`,
      [ORG.easymo],
    );
    // Two instances over one database: A registers, the client is connected to B.
    const a = await createTestRuntime(db);
    const b = await createTestRuntime(db);
    const app = createMcpApp({
      ...b,
      resourceUrl: "https://project.example/functions/v1/mcp",
      authorizationServer: "https://project.example/auth/v1",
      pollIntervalMs: 20,
    });
    let streamOpened: () => void = () => {};
    const streamOpen = new Promise<void>((resolve) => streamOpened = resolve);
    const server = serveFunction("mcp", async (request) => {
      const response = await app.fetch(request);
      if (request.method === "GET" && response.status === 200) streamOpened();
      return response;
    });
    const client = new Client({ name: "easymo-test", version: "1.0.0" });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { authorization: `Bearer ${await b.tokenFor(USER.jean)}` } },
        }),
      );
      await streamOpen;
      let changed: () => void = () => {};
      const heard = new Promise<void>((resolve) => changed = resolve);
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed());

      const before = (await client.listTools()).tools.map((tool: Listed) => tool.name);
      assert.ok(before.includes("search_businesses_with_tags"));
      assert.equal(before.some((name: string) => name.startsWith("petstore_")), false);
      const search = await client.callTool({
        name: "search_businesses_with_tags",
        arguments: { query_text: "used hp laptop", lat: -1.9441, lng: 30.0619 },
      });
      assert.equal(structured(search).ok, true, JSON.stringify(search));
      assert.equal(structured(search).data[0].name, "Kigali Tech Hub");

      const registered = await callConfirmed(a, USER.jean, "api_source_register", {
        name: "petstore",
        kind: "openapi",
        document: JSON.stringify(petstoreDocument(api.url)),
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      const credential = await callConfirmed(a, USER.jean, "api_credential_set", {
        source: "petstore",
        scheme: "ApiKeyAuth",
        secret: PET_API_KEY,
      });
      assert.equal(credential.ok, true, JSON.stringify(credential));

      // B polls the tenant's version, syncs, and its registry tells the session.
      await heard;
      // B may have synced between the registration and the credential, and syncs again at most
      // once a second (runtimeToolsMaxAgeMs): read the tenant now, so the call below does not
      // depend on how the two writes and B's polls interleave on a loaded machine.
      await b.platform.syncTools(ORG.easymo, true);
      const after = (await client.listTools()).tools.map((tool: Listed) => tool.name);
      assert.ok(after.includes("petstore_list_pets"), after.join(", "));

      const pets = await client.callTool({ name: "petstore_list_pets", arguments: { limit: 5 } });
      const result = structured(pets);
      assert.equal(result.ok, true, JSON.stringify(pets));
      assert.match(JSON.stringify(result.data), /Rex/);
      // The API saw the tenant's key; the client never did.
      const listCall = api.requests.find((request) => request.path === "/pets");
      assert.equal(listCall?.headers["x-api-key"], PET_API_KEY);
      assert.doesNotMatch(JSON.stringify(pets), new RegExp(PET_API_KEY));
      // Beaver's members never see EasyMO's generated tools.
      const beaver = new Client({ name: "easymo-test", version: "1.0.0" });
      await beaver.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: {
            headers: {
              authorization: `Bearer ${await b.tokenFor(USER.paul)}`,
              "x-org-id": ORG.beaver,
            },
          },
        }),
      );
      try {
        const theirs = (await beaver.listTools()).tools.map((tool: Listed) => tool.name);
        assert.equal(theirs.some((name: string) => name.startsWith("petstore_")), false);
      } finally {
        await beaver.close();
      }
    } finally {
      await client.close();
      await app.close();
      await server.close();
      await api.close();
      await a.platform.traces.flush();
      await b.platform.traces.flush();
    }
  },
);
