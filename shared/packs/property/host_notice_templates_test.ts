/**
 * A landlord's viewing notice outside WhatsApp's 24-hour window, on both
 * databases: the property sweep queues the in-window notice with its approved
 * template as the fallback, and the real dispatcher, against the loopback
 * Graph API, sends the session message inside the window, the template
 * outside it, and the template again when Meta answers 131047 (re-engagement)
 * although our record said the window was open.
 */
import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { dispatchTo } from "@testing/dispatch_to.ts";
import type { FakeOutcome } from "@testing/graph_server.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";

const NOW = new Date("2026-11-30T06:00:00Z");
const BIBARE = "70000000-0000-4000-8000-000000000001";
/** Bibare's landlord, whose profile speaks Kinyarwanda. */
const HOST = "250788000201";
const HOUR = 3_600_000;

/** Aline books Bibare, the sweep tells the landlord; answers the viewing's id. */
async function bookAndTell(db: TestDatabase): Promise<string> {
  // Not closed here: closing the platform closes the database the dispatcher reads next.
  const rt = await createTestRuntime(db, { now: () => NOW });
  const booked = await rt.callAs(USER.aline, "schedule_viewing", {
    listing_id: BIBARE,
    when: "2026-12-02T10:00:00+02:00",
    name: "Aline",
    phone: "+250788000001",
  }, { idempotencyKey: "book" });
  assert.ok(booked.ok, JSON.stringify(booked));
  const swept = await rt.platform.call({
    tool: "property_viewings_sweep",
    args: {},
    caller: { claims: { role: "service_role" }, org_id: ORG.easymo },
    idempotencyKey: "sweep",
  });
  assert.ok(swept.ok, JSON.stringify(swept));
  return booked.data.event_id;
}

/** Sends what is queued to the landlord, who last wrote `wroteAgoMs` before (never when null). */
async function dispatchToHost(
  db: TestDatabase,
  options: { wroteAgoMs: number | null; outcomes?: FakeOutcome[] },
) {
  const { rows, sent } = await dispatchTo(db, HOST, { orgId: ORG.easymo, ...options });
  return { row: rows[0], sent };
}

dbTest("a landlord who wrote within the day gets the notice with its buttons", async (db) => {
  const viewing = await bookAndTell(db);
  const { row, sent } = await dispatchToHost(db, { wroteAgoMs: HOUR });
  assert.equal(row.status, "sent");
  assert.deepEqual(sent.map((body) => body.type), ["interactive"]);
  assert.match(sent[0].interactive.body.text, /^Gusura gushya kwa /);
  assert.deepEqual(
    sent[0].interactive.action.buttons.map((button: { reply: { id: string } }) => button.reply.id),
    [`pviewing:${viewing}:move`, `pviewing:${viewing}:cancel`],
  );
});

dbTest(
  "a landlord silent for over a day gets the approved template, in their language, with the same answers",
  async (db) => {
    const viewing = await bookAndTell(db);
    const { row, sent } = await dispatchToHost(db, { wroteAgoMs: 25 * HOUR });
    assert.equal(row.status, "sent");
    assert.deepEqual(sent.map((body) => body.type), ["template"]);
    const template = sent[0].template;
    assert.equal(template.name, "property_viewing_booked");
    assert.equal(template.language.code, "rw_RW");
    const [body, ...buttons] = template.components;
    assert.equal(body.type, "body");
    const values = body.parameters.map((parameter: { text: string }) => parameter.text);
    assert.equal(values.length, 4);
    assert.equal(values[2], "Aline");
    assert.equal(values[3], "+250788000001");
    assert.match(values[1], /10:00/);
    assert.deepEqual(
      buttons.map((button: { parameters: Array<{ payload: string }> }) =>
        button.parameters[0].payload
      ),
      [`pviewing:${viewing}:move`, `pviewing:${viewing}:cancel`],
    );
  },
);

dbTest("a landlord who never wrote gets the template too", async (db) => {
  await bookAndTell(db);
  const { sent } = await dispatchToHost(db, { wroteAgoMs: null });
  assert.deepEqual(sent.map((body) => [body.type, body.template?.name]), [
    ["template", "property_viewing_booked"],
  ]);
});

dbTest(
  "Meta's 131047 (re-engagement) on the notice sends the template, once",
  async (db) => {
    await bookAndTell(db);
    // Our record says the window is open; Meta disagrees.
    const { row, sent } = await dispatchToHost(db, {
      wroteAgoMs: HOUR,
      outcomes: [{ code: 131047 }],
    });
    assert.deepEqual(sent.map((body) => body.type), ["interactive", "template"]);
    assert.equal(sent[1].template.name, "property_viewing_booked");
    assert.equal(row.status, "sent");
    assert.equal(row.last_error_code, 131047);
  },
);
