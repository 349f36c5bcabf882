import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { ORG, USER } from "@testing/seed.ts";
import type { JwtClaims } from "./types.ts";

const as = (sub: string): JwtClaims => ({ sub, role: "authenticated" });

dbTest("RLS: members read their own org's WhatsApp numbers only", async (db) => {
  const numbers = (sub: string) =>
    db.asCaller(as(sub), (tx) =>
      tx.query<{ phone_number_id: string }>(
        "select phone_number_id from public.tenant_whatsapp_numbers order by 1",
      )).then((rows) => rows.map((row) => row.phone_number_id));
  assert.deepEqual(await numbers(USER.jean), ["100000000000001"]);
  assert.deepEqual(await numbers(USER.paul), ["100000000000002"]);
  assert.deepEqual(await numbers(USER.nina), ["100000000000002"]);
});

dbTest(
  "only the platform service writes WhatsApp numbers, even an org's admin cannot",
  async (db) => {
    const refused = async (sql: string, params: unknown[]) => {
      await assert.rejects(
        db.asCaller(as(USER.grace), (tx) => tx.query(sql, params)),
        (error: { code?: string }) => error.code === "42501",
      );
    };
    await refused(
      `insert into public.tenant_whatsapp_numbers
       (phone_number_id, org_id, token_secret_name, app_secret_name)
     values ('100000000000003', $1, 'T', 'A')`,
      [ORG.easymo],
    );
    // Pointing a number at another tenant would take its messages.
    await refused(
      "update public.tenant_whatsapp_numbers set org_id = $1 where phone_number_id = '100000000000001'",
      [ORG.beaver],
    );
    await refused("delete from public.tenant_whatsapp_numbers", []);
    const [row] = await db.query<{ org_id: string }>(
      "select org_id from public.tenant_whatsapp_numbers where phone_number_id = '100000000000001'",
    );
    assert.equal(row.org_id, ORG.easymo);
  },
);

dbTest(
  "a number row holds the names of its secrets, not a token; tenant columns are checked",
  async (db) => {
    const violates = async (sql: string, params: unknown[]) => {
      await assert.rejects(
        db.query(sql, params),
        (error: { code?: string }) => error.code === "23514",
      );
    };
    // An access token pasted where its secret's name belongs.
    await violates(
      `insert into public.tenant_whatsapp_numbers
       (phone_number_id, org_id, token_secret_name, app_secret_name)
     values ('100000000000003', $1, 'EAAGm0PX4ZCpsBAKZCvZC3', 'WHATSAPP_APP_SECRET')`,
      [ORG.easymo],
    );
    await violates("update public.orgs set languages = '{en,de}' where id = $1", [ORG.beaver]);
    await violates("update public.orgs set currency = 'rwf' where id = $1", [ORG.beaver]);
    await violates("update public.orgs set country = 'Rwanda' where id = $1", [ORG.beaver]);
    // The same phone_number_id cannot belong to two tenants.
    await assert.rejects(
      db.query(
        `insert into public.tenant_whatsapp_numbers
         (phone_number_id, org_id, token_secret_name, app_secret_name)
       values ('100000000000001', $1, 'T', 'A')`,
        [ORG.beaver],
      ),
      (error: { code?: string }) => error.code === "23505",
    );
  },
);
