/**
 * "Move it" / "cancel it" with nothing named, at the front desk, over the real webhook and a
 * real database: a real viewing and a real ride request, in English, Kinyarwanda and French.
 * A cancel asks to confirm that very item by name and ends it through its pack (the drivers or
 * the landlord are told); a move asks for the new time; a pick among several keeps the verb.
 * The clock is injected: a Monday, 08:00 in Kigali, at least a day after the real one, because
 * the database checks bookings against its own clock (CI runs it a year ahead).
 */
import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { bodyChoices, bodyText, startAgentChannel } from "@testing/agent_channel.ts";
import { ORG, USER } from "@testing/seed.ts";
import { platformRouter } from "@shared/platform/router.ts";
import { PACKS } from "@shared/packs/mod.ts";

const HOUR = 60 * 60 * 1000;
const NOW = (() => {
  const day = new Date(Date.now() + 24 * HOUR);
  const monday = new Date(
    Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 6, 0),
  );
  while (monday.getUTCDay() !== 1) monday.setUTCDate(monday.getUTCDate() + 1);
  return monday;
})();
// The Monday's 10:00 viewing slot, and 19:00 two days later, in Kigali.
const VIEWING_AT = new Date(NOW.getTime() + 2 * HOUR).toISOString();
const TABLE_AT = new Date(NOW.getTime() + 48 * HOUR + 11 * HOUR).toISOString();
const ALINE = "250788000001";
const BIBARE = "70000000-0000-4000-8000-000000000001";
const REMERA = { lat: -1.9557, lng: 30.1123 };
const CAFE = "c0000000-0000-4000-8000-000000000002";

async function viewingOf(db: TestDatabase, id: string) {
  const [row] = await db.query<{ status: string; starts_at: string }>(
    "select status, starts_at::text from public.property_viewings where id = $1",
    [id],
  );
  return row;
}

async function rideStatusOf(db: TestDatabase, id: string): Promise<string> {
  const [row] = await db.query<{ status: string }>(
    "select status from public.ride_requests where id = $1",
    [id],
  );
  return row.status;
}

dbTest(
  "'move it' / 'cancel it' moves or cancels the person's real viewing and ride, in en/rw/fr",
  async (db) => {
    const chat = await startAgentChannel(db, { model: null }, { now: () => NOW });
    const { rt } = chat;
    const say = (content: Parameters<typeof chat.say>[1]) => chat.say(ALINE, content);
    const viewing = await rt.callAs(USER.aline, "schedule_viewing", {
      listing_id: BIBARE,
      when: VIEWING_AT,
      name: "Aline",
      phone: "+250788000001",
    }, { idempotencyKey: "open-work-viewing" });
    assert.ok(viewing.ok, JSON.stringify(viewing));
    const viewingId = viewing.data.event_id as string;

    // A bare move in French: that viewing, by name and time, and its free slots to move to.
    const moving = await say({ text: "est-ce que je peux la déplacer ?" });
    assert.match(bodyText(moving), /^Votre visite de .+ : à quand la déplacer \?/);
    const slot = bodyChoices(moving).find((id) => id.startsWith("move:"));
    assert.ok(slot, JSON.stringify(moving));
    await say({ listReply: { id: slot, title: "slot" } });
    const moved = await viewingOf(db, viewingId);
    assert.equal(moved.status, "booked");
    assert.notEqual(Date.parse(moved.starts_at), Date.parse(VIEWING_AT));

    // A ride request too: "cancel that" asks which, and the pick keeps the verb.
    const ride = await rt.callAs(USER.aline, "ride_request", {
      vehicle_type: "moto",
      pickup: REMERA,
      dest: { name: "Nyabugogo" },
      language: "en",
    }, { idempotencyKey: "open-work-ride" });
    assert.ok(ride.ok, JSON.stringify(ride));
    const rideId = ride.data.ride_request_id as string;
    // Leaving the property flow asks about the viewing, which is kept.
    assert.deepEqual(bodyChoices(await say({ text: "0" })), ["leave:cancel", "leave:keep"]);
    await say({ buttonReply: { id: "leave:keep", title: "Keep it" } });
    const which = await say({ text: "please cancel that" });
    assert.deepEqual(bodyChoices(which).sort(), [
      "work:cancel:mobility_orchestrator",
      "work:cancel:property",
    ]);
    const confirming = await say({
      listReply: { id: "work:cancel:mobility_orchestrator", title: "Rides" },
    });
    // Asked to confirm cancelling that very ride, named; nothing is cancelled by asking.
    assert.match(
      bodyText(confirming),
      /^Cancel your moto request from .+ to Nyabugogo.*keep it\?$/,
    );
    assert.deepEqual(bodyChoices(confirming), ["leave:cancel", "leave:keep"]);
    assert.equal(await rideStatusOf(db, rideId), "open");
    const before = (await chat.outbox(ALINE)).length;
    await say({ buttonReply: { id: "leave:cancel", title: "Cancel it" } });
    assert.equal(await rideStatusOf(db, rideId), "cancelled");
    const told = (await chat.outbox(ALINE)).slice(before).map(bodyText).join("\n");
    assert.match(told, /drivers who were asked have been told/);
    assert.equal((await viewingOf(db, viewingId)).status, "booked");

    // The viewing alone is left: a bare cancel in Kinyarwanda names it and cancels it once
    // confirmed; the landlord is told by the pack's sweep.
    const asked = await say({ text: "ndashaka kubihagarika" });
    assert.match(bodyText(asked), /^Uhagarike gusura .+, cyangwa ubigumane\?$/);
    await say({ buttonReply: { id: "leave:cancel", title: "Bihagarike" } });
    assert.equal((await viewingOf(db, viewingId)).status, "cancelled");
    await rt.platform.call({
      tool: "property_viewings_sweep",
      args: {},
      caller: { claims: { role: "service_role" }, org_id: ORG.easymo },
      idempotencyKey: crypto.randomUUID(),
    });
    const [{ n }] = await db.query<{ n: number }>(
      `select count(*)::int as n from public.wa_outbox
       where to_wa_id = '250788000201' and body::text like '%byahagaritswe%'`,
    );
    assert.equal(n, 1);

    // A ride request has no time to move: said so in English, with its cancel offered.
    const again = await rt.callAs(USER.aline, "ride_request", {
      vehicle_type: "moto",
      pickup: REMERA,
      dest: { name: "Kimironko" },
      language: "en",
    }, { idempotencyKey: "open-work-ride-2" });
    assert.ok(again.ok, JSON.stringify(again));
    const postponing = await say({ text: "I'd like to postpone it" });
    assert.match(bodyText(postponing), /^Your moto request from .+ to Kimironko .*no time to move/);
    assert.deepEqual(bodyChoices(postponing), ["ride:cancel_open", "ride:keep"]);
    await say({ buttonReply: { id: "ride:cancel_open", title: "Cancel request" } });
    assert.equal(await rideStatusOf(db, again.data.ride_request_id as string), "cancelled");
  },
);

dbTest(
  "one pack failing to find open work loses only its own: the others are still found, and the failure is logged",
  async (db) => {
    // Rides whose open work cannot be read (its pack's code throws).
    const packs = PACKS.map((pack) => ({
      ...pack,
      agents: pack.agents.map((agent) =>
        agent.pending && agent.id === "mobility_orchestrator"
          ? {
            ...agent,
            pending: {
              ...agent.pending,
              find: () => Promise.reject(new Error("rides' open work is unreadable")),
            },
          }
          : agent
      ),
    }));
    const chat = await startAgentChannel(db, { model: null, router: platformRouter() }, {
      now: () => NOW,
      packs,
    });
    const booked = await chat.rt.callAs(USER.aline, "reservation_book", {
      venue_id: CAFE,
      when: TABLE_AT,
      size: 2,
      name: "Aline",
      phone: "+250788000001",
    }, { idempotencyKey: "open-work-table" });
    assert.ok(booked.ok, JSON.stringify(booked));
    const moving = await chat.say(ALINE, { text: "I want to move it" });
    // The table is still found and asked about; Rides' failure is logged for staff.
    assert.match(bodyText(moving), /Café Nyamirambo/);
    const failed = chat.rt.log.lines.filter((line) => line.event === "pack_failed");
    assert.equal(failed.length, 1, JSON.stringify(chat.rt.log.lines));
    assert.equal(failed[0].agent_id, "mobility_orchestrator");
    assert.equal(failed[0].where, "pending.find");
  },
);
