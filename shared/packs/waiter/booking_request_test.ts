import assert from "node:assert/strict";
import fc from "fast-check";
import { parseBookingRequest } from "./booking_request.ts";

const now = new Date("2026-11-23T08:00:00Z"); // Monday 10:00 in Kigali
const kigali = (local: string) => new Date(`${local}+02:00`);
const read = (text: string) => parseBookingRequest(text, now);

Deno.test("English: day words, weekdays, am/pm and party size", () => {
  assert.deepEqual(read("book a table for 4 tomorrow at 7pm"), {
    when: kigali("2026-11-24T19:00:00"),
    size: 4,
  });
  assert.deepEqual(read("table for two tonight at 8"), {
    when: kigali("2026-11-23T20:00:00"),
    size: 2,
  });
  assert.deepEqual(read("reserve for 6 people on saturday at 12:30pm"), {
    when: kigali("2026-11-28T12:30:00"),
    size: 6,
  });
  assert.deepEqual(read("a table at noon"), { when: kigali("2026-11-23T12:00:00") });
});

Deno.test("French: 19h30, demain, samedi, pour N", () => {
  assert.deepEqual(read("une table pour 2 samedi à 19h30"), {
    when: kigali("2026-11-28T19:30:00"),
    size: 2,
  });
  assert.deepEqual(read("réserver pour quatre demain a 20h"), {
    when: kigali("2026-11-24T20:00:00"),
    size: 4,
  });
  assert.deepEqual(read("4 personnes ce soir vers 7h"), {
    when: kigali("2026-11-23T19:00:00"),
    size: 4,
  });
});

Deno.test("Kinyarwanda: hours from 06:00, evening words, abantu N", () => {
  assert.deepEqual(read("mbikire ameza y'abantu 4 ejo saa moya z'ijoro"), {
    when: kigali("2026-11-24T19:00:00"),
    size: 4,
  });
  assert.deepEqual(read("ameza y'abantu 3 ku wa gatanu saa sita"), {
    when: kigali("2026-11-27T12:00:00"),
    size: 3,
  });
  assert.deepEqual(read("ejo saa 2 n'igice za mu gitondo"), {
    when: kigali("2026-11-24T08:30:00"),
  });
  // The evening word typed without its apostrophe still puts "saa moya" at 19:00.
  assert.deepEqual(read("mwampa ameza y abantu 2 kuri Cafe Nyamirambo ejo saa moya z umugoroba"), {
    when: kigali("2026-11-24T19:00:00"),
    size: 2,
  });
  assert.deepEqual(read("uyu mugoroba saa 19:00 abantu babiri"), {
    when: kigali("2026-11-23T19:00:00"),
    size: 2,
  });
});

Deno.test("a time already past today is tomorrow; a day alone has no time", () => {
  assert.deepEqual(read("for 2 at 9:00"), { when: kigali("2026-11-24T09:00:00"), size: 2 });
  assert.deepEqual(read("table for 3 tomorrow"), { size: 3 });
  assert.deepEqual(read("hello"), {});
  assert.deepEqual(read("2026-11-30 at 13:00"), { when: kigali("2026-11-30T13:00:00") });
  assert.deepEqual(read("le 25/11 à 19h"), { when: kigali("2026-11-25T19:00:00") });
});

Deno.test("property: any 24-hour time tomorrow reads back exactly", () => {
  fc.assert(fc.property(
    fc.integer({ min: 0, max: 23 }),
    fc.constantFrom(0, 15, 30, 45),
    (hour, minute) => {
      const hh = String(hour).padStart(2, "0");
      const mm = String(minute).padStart(2, "0");
      const asked = read(`tomorrow at ${hh}:${mm}`);
      assert.deepEqual(asked.when, kigali(`2026-11-24T${hh}:${mm}:00`));
    },
  ));
});

Deno.test("Kinyarwanda typed with l for r: 'saa mbili z'ijoro' is 20:00", () => {
  assert.deepEqual(read("mbikira ameza y'abantu 4 ejo saa mbili z'ijoro"), {
    when: kigali("2026-11-24T20:00:00"),
    size: 4,
  });
  assert.deepEqual(read("ameza y'abantu 2 saa kumi n'ebyili"), {
    when: kigali("2026-11-23T18:00:00"),
    size: 2,
  });
});
