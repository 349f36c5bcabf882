/**
 * The dev server's WhatsApp numbers each have their own app secret, as each
 * Meta app has deployed: a delivery to Beaver's number signed with EasyMO's
 * secret is not stored, one signed with Beaver's is, for Beaver.
 */
import assert from "node:assert/strict";
import { messageDelivery } from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG } from "@testing/seed.ts";
import { FUNCTIONS } from "./dev_server.ts";
import { LOCAL_NUMBERS, localWhatsAppSecrets } from "./_local_secrets.ts";

const EASYMO = "100000000000001";
const BEAVER = "100000000000002";

async function storedInbound(db: TestDatabase): Promise<Array<[string, string]>> {
  const rows = await db.query<{ phone_number_id: string; org_id: string }>(
    "select phone_number_id, org_id from private.wa_inbound order by wamid",
  );
  return rows.map((row) => [row.phone_number_id, row.org_id]);
}

dbTest(
  "the dev server's numbers are the seed's, each with the app secret its row names",
  async (db) => {
    const rows = await db.query<{ phone_number_id: string; slug: string; app_secret_name: string }>(
      `select n.phone_number_id, o.slug, n.app_secret_name
       from public.tenant_whatsapp_numbers n join public.orgs o on o.id = n.org_id
      order by n.phone_number_id`,
    );
    assert.deepEqual(
      Object.fromEntries(rows.map((row) => [row.phone_number_id, {
        tenant: row.slug,
        appSecretName: row.app_secret_name,
      }])),
      LOCAL_NUMBERS,
    );
    const local = localWhatsAppSecrets("a-dev-secret-of-at-least-32-characters");
    assert.notEqual(local.appSecretOf(EASYMO), local.appSecretOf(BEAVER));
    assert.equal(local.appSecret, local.appSecretOf(EASYMO));
    assert.throws(() => local.appSecretOf("100000000000999"), RangeError);
  },
);

dbTest(
  "the dev webhook accepts a delivery to a number only when that number's own app secret signed it",
  async (db) => {
    const rt = await createTestRuntime(db);
    // The agent function's wake-up lands here: it proves what was stored was handed on.
    const woken: string[] = [];
    const agent = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
      const body = await request.json() as { wamids: string[] };
      woken.push(...body.wamids);
      return Response.json({ ok: true, data: { accepted: body.wamids.length } }, { status: 202 });
    });
    try {
      const hook = FUNCTIONS["wa-webhook"](rt, {
        url: () => `http://127.0.0.1:${agent.addr.port}`,
      });
      const { appSecretOf } = localWhatsAppSecrets(rt.platform.secret);
      let n = 0;
      const deliver = async (number: string, appSecret: string) => {
        const wamid = `wamid.dev.${n++}`;
        const body = new TextEncoder().encode(JSON.stringify(messageDelivery(
          { from: "250788000001", wamid, phoneNumberId: number },
          { text: "hi" },
        )));
        const response = await hook.fetch(
          new Request("http://dev/wa-webhook", {
            method: "POST",
            headers: { "x-hub-signature-256": await signBody(appSecret, body) },
            body,
          }),
        );
        await response.body?.cancel();
        return { status: response.status, wamid };
      };

      // Beaver's number, signed with EasyMO's app secret: answered 200, nothing stored.
      assert.equal((await deliver(BEAVER, appSecretOf(EASYMO))).status, 200);
      // EasyMO's number, signed with Beaver's: the same.
      assert.equal((await deliver(EASYMO, appSecretOf(BEAVER))).status, 200);
      assert.deepEqual(await storedInbound(db), []);
      const events = rt.log.lines.map((line) => line.event);
      assert.equal(events.filter((event) => event === "wa_number_not_signed").length, 2);

      // Each signed with its own: stored for its tenant and handed to the agent function.
      const beaver = await deliver(BEAVER, appSecretOf(BEAVER));
      const easymo = await deliver(EASYMO, appSecretOf(EASYMO));
      assert.deepEqual([beaver.status, easymo.status], [200, 200]);
      assert.deepEqual(await storedInbound(db), [[BEAVER, ORG.beaver], [EASYMO, ORG.easymo]]);
      await hook.stop?.();
      assert.deepEqual(woken.sort(), [beaver.wamid, easymo.wamid].sort());
    } finally {
      await agent.shutdown();
    }
  },
);
