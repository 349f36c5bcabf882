import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime, type TestData } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { inquiryStatus, rankReplies, type ReplyRow } from "./vendor_inquiries.ts";
import { answersInquiry } from "./vendor_counterpart.ts";
import { vendorAnswerLanguage } from "./vendor_reply.ts";
import { buyerConfirmedText } from "./texts.ts";
import { itemNameFor } from "./item_names.ts";

const KIMIHURURA_PHARMACY = "c0000000-0000-4000-8000-000000000001"; // owner 250788000004
const KACYIRU_PHARMACY = "c0000000-0000-4000-8000-000000000006"; // owner 250788000009
const CAFE = "c0000000-0000-4000-8000-000000000002"; // owner 250788000005

function inquiryArgs(businessIds: string[], extra: Record<string, unknown> = {}) {
  return {
    user_phone: "+250788000001",
    business_ids: businessIds,
    request_type: "medicine",
    request_summary: "Paracetamol 500mg",
    structured_payload: { item: "Paracetamol 500mg", quantity: 2 },
    user_lat: -1.9536,
    user_lng: 30.0925,
    language: "en",
    consent: true,
    ...extra,
  };
}

/** A runtime with a clock the test moves. */
async function clocked(db: TestDatabase) {
  let now = new Date("2026-11-22T10:00:00Z");
  const rt = await createTestRuntime(db, { now: () => now });
  return { rt, advance: (sec: number) => now = new Date(now.getTime() + sec * 1000) };
}

function vendorReply(
  rt: Awaited<ReturnType<typeof createTestRuntime>>,
  phone: string,
  body: string,
  wamid: string,
): Promise<TestData> {
  return rt.platform.call({
    tool: "process_vendor_reply",
    args: { vendor_phone: phone, message_body: body, whatsapp_message_id: wamid },
    caller: { claims: { role: "service_role" }, org_id: ORG.easymo },
    idempotencyKey: `wa:${wamid}`,
  });
}

dbTest("create_vendor_inquiries refuses without consent and beyond five vendors", async (db) => {
  const { rt } = await clocked(db);
  const noConsent = await rt.callAs(
    USER.aline,
    "create_vendor_inquiries_and_message_vendors",
    inquiryArgs([KIMIHURURA_PHARMACY], { consent: false }),
    { idempotencyKey: "i1" },
  );
  assert.equal(noConsent.ok, false);
  assert.equal(noConsent.error.code, "VALIDATION_ERROR");
  assert.deepEqual(noConsent.error.fields.map((f: { path: string }) => f.path), ["consent"]);
  const six = Array.from({ length: 6 }, (_, i) => `c0000000-0000-4000-8000-00000000000${i + 1}`);
  const tooMany = await rt.callAs(
    USER.aline,
    "create_vendor_inquiries_and_message_vendors",
    inquiryArgs(six),
    { idempotencyKey: "i2" },
  );
  assert.equal(tooMany.error.code, "VALIDATION_ERROR");
  assert.match(tooMany.error.fields[0].message, /at most 5/);
  const otherOrg = await rt.callAs(
    USER.aline,
    "create_vendor_inquiries_and_message_vendors",
    inquiryArgs(["d0000000-0000-4000-8000-000000000001"]),
    { idempotencyKey: "i3" },
  );
  assert.equal(otherOrg.error.code, "NOT_FOUND");
  const someoneElse = await rt.callAs(
    USER.aline,
    "create_vendor_inquiries_and_message_vendors",
    inquiryArgs([CAFE], { user_phone: "0788000002" }),
    { idempotencyKey: "i4" },
  );
  assert.equal(someoneElse.error.code, "AUTH_ERROR");
  const [{ n }] = await db.query<{ n: number }>("select count(*)::int as n from public.wa_outbox");
  assert.equal(n, 0);
});

dbTest(
  "create_vendor_inquiries messages each vendor once, with a template fallback",
  async (db) => {
    const { rt } = await clocked(db);
    const args = inquiryArgs([KIMIHURURA_PHARMACY, KACYIRU_PHARMACY]);
    const result = await rt.callAs(
      USER.aline,
      "create_vendor_inquiries_and_message_vendors",
      args,
      {
        idempotencyKey: "i5",
      },
    );
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.data.messages_sent, 2);
    assert.equal(result.data.expires_at, "2026-11-22T10:02:00.000Z");
    const again = await rt.callAs(USER.aline, "create_vendor_inquiries_and_message_vendors", args, {
      idempotencyKey: "i5",
    });
    assert.deepEqual(again, result);
    const outbox = await db.query<
      { to_wa_id: string; kind: string; body: string; fallback: string }
    >(
      `select to_wa_id, kind, body::text as body, fallback_template::text as fallback
     from public.wa_outbox order by to_wa_id`,
    );
    assert.deepEqual(outbox.map((row) => [row.to_wa_id, row.kind]), [
      ["250788000004", "buttons"],
      ["250788000009", "buttons"],
    ]);
    assert.match(
      outbox[0].body,
      /Mufite: 2 × Paracetamol 500mg\? Subiza YEGO \+ igiciro cyangwa OYA/,
    );
    assert.match(outbox[0].body, /vendor_yes/);
    assert.match(outbox[0].fallback, /vendor_inquiry/);
    const [metrics] = await db.query<{ inquiry_count: number }>(
      "select inquiry_count from public.businesses where id = $1",
      [KIMIHURURA_PHARMACY],
    );
    assert.equal(metrics.inquiry_count, 1);
  },
);

dbTest("vendor replies come back ranked, and the buyer hears of each yes", async (db) => {
  const { rt, advance } = await clocked(db);
  const created = await rt.callAs(
    USER.aline,
    "create_vendor_inquiries_and_message_vendors",
    inquiryArgs([KIMIHURURA_PHARMACY, KACYIRU_PHARMACY, CAFE]),
    { idempotencyKey: "i6" },
  );
  const inquiryId = created.data.inquiry_id;
  const updates = () =>
    rt.callAs(USER.aline, "get_vendor_inquiry_updates", { inquiry_id: inquiryId });
  assert.equal((await updates()).data.status, "pending");

  advance(30);
  const yes = await vendorReply(rt, "+250788000009", "YES 1,500 2", "wamid.V1");
  assert.deepEqual(yes, {
    ok: true,
    data: { inquiry_id: inquiryId, parsed: true, status: "yes", late: false },
  });
  advance(10);
  await vendorReply(rt, "250788000004", "Yego 2,000", "wamid.V2");
  const partial = (await updates()).data;
  assert.equal(partial.status, "partial");
  assert.equal(partial.confirmed_count, 2);
  // Confirmed first, cheapest first.
  assert.deepEqual(
    partial.replies.map((r: { business_name: string; status: string; price?: number }) => [
      r.business_name,
      r.status,
      r.price,
    ]),
    [
      ["Pharmacie Kacyiru", "yes", 1500],
      ["Pharmacie Conseil Kimihurura", "yes", 2000],
      ["Café Nyamirambo", "pending", undefined],
    ],
  );
  assert.equal(partial.replies[0].quantity, 2);
  assert.equal(partial.replies[0].response_time_sec, 30);
  assert.ok(partial.replies[0].distance_km > 1.5 && partial.replies[0].distance_km < 3);

  await vendorReply(rt, "250788000005", "oya", "wamid.V3");
  const complete = (await updates()).data;
  assert.equal(complete.status, "complete");
  assert.equal(complete.replies[2].status, "no");

  const buyerMessages = await db.query<{ body: string }>(
    "select body::text as body from public.wa_outbox where to_wa_id = '250788000001' order by seq",
  );
  assert.equal(buyerMessages.length, 2);
  assert.match(buyerMessages[0].body, /Pharmacie Kacyiru .*has it: 1,500 RWF × 2/);
  // A redelivered reply changes nothing.
  await vendorReply(rt, "250788000005", "oya", "wamid.V3");
  // 3 questions, 2 notices to the buyer, 3 acknowledgements to vendors.
  const [{ n }] = await db.query<{ n: number }>("select count(*)::int as n from public.wa_outbox");
  assert.equal(n, 8);
});

dbTest(
  "a first answer after the question expired reaches a buyer who has not chosen, for a day",
  async (db) => {
    const { rt, advance } = await clocked(db);
    const created = await rt.callAs(
      USER.aline,
      "create_vendor_inquiries_and_message_vendors",
      inquiryArgs([KIMIHURURA_PHARMACY, KACYIRU_PHARMACY], { expires_in_sec: 60 }),
      { idempotencyKey: "i7" },
    );
    advance(20);
    await vendorReply(rt, "250788000004", "NO", "wamid.L1");
    advance(600);
    const late = await vendorReply(rt, "250788000009", "YES 900", "wamid.L2");
    assert.equal(late.data.late, false);
    const updates = (await rt.callAs(USER.aline, "get_vendor_inquiry_updates", {
      inquiry_id: created.data.inquiry_id,
    })).data;
    assert.equal(updates.confirmed_count, 1);
    const kacyiru = updates.replies.find((r: { business_name: string }) =>
      r.business_name === "Pharmacie Kacyiru"
    );
    assert.equal(kacyiru.status, "yes");
    assert.equal(kacyiru.price, 900);
    // The buyer hears of it and can choose it; the vendor is thanked, never told it closed.
    assert.match((await sentTo(db, "250788000001")).at(-1)!, /Pharmacie Kacyiru .*has it: 900 RWF/);
    assert.doesNotMatch(
      (await sentTo(db, "250788000009")).at(-1)!,
      /already closed|cyarangiye|déjà close/,
    );
    const chosen = await rt.callAs(USER.aline, "choose_vendor_for_inquiry", {
      inquiry_id: created.data.inquiry_id,
      business_id: kacyiru.business_id,
    }, { idempotencyKey: "i7-choose" });
    assert.equal(chosen.ok, true, JSON.stringify(chosen));
  },
);

dbTest(
  "a first answer after the buyer chose, or a day late, is recorded but changes nothing",
  async (db) => {
    const { rt, advance } = await clocked(db);
    const created = await rt.callAs(
      USER.aline,
      "create_vendor_inquiries_and_message_vendors",
      inquiryArgs([KIMIHURURA_PHARMACY, KACYIRU_PHARMACY], { expires_in_sec: 60 }),
      { idempotencyKey: "i7c" },
    );
    advance(20);
    await vendorReply(rt, "250788000004", "YES 1000", "wamid.D1");
    const [conseil] = (await rt.callAs(USER.aline, "get_vendor_inquiry_updates", {
      inquiry_id: created.data.inquiry_id,
    })).data.replies;
    const chosen = await rt.callAs(USER.aline, "choose_vendor_for_inquiry", {
      inquiry_id: created.data.inquiry_id,
      business_id: conseil.business_id,
    }, { idempotencyKey: "i7c-choose" });
    assert.equal(chosen.ok, true, JSON.stringify(chosen));
    const told = (await sentTo(db, "250788000001")).length;
    advance(600);
    const late = await vendorReply(rt, "250788000009", "YES 900", "wamid.D2");
    assert.equal(late.data.late, true);
    assert.match(
      (await sentTo(db, "250788000009")).at(-1)!,
      /already closed|cyarangiye|déjà close/,
    );
    assert.equal((await sentTo(db, "250788000001")).length, told, "the buyer hears nothing");

    // Nobody chose, but a day has gone: closed.
    const old = await rt.callAs(
      USER.aline,
      "create_vendor_inquiries_and_message_vendors",
      inquiryArgs([KACYIRU_PHARMACY], { expires_in_sec: 60 }),
      { idempotencyKey: "i7d" },
    );
    advance(25 * 3600);
    const stale = await vendorReply(rt, "250788000009", "YES 800", "wamid.D3");
    assert.equal(stale.data.late, true);
    const kacyiru = (await rt.callAs(USER.aline, "get_vendor_inquiry_updates", {
      inquiry_id: old.data.inquiry_id,
    })).data.replies[0];
    assert.equal(kacyiru.status, "pending");
    assert.equal(kacyiru.notes, "replied after the inquiry closed");
  },
);

dbTest(
  "after the question closes, a vendor may still change the answer they gave until the buyer chooses, and the buyer hears",
  async (db) => {
    const { rt, advance } = await clocked(db);
    const created = await rt.callAs(
      USER.aline,
      "create_vendor_inquiries_and_message_vendors",
      inquiryArgs([KACYIRU_PHARMACY], { expires_in_sec: 60 }),
      { idempotencyKey: "i7b" },
    );
    advance(20);
    await vendorReply(rt, "250788000009", "YES 1500", "wamid.W1");
    // An hour later the question is long closed; the vendor has sold out.
    advance(3600);
    const changed = await vendorReply(rt, "250788000009", "NO", "wamid.W2");
    assert.equal(changed.ok, true, JSON.stringify(changed));
    assert.equal(changed.data.late, false);
    const updates = (await rt.callAs(USER.aline, "get_vendor_inquiry_updates", {
      inquiry_id: created.data.inquiry_id,
    })).data;
    assert.equal(updates.replies[0].status, "no");
    assert.match(
      (await sentTo(db, "250788000001")).at(-1)!,
      /Pharmacie Kacyiru changed their answer: they no longer have it/,
    );
    assert.doesNotMatch(
      (await sentTo(db, "250788000009")).at(-1)!,
      /already closed|cyarangiye|déjà close/,
    );
    // Once the buyer withdraws, a change is told there is nothing to do.
    await db.query(
      "update public.market_vendor_inquiries set cancelled_at = now() where id = $1",
      [created.data.inquiry_id],
    );
    const withdrawn = await vendorReply(rt, "250788000009", "YES 1400", "wamid.W3");
    assert.equal(withdrawn.data.late, true);
    assert.match((await sentTo(db, "250788000009")).at(-1)!, /withdrew|yahagaritse|retiré/);
  },
);

dbTest("vendor metrics follow replies and feedback", async (db) => {
  const { rt, advance } = await clocked(db);
  for (const key of ["m1", "m2"]) {
    await rt.callAs(
      USER.aline,
      "create_vendor_inquiries_and_message_vendors",
      inquiryArgs([KACYIRU_PHARMACY]),
      { idempotencyKey: key },
    );
  }
  advance(40);
  // Answers the most recent inquiry only.
  await vendorReply(rt, "250788000009", "yes 600", "wamid.M1");
  await rt.callAs(USER.aline, "log_user_feedback_on_vendor", {
    business_id: KACYIRU_PHARMACY,
    feedback_type: "accurate",
    rating: 5,
  }, { idempotencyKey: "f1" });
  await rt.callAs(USER.aline, "log_user_feedback_on_vendor", {
    business_id: KACYIRU_PHARMACY,
    feedback_type: "inaccurate",
  }, { idempotencyKey: "f2" });
  const [metrics] = await db.query<Record<string, number>>(
    `select inquiry_count, reply_count, response_rate, response_time_avg_sec, confirmation_accuracy
     from public.businesses where id = $1`,
    [KACYIRU_PHARMACY],
  );
  assert.deepEqual(metrics, {
    inquiry_count: 2,
    reply_count: 1,
    response_rate: 0.5,
    response_time_avg_sec: 40,
    confirmation_accuracy: 0.5,
  });
});

dbTest(
  "process_vendor_reply is for service callers only, and needs an open inquiry",
  async (db) => {
    const { rt } = await clocked(db);
    const forged = await rt.callAs(USER.aline, "process_vendor_reply", {
      vendor_phone: "+250788000009",
      message_body: "YES 1",
    }, { idempotencyKey: "p1" });
    assert.equal(forged.error.code, "AUTH_ERROR");
    const none = await vendorReply(rt, "+250788000006", "YES 100", "wamid.N1");
    assert.equal(none.ok, false);
    assert.equal(!none.ok && none.error.code, "NOT_FOUND");
  },
);

Deno.test("inquiryStatus() reads pending, partial, complete and expired", () => {
  const expires = new Date("2026-01-01T00:02:00Z");
  const before = new Date("2026-01-01T00:01:00Z");
  const after = new Date("2026-01-01T00:03:00Z");
  assert.equal(inquiryStatus({ vendors: 2, replied: 0 }, expires, before), "pending");
  assert.equal(inquiryStatus({ vendors: 2, replied: 1 }, expires, before), "partial");
  assert.equal(inquiryStatus({ vendors: 2, replied: 2 }, expires, after), "complete");
  assert.equal(inquiryStatus({ vendors: 2, replied: 1 }, expires, after), "expired");
});

Deno.test("rankReplies() puts confirmed first, then price, then distance", () => {
  const row = (
    name: string,
    status: ReplyRow["reply_status"],
    price: number | null,
    km: number,
  ) => ({
    business_id: crypto.randomUUID(),
    business_name: name,
    business_phone: null,
    reply_status: status,
    price,
    quantity: null,
    reply_text: null,
    late: false,
    distance_km: km,
    response_time_sec: null,
  });
  const ranked = rankReplies([
    row("no", "no", null, 0.1),
    row("far cheap", "yes", 1000, 9),
    row("near cheap", "yes", 1000, 1),
    row("dear", "yes", 5000, 0.5),
    row("waiting", "pending", null, 0.2),
  ]);
  assert.deepEqual(ranked.map((r) => r.business_name), [
    "near cheap",
    "far cheap",
    "dear",
    "waiting",
    "no",
  ]);
});

dbTest(
  "an answer we could not read leaves the question open: the vendor's next reply is the answer",
  async (db) => {
    const { rt, advance } = await clocked(db);
    await rt.callAs(
      USER.aline,
      "create_vendor_inquiries_and_message_vendors",
      inquiryArgs([KACYIRU_PHARMACY]),
      { idempotencyKey: "i9" },
    );
    advance(20);
    const unread = await vendorReply(rt, "250788000009", "tomorrow maybe", "wamid.U1");
    assert.equal(unread.data.status, "other");
    const hint = await db.query<{ body: string }>(
      "select body::text as body from public.wa_outbox where to_wa_id = '250788000009' order by seq",
    );
    assert.match(
      hint.at(-1)!.body,
      /YES <price> <qty>|YEGO <igiciro> <umubare>|OUI <prix> <quantité>/,
    );
    advance(20);
    // Was NOT_FOUND ("No open inquiry"): the webhook then gave "YES 1500 2" to the customer menu.
    const yes = await vendorReply(rt, "250788000009", "YES 1500 2", "wamid.U2");
    assert.equal(yes.ok, true, JSON.stringify(yes));
    assert.equal(yes.data.status, "yes");
    const buyer = await db.query<{ body: string }>(
      "select body::text as body from public.wa_outbox where to_wa_id = '250788000001'",
    );
    assert.match(buyer[0].body, /Pharmacie Kacyiru .*has it: 1,500 RWF × 2/);
  },
);

/** The texts sent to one number, oldest first. */
async function sentTo(db: TestDatabase, waId: string): Promise<string[]> {
  const rows = await db.query<{ body: string }>(
    "select body::text as body from public.wa_outbox where to_wa_id = $1 order by seq",
    [waId],
  );
  return rows.map((row) => row.body);
}

dbTest(
  "vendors hear from the tenant by its brand, on the question and on the pick (a tenant is data)",
  async (db) => {
    // The same tenant under another brand: the texts follow the data, never a name in the code.
    await db.query("update public.orgs set brand_name = 'Kigali Deals' where id = $1", [
      ORG.easymo,
    ]);
    const { rt, advance } = await clocked(db);
    const created = await rt.callAs(
      USER.aline,
      "create_vendor_inquiries_and_message_vendors",
      inquiryArgs([KACYIRU_PHARMACY]),
      { idempotencyKey: "i-brand" },
    );
    assert.equal(created.ok, true, JSON.stringify(created));
    const [question] = await sentTo(db, "250788000009");
    assert.match(question, /"Kigali Deals: Mufite: 2 × Paracetamol 500mg\?/);
    assert.doesNotMatch(question, /EasyMO/);
    advance(20);
    await vendorReply(rt, "250788000009", "yego 1500 2", "wamid.B1");
    const chose = await rt.callAs(USER.aline, "choose_vendor_for_inquiry", {
      inquiry_id: created.data.inquiry_id,
      business_id: KACYIRU_PHARMACY,
    }, { idempotencyKey: "choose-brand" });
    assert.equal(chose.ok, true, JSON.stringify(chose));
    const told = (await sentTo(db, "250788000009")).at(-1)!;
    assert.match(told, /^\{.*"Kigali Deals: Aline/s);
    assert.doesNotMatch(told, /EasyMO/);
  },
);

dbTest(
  "a vendor may change their answer until the buyer chooses; then it stands and they are told",
  async (db) => {
    const { rt, advance } = await clocked(db);
    const created = await rt.callAs(
      USER.aline,
      "create_vendor_inquiries_and_message_vendors",
      inquiryArgs([KACYIRU_PHARMACY]),
      { idempotencyKey: "i10" },
    );
    const inquiryId = created.data.inquiry_id;
    const status = async () =>
      (await rt.callAs(USER.aline, "get_vendor_inquiry_updates", { inquiry_id: inquiryId }))
        .data.replies[0];
    advance(20);
    await vendorReply(rt, "250788000009", "yego 1500 2", "wamid.C1");
    // The same answer again: nothing new reaches the buyer, and the vendor is told it was noted.
    const buyerHeard = (await sentTo(db, "250788000001")).length;
    await vendorReply(rt, "250788000009", "yego 1500 2", "wamid.C1b");
    assert.equal((await sentTo(db, "250788000001")).length, buyerHeard);
    assert.match((await sentTo(db, "250788000009")).at(-1)!, /Byari byanditswe/);
    advance(20);
    // Was NOT_FOUND: the vendor's second answer went to the customer menu.
    const no = await vendorReply(rt, "250788000009", "OYA", "wamid.C2");
    assert.equal(no.ok, true, JSON.stringify(no));
    assert.equal((await status()).status, "no");
    assert.match(
      (await sentTo(db, "250788000001")).at(-1)!,
      /Pharmacie Kacyiru changed their answer: they no longer have it/,
    );
    assert.match(
      (await sentTo(db, "250788000009")).at(-1)!,
      /Twahinduye: twamenyesheje umukiriya ko mutakibifite/,
    );

    // Answered in French: the vendor is answered in French, the buyer in their own English.
    advance(20);
    await vendorReply(rt, "250788000009", "oui 1400", "wamid.C3");
    assert.deepEqual([(await status()).status, (await status()).price], ["yes", 1400]);
    assert.match(
      (await sentTo(db, "250788000001")).at(-1)!,
      /Pharmacie Kacyiru changed their answer:.*has it: 1,400 RWF/s,
    );
    assert.match((await sentTo(db, "250788000009")).at(-1)!, /C'est noté : nous avons transmis/);

    // Words that are no answer leave it as it is.
    await vendorReply(rt, "250788000009", "ok", "wamid.C4");
    assert.equal((await status()).status, "yes");

    const chose = await rt.callAs(USER.aline, "choose_vendor_for_inquiry", {
      inquiry_id: inquiryId,
      business_id: KACYIRU_PHARMACY,
    }, { idempotencyKey: "choose-10" });
    assert.equal(chose.ok, true, JSON.stringify(chose));
    // The chosen-you notice follows the language the vendor last answered in.
    assert.match((await sentTo(db, "250788000009")).at(-1)!, /vous a choisi/);
    const buyerBefore = (await sentTo(db, "250788000001")).length;
    const late = await vendorReply(rt, "250788000009", "oya", "wamid.C5");
    assert.equal(late.ok, true, JSON.stringify(late));
    assert.deepEqual([(await status()).status, (await status()).price], ["yes", 1400]);
    assert.equal((await sentTo(db, "250788000001")).length, buyerBefore);
    assert.match(
      (await sentTo(db, "250788000009")).at(-1)!,
      /Ntibigishoboka guhindura igisubizo hano: umukiriya yamaze kubahitamo.*\+250788000001/,
    );
  },
);

dbTest(
  "a vendor's second yes or no is claimed as an answer; other words and foreign taps are not",
  async (db) => {
    const rt = await createTestRuntime(db);
    await rt.callAs(
      USER.aline,
      "create_vendor_inquiries_and_message_vendors",
      inquiryArgs([KACYIRU_PHARMACY]),
      { idempotencyKey: "i11" },
    );
    const message = (fields: { text: string; choice?: string }) => ({
      wamid: crypto.randomUUID(),
      from: "250788000009",
      ...fields,
    });
    await vendorReply(rt, "250788000009", "yego 1500", "wamid.D1");
    assert.equal(await answersInquiry(db, message({ text: "OYA" })), true);
    assert.equal(await answersInquiry(db, message({ text: "Yego", choice: "vendor_yes" })), true);
    assert.equal(await answersInquiry(db, message({ text: "I need a moto" })), false);
    assert.equal(await answersInquiry(db, message({ text: "Yes", choice: "confirm_yes" })), false);
    // Shopping as a customer, the vendor is asked to confirm their own order: "yes" is for that.
    await db.query(
      `insert into public.wa_outbox (org_id, to_wa_id, kind, body, idempotency_key)
       values ($1, '250788000009', 'text', '{"type": "text", "text": {"body": "Confirm?"}}', 'conv:own')`,
      [ORG.easymo],
    );
    assert.equal(await answersInquiry(db, message({ text: "yes" })), false);
  },
);

Deno.test("vendorAnswerLanguage() reads the answer word, then the words, then the fallback", () => {
  assert.equal(vendorAnswerLanguage("oui 1500", "rw"), "fr");
  assert.equal(vendorAnswerLanguage("Yego 2000", "fr"), "rw");
  // "YES" is typed by vendors of every language: no evidence.
  assert.equal(vendorAnswerLanguage("YES 1500 2", "rw"), "rw");
  assert.equal(vendorAnswerLanguage("yes, I need to check the price first", "rw"), "en");
  assert.equal(vendorAnswerLanguage("Nonnn", "en"), "fr");
  assert.equal(vendorAnswerLanguage("1500", "fr"), "fr");
});

Deno.test("buyerConfirmedText() sets French's space before the colon", () => {
  assert.match(
    buyerConfirmedText({ businessName: "Remera Phone Market", price: 6000 }, "fr"),
    /l'a : 6\s000 RWF\./u,
  );
  assert.match(
    buyerConfirmedText({ businessName: "Remera Phone Market", price: 6000 }, "en"),
    /has it: 6,000 RWF\./,
  );
});

dbTest(
  "a vendor is asked about the item by its name in the vendor's language, the buyer's words otherwise",
  async (db) => {
    // A French-speaking vendor whose stock names the charger in French and Kinyarwanda.
    await db.asService((tx) =>
      tx.query(
        `with owner as (
           update public.profiles set locale = 'fr'
           where id = (select owner_user_id from public.businesses where id = $1)
              or phone = '+250788000009' returning id)
         insert into public.products (org_id, business_id, sku, name, names, price, qty, unit)
         values ($2, $1, 'CHG-USB', 'Phone charger (USB)',
           '{"rw": "Chaja ya telefone", "fr": "Chargeur de téléphone (USB)"}', 3000, 5, 'piece')`,
        [KACYIRU_PHARMACY, ORG.easymo],
      )
    );
    const rt = await createTestRuntime(db);
    const ask = (item: string, key: string) =>
      rt.callAs(
        USER.aline,
        "create_vendor_inquiries_and_message_vendors",
        inquiryArgs([KACYIRU_PHARMACY], {
          language: "rw",
          request_summary: item,
          structured_payload: { item },
        }),
        { idempotencyKey: key },
      );
    const asked = await ask("chaja ya telefone", "names-1");
    assert.equal(asked.ok, true, JSON.stringify(asked));
    const [question] = (await sentTo(db, "250788000009")).slice(-1);
    assert.match(question, /Avez-vous : Chargeur de téléphone \(USB\) \?/);
    assert.doesNotMatch(question, /chaja/);
    // Words no product is named by reach the vendor as the buyer wrote them.
    await ask("ikaramu y'ubururu", "names-2");
    assert.match((await sentTo(db, "250788000009")).at(-1)!, /Avez-vous : ikaramu y'ubururu \?/);
  },
);

Deno.test("itemNameFor() names the item in the vendor's language, else the stock name beside the buyer's words", () => {
  const charger = {
    name: "Phone charger",
    names: { rw: "Chaja ya telefone", fr: "Chargeur de téléphone" },
  };
  const paper = { name: "A4 paper (500 sheets)", names: { fr: "Papier A4 (500 feuilles)" } };
  assert.equal(itemNameFor("chaja ya telefone", [paper, charger], "fr"), "Chargeur de téléphone");
  assert.equal(itemNameFor("Chargeur de telephone", [charger], "rw"), "Chaja ya telefone");
  assert.equal(itemNameFor("papier A4", [paper], "rw"), "A4 paper (500 sheets) (“papier A4”)");
  // The stock name's own words, in no language of their own: as the buyer wrote them.
  assert.equal(itemNameFor("A4 paper", [paper], "rw"), "A4 paper");
  // One short word inside a longer name is no product named.
  assert.equal(itemNameFor("A4", [paper], "fr"), "A4");
  assert.equal(itemNameFor("ikaramu", [paper, charger], "fr"), "ikaramu");
});
