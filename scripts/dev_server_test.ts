import assert from "node:assert/strict";
import { runToolsCli, startTestDevServer } from "@testing/dev_cli.ts";

const cli = runToolsCli;

Deno.test({
  name: "dev server serves the tools function and the CLI issues tokens and calls tools",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startTestDevServer({ prefix: "easymo-dev-" });
    const { env } = server;
    try {
      const token = await cli(["token", "--phone", "+250788000001"], env);
      assert.equal(token.code, 0, token.stderr);
      const jwt = token.stdout.trim();

      // Who to play: each user with what they answer for, then numbers with no account.
      const users = await cli(["users"], env);
      assert.equal(users.code, 0, users.stderr);
      const listing = users.stdout;
      const entry = (phone: string) =>
        listing.slice(listing.indexOf(`\n${phone} `) + 1).split(/\n(?=\+)/)[0];
      assert.match(
        entry("+250788000001"),
        /^\+250788000001 {2}\S+ {2}Aline Uwase +easymo:customer$/,
      );
      assert.match(
        entry("+250788000004"),
        /Eric Niyonzima .*easymo:vendor\n {4}shop {4}Pharmacie Conseil Kimihurura \(pharmacy, Kimihurura\) · easymo$/,
      );
      assert.match(entry("+250788000005"), /\n {4}venue {3}Café Nyamirambo \(restaurant, /);
      assert.match(
        entry("+250788100100"),
        /Emmanuel Habyarimana .*\n {4}vehicle RC 482 K \(moto, TVS Apache, red\) · easymo$/,
      );
      const unowned = listing.slice(listing.indexOf("Businesses with no user account"));
      assert.match(
        unowned,
        /\n\+250788000111 +venue {3}Kimironko Brochettes & Grill \(restaurant, /,
      );
      assert.doesNotMatch(unowned, /Pharmacie Conseil Kimihurura/);

      const listed = await fetch(`${server.url}/functions/v1/tools?format=mcp&agent=pharmacy`, {
        headers: { authorization: `Bearer ${jwt}` },
      });
      assert.equal(listed.status, 200);
      const body = await listed.json();
      assert.deepEqual(body.data.tools.map((t: { name: string }) => t.name), [
        // Seed 000's Pharmacy allowlist, every tool now implemented, and order_cancel (leaving
        // the flow with an unpaid order cancels it when the customer says so).
        "analytics_log",
        "inventory_check",
        "momo_charge",
        "notify_staff",
        "ocr_extract",
        "order_cancel",
        "order_create",
        "order_status_update",
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

      // The dev clock: service role only, forward only, and the sweep runs at the new time.
      const service = (await cli(["token", "--service"], env)).stdout.trim();
      const move = async (at: string, bearer = service) => {
        const response = await fetch(`${server.url}/dev/v1/clock`, {
          method: "POST",
          headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
          body: JSON.stringify({ at }),
        });
        return { status: response.status, body: await response.json() };
      };
      const later = new Date(Date.now() + 3 * 86_400_000).toISOString();
      assert.equal((await move(later, jwt)).status, 401);
      assert.equal((await move("tomorrow")).body.error.fields[0].path, "at");
      const moved = await move(later);
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.ok(Date.parse(moved.body.data.now) >= Date.parse(later));
      assert.equal(typeof moved.body.data.sweep, "object");
      const back = await move(new Date().toISOString());
      assert.equal(back.status, 400);
      assert.match(back.body.error.msg, /only moves forward/);
    } finally {
      await server.close();
    }
  },
});

const DEV_SERVER = new URL("./dev_server.ts", import.meta.url).pathname;

/** A free port on 127.0.0.1 (closed again, so nothing answers there yet). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

Deno.test({
  name:
    "deno task dev starts on a data folder that does not exist yet, on $PORT, and the CLI follows PORT",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const parent = await Deno.makeTempDir({ prefix: "easymo-fresh-" });
    // As in a fresh clone: neither the data folder nor its parent exists.
    const root = `${parent}/missing/.data`;
    const port = freePort();
    const env = { EASYMO_DATA_DIR: root, PORT: String(port), NO_COLOR: "1" };
    const server = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", DEV_SERVER],
      env,
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const stderr = server.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let errors = "";
    const drain = (async () => {
      for (let read = await stderr.read(); !read.done; read = await stderr.read()) {
        errors += read.value;
      }
    })();
    const stdout = server.stdout.pipeThrough(new TextDecoderStream()).getReader();
    try {
      // The banner is printed once the server listens.
      let banner = "";
      while (!banner.includes("EasyMO dev server on")) {
        const read = await stdout.read();
        assert.ok(!read.done, `the dev server exited before listening:\n${errors}`);
        banner += read.value;
      }
      assert.match(banner, new RegExp(`http://127\\.0\\.0\\.1:${port}`));
      await Deno.stat(`${root}/pglite`);

      const token = await cli(["token", "--phone", "+250788000001"], env);
      assert.equal(token.code, 0, token.stderr);
      const listed = await fetch(`http://127.0.0.1:${port}/functions/v1/tools?agent=pharmacy`, {
        headers: { authorization: `Bearer ${token.stdout.trim()}` },
      });
      assert.equal(listed.status, 200);
      assert.ok((await listed.json()).data.tools.length > 0);

      // No --url: the CLI finds the server through PORT.
      const call = await cli([
        "call",
        "search_supabase",
        "--args",
        '{"table":"businesses","columns":["name"],"filters":[{"column":"area","op":"eq","value":"Kimihurura"}]}',
        "--phone",
        "+250788000001",
      ], env);
      assert.equal(call.code, 0, call.stdout + call.stderr);
      assert.equal(JSON.parse(call.stdout).ok, true);
    } finally {
      server.kill("SIGTERM");
      await server.status;
      await stdout.cancel().catch(() => {});
      await drain.catch(() => {});
    }
    try {
      // Successful responses through the function router: Deno.serve warns once when a
      // handler watched request.signal, which it still aborts after a success.
      assert.doesNotMatch(errors, /Deno\.serve:|legacy behavior/);
    } finally {
      await Deno.remove(parent, { recursive: true });
    }
  },
});

Deno.test("tools call without a dev server prints a one-line hint, not a stack trace", async () => {
  const root = await Deno.makeTempDir({ prefix: "easymo-cli-" });
  const port = freePort();
  try {
    const env = { EASYMO_DATA_DIR: root, EASYMO_SECRET: "x".repeat(40), NO_COLOR: "1" };
    const args = ["call", "search_supabase", "--args", '{"table":"businesses"}', "--service"];
    const runs: Array<{ env: Record<string, string>; args: string[] }> = [
      { env: { PORT: String(port) }, args: [] },
      { env: {}, args: ["--url", `http://127.0.0.1:${port}`] },
    ];
    for (const run of runs) {
      const result = await cli([...args, ...run.args], { ...env, ...run.env });
      assert.equal(result.code, 1, result.stderr);
      assert.equal(result.stdout, "");
      assert.equal(
        result.stderr.trim(),
        `tools: Cannot reach the dev server at http://127.0.0.1:${port} — start it with ` +
          "`deno task dev` (same PORT and EASYMO_DATA_DIR as this command)",
      );
    }
    const usersBeforeStart = await cli(["users"], env);
    assert.equal(usersBeforeStart.code, 2);
    assert.match(
      usersBeforeStart.stderr,
      /^tools: no seeded users found: start the dev server once/,
    );
    // An option the CLI does not take is named, with the ones it does: never ignored.
    const misspelt = await cli(["list", "--agnet", "waiter"], env);
    assert.equal(misspelt.code, 2);
    assert.match(misspelt.stderr, /^tools: unknown option --agnet \(options: --agent, --format,/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test({
  name:
    "a fresh clone's first run prints no npm build-script warning (tesseract.js's postinstall is denied)",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    // The repository's own settings, in a folder with no node_modules yet: Deno sets
    // node_modules up from its cache (--cached-only: no network) and says what it skipped.
    const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
    const dir = await Deno.makeTempDir({ prefix: "easymo-clone-" });
    try {
      await Deno.writeTextFile(
        `${dir}/deno.json`,
        JSON.stringify({
          nodeModulesDir: config.nodeModulesDir,
          allowScripts: config.allowScripts,
          imports: { "tesseract.js": config.imports["tesseract.js"] },
        }),
      );
      await Deno.copyFile(new URL("../deno.lock", import.meta.url), `${dir}/deno.lock`);
      await Deno.writeTextFile(
        `${dir}/main.ts`,
        'import Tesseract from "tesseract.js";\nconsole.log(typeof Tesseract.createWorker);\n',
      );
      const run = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--cached-only", "main.ts"],
        cwd: dir,
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(run.stderr);
      assert.equal(run.code, 0, stderr);
      assert.equal(new TextDecoder().decode(run.stdout).trim(), "function");
      // It did set node_modules up (the warning would come here) ...
      await Deno.stat(`${dir}/node_modules/tesseract.js/package.json`);
      // ... and skipped tesseract.js's postinstall (an Open Collective banner) silently.
      assert.doesNotMatch(stderr, /build scripts|approve-scripts/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
