/**
 * `deno task tools forwarder …` against the dev server on a seeded PGlite:
 * the secret `add` prints once is the one that posts SMS, `list` never shows
 * it, `revoke` stops the device; the dev forwarders post with their
 * documented dev secrets.
 */
import assert from "node:assert/strict";
import { runToolsCli, startTestDevServer } from "@testing/dev_cli.ts";
import { signForwarded } from "@shared/packs/payments/forwarder_auth.ts";
import { DEV_FORWARDERS, devForwarderSecret } from "./_dev_forwarders.ts";

const cli = runToolsCli;

async function forwardSms(url: string, deviceId: string, secret: string, text: string) {
  const body = new TextEncoder().encode(JSON.stringify({
    sender: "M-Money",
    text,
    received_at: new Date().toISOString(),
  }));
  const response = await fetch(`${url}/functions/v1/payments/sms`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...await signForwarded({ deviceId, secret, body }),
    },
    body,
  });
  await response.body?.cancel();
  return response.status;
}

Deno.test({
  name: "tools forwarder add prints a secret once that posts SMS; list hides it; revoke stops it",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startTestDevServer({ prefix: "easymo-fwd-" });
    const { root, env } = server;
    const url = ["--url", server.url];
    try {
      const added = await cli(
        ["forwarder", "add", "--org", "beaver-paper", "--name", "Till 1", ...url],
        env,
      );
      assert.equal(added.code, 0, added.stdout + added.stderr);
      const deviceId = /^device_id: (\S+)$/m.exec(added.stdout)?.[1];
      const secret = /^secret: +(\S+)$/m.exec(added.stdout)?.[1];
      assert.ok(deviceId && secret, added.stdout);
      const sms = "You have received 700 RWF from X (2507******99). Financial Transaction Id: 81.";
      assert.equal(await forwardSms(server.url, deviceId, secret, sms), 200);

      const listed = await cli(["forwarder", "list", "--org", "beaver-paper", ...url], env);
      assert.equal(listed.code, 0, listed.stderr);
      assert.ok(listed.stdout.includes(deviceId), listed.stdout);
      assert.ok(listed.stdout.includes("dev-beaver-phone"), listed.stdout);
      assert.equal(listed.stdout.includes(secret), false);

      const revoked = await cli(["forwarder", "revoke", deviceId, ...url], env);
      assert.equal(revoked.code, 0, revoked.stderr);
      const later =
        "You have received 600 RWF from X (2507******99). Financial Transaction Id: 82.";
      assert.equal(await forwardSms(server.url, deviceId, secret, later), 401);

      // The dev forwarders sign with dev-sms-forwarder:<device id>:<dev secret>.
      const devSecret = (await Deno.readTextFile(`${root}/dev_secret`)).trim();
      for (const { deviceId: dev } of DEV_FORWARDERS) {
        const text =
          `You have received 500 RWF from X (2507******99). Financial Transaction Id: ${dev}.`;
        assert.equal(
          await forwardSms(server.url, dev, devForwarderSecret(devSecret, dev), text),
          200,
        );
      }

      const missing = await cli(["forwarder", "rotate", "fwd-nothinghere", ...url], env);
      assert.equal(missing.code, 1);
      assert.match(missing.stdout, /NOT_FOUND/);
      const usage = await cli(["forwarder", "add", "--org", "easymo", ...url], env);
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /--name LABEL/);
    } finally {
      await server.close();
    }
  },
});
