import assert from "node:assert/strict";
import { startDevServer } from "./dev_server.ts";
import { memoryLogger } from "@shared/runtime/log.ts";

const CLI = new URL("./tools_cli.ts", import.meta.url).pathname;

async function cli(args: string[], env: Record<string, string>) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
}

Deno.test({
  name: "dev server serves the tools function and the CLI issues tokens and calls tools",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "easymo-dev-" });
    Deno.env.set("EASYMO_DATA_DIR", root);
    const server = await startDevServer({ port: 0, dataDir: null, log: memoryLogger() });
    const env = { EASYMO_DATA_DIR: root, NO_COLOR: "1" };
    try {
      const token = await cli(["token", "--phone", "+250788000001"], env);
      assert.equal(token.code, 0, token.stderr);
      const jwt = token.stdout.trim();

      const listed = await fetch(`${server.url}/functions/v1/tools?format=mcp&agent=pharmacy`, {
        headers: { authorization: `Bearer ${jwt}` },
      });
      assert.equal(listed.status, 200);
      const body = await listed.json();
      assert.deepEqual(body.data.tools.map((t: { name: string }) => t.name), [
        "analytics_log",
        "inventory_check",
        "notify_staff",
        "order_create",
        "search_supabase",
      ]);

      const call = await cli([
        "call",
        "search_supabase",
        "--args",
        '{"table":"businesses","columns":["name"],"filters":[{"column":"area","op":"eq","value":"Kimihurura"}]}',
        "--phone",
        "+250788000001",
        "--url",
        server.url,
      ], env);
      assert.equal(call.code, 0, call.stdout + call.stderr);
      assert.deepEqual(JSON.parse(call.stdout).data.items, [{
        name: "Pharmacie Conseil Kimihurura",
      }]);

      const denied = await cli([
        "call",
        "search_supabase",
        "--args",
        '{"table":"businesses"}',
        "--phone",
        "+250788000001",
        "--agent",
        "support_handoff",
        "--url",
        server.url,
      ], env);
      assert.equal(denied.code, 1);
      assert.equal(JSON.parse(denied.stdout).error.code, "AUTH_ERROR");

      const exported = await cli(
        ["export", "--format", "openai", "--agent", "support_handoff"],
        env,
      );
      assert.equal(exported.code, 0, exported.stderr);
      const tools = JSON.parse(exported.stdout);
      assert.ok(Array.isArray(tools));
      assert.deepEqual(tools.map((t: { function: { name: string } }) => t.function.name).sort(), [
        "analytics_log",
        "notify_staff",
      ]);

      const unknown = await fetch(`${server.url}/functions/v1/nope`);
      assert.equal(unknown.status, 404);
      await unknown.body?.cancel();
    } finally {
      await server.close();
      Deno.env.delete("EASYMO_DATA_DIR");
      await Deno.remove(root, { recursive: true });
    }
  },
});
