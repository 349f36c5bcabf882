/**
 * A landlord lists a home from WhatsApp (the Property agent's flow): photos,
 * rent, rooms, area and address; the listing waits for staff, who approve or
 * reject it (`property_listing_review`), and the landlord is told by the
 * sweep in their language. Nobody but staff publishes: not the landlord by
 * SQL, not a renter. Both databases; the clock is injected.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime, type TestData, type TestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import type { OfflineStep, TurnInput } from "@shared/registry/pack.ts";
import { listingTitle } from "./listing_submit.ts";
import { propertyFlow } from "./property_flow.ts";

const NOW = new Date("2026-11-30T06:00:00Z");
const PHOTO = `storage://media/${ORG.easymo}/property-test/wamid.photo1`;

function sweep(rt: TestRuntime, key: string): Promise<TestData> {
  return rt.platform.call({
    tool: "property_viewings_sweep",
    args: {},
    caller: { claims: { role: "service_role" }, org_id: ORG.easymo },
    idempotencyKey: key,
  });
}

/** Eric (a vendor of EasyMO, reads Kinyarwanda) lists a house in his conversation. */
async function listAsEric(
  rt: TestRuntime,
  turns: Array<Partial<TurnInput>> = [
    { text: "ndashaka gukodesha inzu yanjye" },
    { text: "", media: { type: "image/jpeg", ref: PHOTO } },
    { choice: "property:done", text: "Ndangije" },
    { text: "250000" },
    { text: "3" },
    { text: "Kicukiro, Niboye" },
    { text: "KK 20 Ave, house 4" },
    { choice: "listing:yes", text: "Yego, emeza" },
  ],
): Promise<OfflineStep[]> {
  let memory: Record<string, unknown> = {};
  const steps: OfflineStep[] = [];
  for (const [i, input] of turns.entries()) {
    const step = await propertyFlow(
      {
        agent: "property",
        language: "rw",
        input: {
          wamid: `wamid.l${i}`,
          text: "",
          phone: "+250788000004",
          name: "Eric Niyonzima",
          ...input,
        },
        memory,
        menu: [],
        progress: () => Promise.resolve(),
      },
      (tool, args, step) =>
        rt.callAs(USER.eric, tool, args, { idempotencyKey: `wamid.l${i}:${step}` }),
    );
    memory = step.done ? {} : { ...memory, ...step.memory };
    steps.push(step);
  }
  return steps;
}

dbTest("a landlord lists on WhatsApp; staff approve; renters find it", async (db) => {
  const rt = await createTestRuntime(db, { now: () => NOW });
  const steps = await listAsEric(rt);
  assert.match(steps[0].replies![0].text, /^Reka dushyire inzu yawe ku rutonde/);
  assert.match(steps[1].replies![0].text, /^Ifoto ya 1 yakiriwe/);
  assert.match(steps[6].replies![0].text, /250,000 RWF ku kwezi, ibyumba 3, Kicukiro, Niboye/);
  assert.match(steps[7].replies![0].text, /itegereje kwemezwa/);
  // The title is in his language, from the rooms and area.
  assert.match(steps[7].replies![0].text, /Inzu y'ibyumba 3 i Niboye/);
  assert.equal(steps[7].done, true);

  const [listing] = await db.query<
    { id: string; status: string; price: number; photos: string[]; available_from: string }
  >(
    `select id, status, price, photos, available_from::text as available_from
     from public.property_listings where landlord_id = $1`,
    [USER.eric],
  );
  assert.deepEqual(
    { ...listing, id: undefined },
    {
      id: undefined,
      status: "pending",
      price: 250000,
      photos: [PHOTO],
      available_from: "2026-11-30",
    },
  );
  const [address] = await db.query<{ address: string; contact_phone: string }>(
    "select address, contact_phone from public.property_listing_addresses where listing_id = $1",
    [listing.id],
  );
  assert.deepEqual(address, { address: "KK 20 Ave, house 4", contact_phone: "+250788000004" });

  // The landlord cannot publish it himself, and renters do not see it yet.
  await assert.rejects(
    db.asCaller(
      { sub: USER.eric, role: "authenticated" },
      (tx) =>
        tx.query("update public.property_listings set status = 'published' where id = $1", [
          listing.id,
        ]),
    ),
  );
  const hidden = await rt.callAs(USER.aline, "property_search", { area: "Niboye", bedrooms: 3 });
  assert.deepEqual(hidden.data.listings, []);
  const notStaff = await rt.callAs(USER.eric, "property_listing_review", {
    listing_id: listing.id,
    decision: "approve",
  }, { idempotencyKey: "e1" });
  // A staff tool: refused before the listing is looked at.
  assert.equal(notStaff.error.code, "AUTH_ERROR");

  // Staff see it in the queue, with its photo, and approve it.
  const queue = await rt.callAs(USER.jean, "property_listings_queue", {});
  assert.deepEqual(
    queue.data.listings.map((l: { id: string }) => l.id).sort(),
    [
      "70000000-0000-4000-8000-000000000006",
      listing.id,
    ].sort(),
  );
  const approved = await rt.callAs(USER.jean, "property_listing_review", {
    listing_id: listing.id,
    decision: "approve",
  }, { idempotencyKey: "j1" });
  assert.deepEqual(approved.data, { listing_id: listing.id, status: "published" });
  const found = await rt.callAs(USER.aline, "property_search", { area: "Niboye", bedrooms: 3 });
  assert.deepEqual(found.data.listings.map((l: { id: string }) => l.id), [listing.id]);
  assert.equal(found.data.listings[0].photo_count, 1);
  assert.doesNotMatch(JSON.stringify(found), /KK 20 Ave/);

  // Eric hears of it once, in Kinyarwanda.
  assert.equal((await sweep(rt, "s1")).data.reviews_told, 1);
  assert.equal((await sweep(rt, "s2")).data.reviews_told, 0);
  const told = await db.query<{ body: string }>(
    `select body->'text'->>'body' as body from public.wa_outbox where to_wa_id = '250788000004'`,
  );
  assert.equal(told.length, 1);
  assert.match(told[0].body, /^Inzu yawe "Inzu y'ibyumba 3 i Niboye" yashyizwe ahagaragara/);
});

dbTest("a rejected listing says why; foreign photos are refused", async (db) => {
  const rt = await createTestRuntime(db, { now: () => NOW });
  const pending = "70000000-0000-4000-8000-000000000006"; // Jeanne's, seeded pending
  const rejected = await rt.callAs(USER.jean, "property_listing_review", {
    listing_id: pending,
    decision: "reject",
    reason: "The photos are too dark",
  }, { idempotencyKey: "j1" });
  assert.deepEqual(rejected.data, { listing_id: pending, status: "rejected" });
  assert.equal((await sweep(rt, "s1")).data.reviews_told, 1);
  const [told] = await db.query<{ to_wa_id: string; body: string }>(
    "select to_wa_id, body->'text'->>'body' as body from public.wa_outbox",
  );
  assert.equal(told.to_wa_id, "250788000201");
  assert.match(told.body, /ntiyemejwe: The photos are too dark$/);

  const foreign = await rt.callAs(USER.eric, "property_listing_submit", {
    price: 100000,
    bedrooms: 1,
    sector: "Remera",
    address: "KG 1 St",
    contact_name: "Eric",
    contact_phone: "+250788000004",
    photos: [`storage://media/${ORG.beaver}/x/wamid.1`],
  }, { idempotencyKey: "f1" });
  assert.equal(foreign.error.code, "VALIDATION_ERROR");
  assert.equal(foreign.error.fields[0].path, "photos.0");
});

Deno.test("a listing's title is made in the landlord's language from rooms, kind and area", () => {
  const area = "Bibare";
  assert.equal(listingTitle({ bedrooms: 2, area, language: "en" }), "2-bedroom home in Bibare");
  assert.equal(
    listingTitle({ bedrooms: 2, kind: "apartment", area, language: "rw" }),
    "Apartema y'ibyumba 2 i Bibare",
  );
  assert.equal(
    listingTitle({ bedrooms: 1, kind: "house", area, language: "fr" }),
    "Maison 1 chambre à Bibare",
  );
  assert.equal(listingTitle({ bedrooms: 3, area, language: "fr" }), "Logement 3 chambres à Bibare");
  // No bedrooms: a studio, in every language.
  assert.equal(listingTitle({ bedrooms: 0, area, language: "rw" }), "Sitidiyo i Bibare");
  assert.equal(listingTitle({ bedrooms: 1, kind: "room", area, language: "en" }), "Room in Bibare");
});

dbTest("property_listing_submit titles a listing in the landlord's language", async (db) => {
  const rt = await createTestRuntime(db, { now: () => NOW });
  const submit = (key: string, args: Record<string, unknown>) =>
    rt.callAs(USER.eric, "property_listing_submit", {
      price: 150000,
      bedrooms: 2,
      sector: "Kimironko",
      cell: "Bibare",
      address: "KG 15 Ave, house 2",
      contact_name: "Eric",
      contact_phone: "+250788000004",
      ...args,
    }, { idempotencyKey: key });
  // Eric's profile speaks Kinyarwanda: his language when he names none.
  const fromProfile: TestData = await submit("t1", {});
  assert.equal(fromProfile.data.title, "Inzu y'ibyumba 2 i Bibare");
  const french: TestData = await submit("t2", { language: "fr", kind: "apartment" });
  assert.equal(french.data.title, "Appartement 2 chambres à Bibare");
  const english: TestData = await submit("t3", { language: "en", cell: undefined });
  assert.equal(english.data.title, "2-bedroom home in Kimironko");
  const stored = await db.query<{ title: string }>(
    "select title from public.property_listings where landlord_id = $1 order by title",
    [USER.eric],
  );
  assert.deepEqual(stored.map((row) => row.title), [
    "2-bedroom home in Kimironko",
    "Appartement 2 chambres à Bibare",
    "Inzu y'ibyumba 2 i Bibare",
  ]);
});

dbTest(
  "a landlord who types the rent instead of tapping Done, and 'yego' to confirm, is listed",
  async (db) => {
    const rt = await createTestRuntime(db, { now: () => NOW });
    const steps = await listAsEric(rt, [
      { text: "ndashaka gukodesha inzu yanjye" },
      { text: "", media: { type: "image/jpeg", ref: PHOTO } },
      // Words that are neither a photo nor the rent: the photo count, not the opening again.
      { text: "ok" },
      { text: "250,000 rwf" },
      { text: "3" },
      { text: "Kicukiro, Niboye" },
      { text: "KK 20 Ave, house 4" },
      { text: "yego" },
    ]);
    assert.match(steps[2].replies![0].text, /^Ifoto ya 1 yakiriwe/);
    assert.equal(steps[3].memory?.stage, "l_rooms");
    assert.match(steps[6].replies![0].text, /250,000 RWF ku kwezi, ibyumba 3, Kicukiro, Niboye/);
    assert.match(steps[7].replies![0].text, /itegereje kwemezwa/);
    const [listing] = await db.query<{ price: number; photos: string[] }>(
      "select price, photos from public.property_listings where landlord_id = $1",
      [USER.eric],
    );
    assert.deepEqual(listing, { price: 250000, photos: [PHOTO] });
  },
);
