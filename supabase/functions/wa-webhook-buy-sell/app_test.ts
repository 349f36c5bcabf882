// The wa-webhook-buy-sell function as it is deployed (the composition root's pack function for
// buy & sell) on a real HTTP server on 127.0.0.1, over each database: staff of a tenant running
// buy & sell read the vendors' answers to recent requests; customers, other tenants' staff and
// bad parameters get contract errors, never a 500.
import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime, type TestData } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { serveFunction } from "@testing/serve_function.ts";
import { createPackFunction } from "@shared/platform/pack_function.ts";

const NAME = "wa-webhook-buy-sell";
const KIMIHURURA_PHARMACY = "c0000000-0000-4000-8000-000000000001"; // owner 250788000004
const KACYIRU_PHARMACY = "c0000000-0000-4000-8000-000000000006"; // owner 250788000009

async function serve(db: TestDatabase, now: Date) {
  const rt = await createTestRuntime(db, { now: () => now });
  const app = createPackFunction(rt, { name: NAME, pack: "buy_and_sell" });
  const server = serveFunction(NAME, (request) => app.fetch(request));
  const as = async (userId: string | null) => {
    const token = userId ? await rt.tokenFor(userId) : null;
    return async (path: string) => {
      const response = await fetch(`${server.url}${path}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      return { status: response.status, body: await response.json() };
    };
  };
  return { rt, as, close: () => server.close() };
}

/** Aline asks the two pharmacies; Kacyiru answers YES 600 2, Kimihurura "oya". */
async function askAndAnswer(rt: Awaited<ReturnType<typeof createTestRuntime>>) {
  const asked: TestData = await rt.callAs(
    USER.aline,
    "create_vendor_inquiries_and_message_vendors",
    {
      user_phone: "+250788000001",
      business_ids: [KIMIHURURA_PHARMACY, KACYIRU_PHARMACY],
      request_type: "medicine",
      request_summary: "2 paracetamol",
      structured_payload: { item: "paracetamol", quantity: 2 },
      language: "en",
      consent: true,
    },
    { idempotencyKey: "ask-1" },
  );
  assert.ok(asked.ok, JSON.stringify(asked));
  for (
    const [phone, body, wamid] of [["+250788000009", "YES 600 2", "wamid.y"], [
      "+250788000004",
      "oya",
      "wamid.n",
    ]]
  ) {
    const replied = await rt.platform.call({
      tool: "process_vendor_reply",
      args: { vendor_phone: phone, message_body: body, whatsapp_message_id: wamid },
      caller: { claims: { role: "service_role" }, org_id: ORG.easymo },
      idempotencyKey: `wa:${wamid}`,
    });
    assert.ok(replied.ok, JSON.stringify(replied));
  }
  return asked.data.inquiry_id as string;
}

dbTest("wa-webhook-buy-sell shows staff every vendor's answer to recent requests", async (db) => {
  const now = new Date("2026-11-22T10:00:00Z");
  const { rt, as, close } = await serve(db, now);
  try {
    const inquiryId = await askAndAnswer(rt);
    const jean = await as(USER.jean);
    const board = await jean(`/inquiries`);
    assert.equal(board.status, 200, JSON.stringify(board.body));
    const [inquiry] = board.body.data.inquiries;
    assert.equal(board.body.data.inquiries.length, 1);
    assert.equal(inquiry.inquiry_id, inquiryId);
    assert.equal(inquiry.status, "open");
    assert.equal(inquiry.request_summary, "2 paracetamol");
    const answers = Object.fromEntries(
      inquiry.vendors.map((
        vendor: { business_name: string; reply_status: string; price?: number },
      ) => [vendor.business_name, [vendor.reply_status, vendor.price]]),
    );
    assert.deepEqual(answers, {
      "Pharmacie Kacyiru": ["yes", 600],
      "Pharmacie Conseil Kimihurura": ["no", undefined],
    });
    // "Recent" is by the clock the tools see: an hour's window from two hours on is empty.
    const { as: later, close: closeLater } = await serve(
      db,
      new Date(now.getTime() + 2 * 3_600_000),
    );
    try {
      const empty = await (await later(USER.jean))(`/inquiries?hours=1`);
      assert.deepEqual(empty.body.data.inquiries, []);
      const day = await (await later(USER.jean))(`/inquiries?hours=24`);
      assert.equal(day.body.data.inquiries.length, 1);
    } finally {
      await closeLater();
    }
  } finally {
    await close();
  }
});

dbTest(
  "wa-webhook-buy-sell refuses customers, strangers and bad parameters with contract errors",
  async (db) => {
    const { rt, as, close } = await serve(db, new Date("2026-11-22T10:00:00Z"));
    try {
      await askAndAnswer(rt);
      assert.equal((await (await as(null))(`/inquiries`)).status, 401);
      const customer = await (await as(USER.aline))(`/inquiries`);
      assert.equal(customer.status, 403);
      assert.equal(customer.body.error.code, "AUTH_ERROR");
      // Beaver runs no buy & sell agent: the route does not exist for its staff.
      const paul = await (await as(USER.paul))(`/inquiries`);
      assert.equal(paul.status, 404);
      assert.equal(paul.body.error.code, "NOT_FOUND");
      const jean = await as(USER.jean);
      const bad = await jean(`/inquiries?hours=forever`);
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.code, "VALIDATION_ERROR");
      assert.deepEqual(bad.body.error.fields.map((field: { path: string }) => field.path), [
        "hours",
      ]);
      // A whole number past the range is told the range, however many digits it has.
      const huge = await jean(`/inquiries?hours=99999999999`);
      assert.equal(huge.status, 400);
      assert.equal(huge.body.error.fields[0].path, "hours");
      assert.match(huge.body.error.fields[0].message, /168/);
      const tooMany = await jean(`/inquiries?limit=1000`);
      assert.equal(tooMany.status, 400);
      assert.equal(tooMany.body.error.fields[0].path, "limit");
      const unknown = await jean(`/nothing-here`);
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error.code, "NOT_FOUND");
    } finally {
      await close();
    }
  },
);

dbTest("createPackFunction() refuses a pack it cannot serve, naming it", async (db) => {
  const rt = await createTestRuntime(db);
  assert.throws(
    () => createPackFunction(rt, { name: "nope", pack: "no_such_pack" }),
    /pack "no_such_pack" is not in the pack list/,
  );
  assert.throws(
    () => createPackFunction(rt, { name: "pharmacy", pack: "pharmacy" }),
    /pack "pharmacy" declares no route/,
  );
});
