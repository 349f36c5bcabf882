import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { ORG, USER } from "@testing/seed.ts";
import { resolveWhatsAppSender, resolveWhatsAppUser } from "./whatsapp_user.ts";

dbTest(
  "resolveWhatsAppUser() makes a new sender one customer, however many deliveries race",
  async (db) => {
    const input = { orgId: ORG.easymo, waId: "250788000123", profileName: "Keza" };
    const users = await Promise.all(
      Array.from({ length: 5 }, () => resolveWhatsAppUser(db, input)),
    );
    assert.equal(new Set(users.map((user) => user.userId)).size, 1);
    assert.equal(new Set(users.map((user) => user.conversationId)).size, 1);
    assert.deepEqual({ ...users[0], userId: "", conversationId: "" }, {
      userId: "",
      phone: "+250788000123",
      locale: "en",
      conversationId: "",
      state: {},
      handedOff: false,
    });
    const [profile] = await db.query<{ display_name: string; role: string }>(
      `select p.display_name, m.role from public.profiles p
     join public.org_members m on m.user_id = p.id and m.org_id = $2 where p.id = $1`,
      [users[0].userId, ORG.easymo],
    );
    assert.deepEqual(profile, { display_name: "Keza", role: "customer" });
  },
);

dbTest(
  "resolveWhatsAppUser() finds a known person, their language and open conversation",
  async (db) => {
    // Aline is seeded, in Kinyarwanda; a closed conversation is not hers to continue.
    const first = await resolveWhatsAppUser(db, { orgId: ORG.easymo, waId: "250788000001" });
    assert.equal(first.userId, USER.aline);
    assert.equal(first.locale, "rw");
    await db.query(
      "update public.conversations set status = 'handoff', state = '{\"step\": 2}' where id = $1",
      [first.conversationId],
    );
    const again = await resolveWhatsAppUser(db, { orgId: ORG.easymo, waId: "250788000001" });
    assert.equal(again.conversationId, first.conversationId);
    assert.deepEqual([again.state, again.handedOff], [{ step: 2 }, true]);
    await db.query("update public.conversations set status = 'closed' where id = $1", [
      first.conversationId,
    ]);
    const next = await resolveWhatsAppUser(db, { orgId: ORG.easymo, waId: "250788000001" });
    assert.notEqual(next.conversationId, first.conversationId);
    assert.deepEqual([next.state, next.handedOff], [{}, false]);
    // In another tenant she is that tenant's customer too, with a conversation of its own.
    const beaver = await resolveWhatsAppUser(db, { orgId: ORG.beaver, waId: "250788000001" });
    assert.equal(beaver.userId, USER.aline);
    assert.notEqual(beaver.conversationId, next.conversationId);
  },
);

dbTest(
  "resolveWhatsAppSender() makes a registered staff number its member, at its own org only",
  async (db) => {
    // The seed registers Jean's number with EasyMO.
    const jean = await resolveWhatsAppSender(db, { orgId: ORG.easymo, waId: "250788000002" });
    assert.equal(jean.userId, USER.jean);
    assert.equal(jean.staff, true);
    assert.equal(jean.handedOff, false);
    // At Beaver's number he is a customer, as anyone.
    const elsewhere = await resolveWhatsAppSender(db, { orgId: ORG.beaver, waId: "250788000002" });
    assert.equal(elsewhere.userId, USER.jean);
    assert.equal(elsewhere.staff, undefined);
    const [role] = await db.query<{ role: string }>(
      "select role from public.org_members where org_id = $1 and user_id = $2",
      [ORG.beaver, USER.jean],
    );
    assert.equal(role.role, "customer");
    // Not registered: a customer, even though Paul is Beaver's staff.
    const paul = await resolveWhatsAppSender(db, { orgId: ORG.beaver, waId: "250788000010" });
    assert.equal(paul.staff, undefined);
    // Demoted: his registration no longer makes him staff.
    await db.query(
      "update public.org_members set role = 'vendor' where org_id = $1 and user_id = $2",
      [ORG.easymo, USER.jean],
    );
    const demoted = await resolveWhatsAppSender(db, { orgId: ORG.easymo, waId: "250788000002" });
    assert.equal(demoted.userId, USER.jean);
    assert.equal(demoted.staff, undefined);
  },
);
