import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { USER } from "@testing/seed.ts";
import { serveFunction } from "@testing/serve_function.ts";
import type { CorsOrigins } from "@shared/http/cors.ts";
import { createMcpApp } from "./app.ts";

const INSPECTOR = "http://localhost:6274";

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "browser", version: "1" },
  },
});

async function withMcp(
  db: Parameters<Parameters<typeof dbTest>[1]>[0],
  corsOrigins: CorsOrigins | undefined,
  fn: (url: string, token: string) => Promise<void>,
) {
  const rt = await createTestRuntime(db);
  const app = createMcpApp({
    ...rt,
    resourceUrl: "https://project.example/functions/v1/mcp",
    authorizationServer: "https://project.example/auth/v1",
    corsOrigins,
  });
  const server = serveFunction("mcp", (request) => app.fetch(request));
  try {
    await fn(server.url, await rt.tokenFor(USER.jean));
  } finally {
    await app.close();
    await server.close();
  }
}

function post(url: string, headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: INITIALIZE,
  });
}

dbTest(
  "mcp lets an allowed browser origin preflight, connect and read its session id and challenge",
  async (db) => {
    await withMcp(db, [INSPECTOR], async (url, token) => {
      const preflight = await fetch(url, {
        method: "OPTIONS",
        headers: {
          origin: INSPECTOR,
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type, mcp-protocol-version",
        },
      });
      await preflight.body?.cancel();
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get("access-control-allow-origin"), INSPECTOR);
      assert.equal(preflight.headers.get("access-control-allow-credentials"), null);
      const allowed = preflight.headers.get("access-control-allow-headers")!.split(",");
      for (const header of ["authorization", "mcp-session-id", "mcp-protocol-version"]) {
        assert.ok(allowed.includes(header), header);
      }
      assert.ok(
        preflight.headers.get("access-control-allow-methods")!.split(",").includes("DELETE"),
      );
      assert.match(preflight.headers.get("vary") ?? "", /origin/i);

      const opened = await post(url, { origin: INSPECTOR, authorization: `Bearer ${token}` });
      assert.equal(opened.status, 200, await opened.clone().text());
      await opened.body?.cancel();
      assert.equal(opened.headers.get("access-control-allow-origin"), INSPECTOR);
      assert.ok(opened.headers.get("mcp-session-id"));
      const exposed = opened.headers.get("access-control-expose-headers")!.split(",");
      assert.ok(exposed.includes("mcp-session-id"));
      assert.ok(exposed.includes("www-authenticate"));

      // Without a token: the 401 and its challenge are readable by the page, to find the metadata.
      const anonymous = await post(url, { origin: INSPECTOR });
      await anonymous.body?.cancel();
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.headers.get("access-control-allow-origin"), INSPECTOR);
      assert.match(anonymous.headers.get("www-authenticate")!, /resource_metadata=/);
      const metadata = await fetch(`${url}/.well-known/oauth-protected-resource`, {
        headers: { origin: INSPECTOR },
      });
      await metadata.body?.cancel();
      assert.equal(metadata.headers.get("access-control-allow-origin"), INSPECTOR);
    });
  },
);

dbTest(
  "mcp refuses a request from an origin it does not allow with 403 (DNS rebinding), and serves clients without one",
  async (db) => {
    await withMcp(db, [INSPECTOR], async (url, token) => {
      const foreign = await post(url, {
        origin: "https://evil.example",
        authorization: `Bearer ${token}`,
      });
      assert.equal(foreign.status, 403);
      assert.equal(foreign.headers.get("access-control-allow-origin"), null);
      assert.match((await foreign.json()).error.message, /Origin https:\/\/evil\.example/);
      const preflight = await fetch(url, {
        method: "OPTIONS",
        headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
      });
      await preflight.body?.cancel();
      assert.equal(preflight.headers.get("access-control-allow-origin"), null);
      const native = await post(url, { authorization: `Bearer ${token}` });
      await native.body?.cancel();
      assert.equal(native.status, 200);
    });
    // Nothing configured: no browser origin is allowed, but the function's own site is.
    await withMcp(db, undefined, async (url, token) => {
      const page = await post(url, { origin: INSPECTOR, authorization: `Bearer ${token}` });
      await page.body?.cancel();
      assert.equal(page.status, 403);
      const own = await post(url, {
        origin: "https://project.example",
        authorization: `Bearer ${token}`,
      });
      await own.body?.cancel();
      assert.equal(own.status, 200);
      assert.equal(own.headers.get("access-control-allow-origin"), null);
    });
    // "*": any origin, never with credentials.
    await withMcp(db, "*", async (url, token) => {
      const any = await post(url, {
        origin: "https://any.example",
        authorization: `Bearer ${token}`,
      });
      await any.body?.cancel();
      assert.equal(any.status, 200);
      assert.equal(any.headers.get("access-control-allow-origin"), "*");
      assert.equal(any.headers.get("access-control-allow-credentials"), null);
    });
  },
);
