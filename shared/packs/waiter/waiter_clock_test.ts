/**
 * The Waiter reads "tomorrow at 19:00" against the platform's clock, not the
 * machine's: with the clock injected ten days ahead, the table is booked for
 * the day after that clock's day.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { bodyText, startAgentChannel } from "@testing/agent_channel.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);
// Ten days after the real one (the database checks bookings against its own clock), 08:00 in
// Kigali.
const NOW = new Date(`${dayOf(new Date(Date.now() + 10 * DAY_MS))}T06:00:00Z`);
const TOMORROW = dayOf(new Date(NOW.getTime() + DAY_MS));

dbTest(
  "a table asked for 'tomorrow' is booked for the day after the platform's clock",
  async (db) => {
    const chat = await startAgentChannel(db, { model: null }, { now: () => NOW });
    const reply = await chat.say("250788000106", {
      text: "I want to book a table for 2 at Café Nyamirambo tomorrow at 19:00",
    });
    assert.match(bodyText(reply), /Table for 2 at Café Nyamirambo/);
    const rows = await db.query<{ slot_start: string }>(
      "select slot_start::text as slot_start from public.reservations where phone = $1",
      ["+250788000106"],
    );
    assert.equal(rows.length, 1);
    // 19:00 in Kigali is 17:00 UTC.
    assert.equal(new Date(rows[0].slot_start).toISOString(), `${TOMORROW}T17:00:00.000Z`);
  },
);
