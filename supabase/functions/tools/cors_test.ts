import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { USER } from "@testing/seed.ts";
import { serveFunction } from "@testing/serve_function.ts";
import { createToolsApp } from "./app.ts";

const PAGE = "https://console.example.com";

dbTest(
  "tools function: an allowed origin preflights and reads lists, calls and 401s; another origin gets no CORS headers",
  async (db) => {
    const rt = await createTestRuntime(db);
    const app = createToolsApp({ ...rt, corsOrigins: [PAGE] });
    const server = serveFunction("tools", (request) => app.fetch(request));
    try {
      const preflight = await fetch(server.url, {
        method: "OPTIONS",
        headers: {
          origin: PAGE,
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, x-org-id, idempotency-key",
        },
      });
      await preflight.body?.cancel();
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get("access-control-allow-origin"), PAGE);
      assert.equal(preflight.headers.get("access-control-allow-credentials"), null);
      const allowed = preflight.headers.get("access-control-allow-headers")!.split(",");
      for (const header of ["authorization", "x-org-id", "idempotency-key", "content-type"]) {
        assert.ok(allowed.includes(header), header);
      }
      const token = await rt.tokenFor(USER.jean);
      const listed = await fetch(server.url, {
        headers: { origin: PAGE, authorization: `Bearer ${token}` },
      });
      assert.equal(listed.status, 200);
      assert.equal((await listed.json()).ok, true);
      assert.equal(listed.headers.get("access-control-allow-origin"), PAGE);
      const called = await fetch(server.url, {
        method: "POST",
        headers: {
          origin: PAGE,
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({ tool: "api_source_list", args: {} }),
      });
      await called.body?.cancel();
      assert.equal(called.headers.get("access-control-allow-origin"), PAGE);
      assert.ok(
        called.headers.get("access-control-expose-headers")!.split(",").includes("x-trace-id"),
      );
      const anonymous = await fetch(server.url, { headers: { origin: PAGE } });
      await anonymous.body?.cancel();
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.headers.get("access-control-allow-origin"), PAGE);
      const foreign = await fetch(server.url, {
        headers: { origin: "https://evil.example", authorization: `Bearer ${token}` },
      });
      await foreign.body?.cancel();
      assert.equal(foreign.headers.get("access-control-allow-origin"), null);
    } finally {
      await server.close();
      await rt.platform.traces.flush();
    }
  },
);

dbTest(
  "tools function: without FUNCTIONS_CORS_ORIGINS no browser origin is given CORS headers",
  async (db) => {
    const rt = await createTestRuntime(db);
    const app = createToolsApp(rt);
    const server = serveFunction("tools", (request) => app.fetch(request));
    try {
      const listed = await fetch(server.url, {
        headers: { origin: PAGE, authorization: `Bearer ${await rt.tokenFor(USER.jean)}` },
      });
      await listed.body?.cancel();
      assert.equal(listed.status, 200);
      assert.equal(listed.headers.get("access-control-allow-origin"), null);
    } finally {
      await server.close();
      await rt.platform.traces.flush();
    }
  },
);
