/**
 * The Property agent's offline flow, step by step, through the real tools on
 * both databases with a loopback Storage: a renter's words become filters
 * (en/rw/fr); the results show photo links and no address; picking a home,
 * a time and confirming books the viewing, and only that answer holds the
 * address, and the sweep sends the confirmation as a PDF; the viewing is
 * then moved and cancelled from the chat. The clock is injected.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime, type TestData } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { startTestStorage } from "@testing/storage.ts";
import type { Language } from "@shared/contract/language.ts";
import type { AgentReply, OfflineStep, TurnInput } from "@shared/registry/pack.ts";
import { FILE_STORE } from "@shared/storage/file_store.ts";
import { propertyFlow, searchWords, slotRows } from "./property_flow.ts";

const NOW = new Date("2026-11-30T06:00:00Z"); // Monday 08:00 in Kigali
const BIBARE = "70000000-0000-4000-8000-000000000001";
const KIBAGABAGA = "70000000-0000-4000-8000-000000000002";

Deno.test("searchWords() reads area, bedrooms and budget in en, rw and fr", () => {
  const expected = { area: "Kimironko", bedrooms: 2, price_max: 200000 };
  assert.deepEqual(
    searchWords("ndashaka inzu yo gukodesha i Kimironko, ibyumba 2, munsi ya 200000"),
    expected,
  );
  assert.deepEqual(searchWords("a 2 bedroom house in Kimironko under 200,000 rwf"), expected);
  assert.deepEqual(searchWords("maison 2 chambres a Kimironko moins de 200 000"), expected);
  assert.deepEqual(searchWords("inzu ya 150k i Remera ifite parking, imbwa"), {
    area: "Remera",
    price_max: 150000,
    parking: true,
    pets_allowed: true,
  });
  assert.deepEqual(searchWords("hello"), {});
});

Deno.test("slotRows() shows each viewing time once, in en, rw and fr", () => {
  const slots = ["2026-11-27T14:30:00.000Z", "2026-11-30T07:00:00.000Z"];
  const rows = (language: Language) =>
    slotRows(slots, "slot", language).rows!.map(({ title, description }) =>
      description ? `${title} | ${description}` : title
    );
  assert.deepEqual(rows("en"), ["Fri 27 Nov, 16:30", "Mon 30 Nov, 09:00"]);
  assert.deepEqual(rows("fr"), ["ven. 27 nov., 16:30", "lun. 30 nov., 09:00"]);
  // Kinyarwanda's row title shortens the day; the description names it in full.
  assert.deepEqual(rows("rw"), [
    "27/11, 16:30 | Ku wa gatanu 27 Ugushyingo, 16:30",
    "30/11, 09:00 | Ku wa mbere 30 Ugushyingo, 09:00",
  ]);
});

/** Replies' text, list rows and buttons, as one string to search. */
function shown(step: OfflineStep): string {
  return JSON.stringify(step.replies ?? []);
}

function rowsOf(step: OfflineStep): NonNullable<AgentReply["rows"]> {
  return step.replies?.find((reply) => reply.rows?.length)?.rows ?? [];
}

dbTest("a renter finds, books, moves and cancels a viewing in Kinyarwanda", async (db) => {
  const storage = await startTestStorage(db);
  try {
    for (const listing of [BIBARE, KIBAGABAGA]) {
      for (const n of [1, 2]) {
        await storage.files.upload({
          bucket: "media",
          path: `${ORG.easymo}/property/${listing}/${n}.jpg`,
          bytes: new Uint8Array([0xff, 0xd8, 0xff, n]),
          contentType: "image/jpeg",
        });
      }
    }
    const rt = await createTestRuntime(db, {
      now: () => NOW,
      provide: [{ key: FILE_STORE, value: storage.files }],
    });
    let memory: Record<string, unknown> = {};
    let turnNo = 0;
    const say = async (input: Partial<TurnInput>, language: Language = "rw") => {
      turnNo++;
      const step = await propertyFlow(
        {
          agent: "property",
          language,
          input: {
            wamid: `wamid.${turnNo}`,
            text: "",
            phone: "+250788000001",
            name: "Aline",
            ...input,
          },
          memory,
          menu: [],
          progress: () => Promise.resolve(),
        },
        (tool, args, step) =>
          rt.callAs(USER.aline, tool, args, { idempotencyKey: `wamid.${turnNo}:${step}` }),
      );
      memory = step.done ? {} : { ...memory, ...step.memory };
      return step;
    };

    const found = await say({
      text: "ndashaka inzu yo gukodesha i Kimironko, ibyumba 2, munsi ya 200000",
    });
    assert.deepEqual(rowsOf(found).map((row) => row.id), [
      `listing:${BIBARE}`,
      `listing:${KIBAGABAGA}`,
    ]);
    // Photos as working links; no address, no contact anywhere yet.
    const links = shown(found).match(
      /http:\/\/127\.0\.0\.1:\d+\/storage\/v1\/object\/sign\/[^\s"]+/g,
    );
    assert.equal(links?.length, 4, shown(found));
    assert.deepEqual([...await (await fetch(links![0])).bytes()], [0xff, 0xd8, 0xff, 1]);
    assert.doesNotMatch(shown(found), /KG 15|KG 9|\+250788000201|\+250788000202/);
    // The listing is named by its facts in the renter's language, not by its stored English title.
    assert.match(shown(found), /1\. Inzu y'ibyumba 2 i Kimironko, Bibare: 180,000 RWF ku kwezi/);
    assert.doesNotMatch(shown(found), /bedroom|house/);
    assert.deepEqual(rowsOf(found).map((row) => row.title), [
      "ibyumba 2, Bibare",
      "ibyumba 2, Kibagabaga",
    ]);

    const times = await say({ choice: `listing:${BIBARE}`, text: "2-bedroom house in Bibare" });
    const slots = rowsOf(times);
    assert.equal(slots[0].id, "slot:2026-11-30T07:00:00.000Z");
    assert.doesNotMatch(shown(times), /KG 15/);

    const confirm = await say({ choice: slots[2].id, text: slots[2].title });
    assert.deepEqual(confirm.replies?.[0].buttons?.map((b) => b.id), ["viewing:yes", "viewing:no"]);
    assert.match(
      confirm.replies![0].text,
      /^Wemeza gusura inzu y'ibyumba 2 i Kimironko, Bibare, Ku wa mbere .*, kuri Aline/,
    );
    assert.doesNotMatch(shown(confirm), /KG 15/);

    const booked = await say({ choice: "viewing:yes", text: "Yego, emeza" });
    const last = booked.replies!.at(-1)!;
    assert.match(last.text, /Aderesi: KG 15 Ave, house 23, Bibare, Kimironko/);
    assert.match(last.text, /Uhure na: Jeanne Mukandori, \+250788000201/);
    // The sweep sends her the confirmation PDF (viewing_confirmation), in Kinyarwanda: rendered
    // and stored in the tool's prepare step, before its transaction (so PGlite's one connection
    // is free for the Storage server).
    const swept: TestData = await rt.platform.call({
      tool: "property_viewings_sweep",
      args: {},
      caller: { claims: { role: "service_role" }, org_id: ORG.easymo },
      idempotencyKey: "sweep-pdf",
    });
    assert.equal(swept.data?.confirmed, 1, JSON.stringify(swept));
    const [pdf] = await db.query<{ link: string; caption: string }>(
      `select body->'document'->>'link' as link, body->'document'->>'caption' as caption
       from public.wa_outbox where to_wa_id = '250788000001' and body->>'type' = 'document'`,
    );
    assert.match(pdf.caption, /^Icyemezo cyawe cyo gusura: inzu y'ibyumba 2 i Kimironko, Bibare/);
    const bytes = await (await fetch(pdf.link)).bytes();
    assert.equal(new TextDecoder().decode(bytes.slice(0, 5)), "%PDF-");

    const move = await say({ choice: "viewing:move", text: "Imura gusura" });
    // Every time shows whole in its row; the booked one (09:00) is not offered.
    assert.ok(rowsOf(move).every((row) => /\d\d:\d\d$/.test(row.title)), shown(move));
    assert.ok(!rowsOf(move).some((row) => row.id === "move:2026-11-30T08:00:00.000Z"));
    const moveTo = rowsOf(move).find((row) => row.id === "move:2026-11-30T09:00:00.000Z");
    assert.ok(moveTo, shown(move));
    const moved = await say({ choice: moveTo.id, text: moveTo.title });
    assert.match(
      moved.replies![0].text,
      /^Byimuwe: gusura inzu y'ibyumba 2 i Kimironko, Bibare ubu ni Ku wa /,
    );
    const [viewing] = await db.query<{ starts_at: string; status: string }>(
      "select starts_at::text as starts_at, status from public.property_viewings",
    );
    assert.equal(new Date(viewing.starts_at).toISOString(), "2026-11-30T09:00:00.000Z");

    const cancelled = await say({ choice: "viewing:cancel", text: "Hagarika gusura" });
    assert.equal(cancelled.done, true);
    assert.match(cancelled.replies![0].text, /byahagaritswe/);
    const [after] = await db.query<{ status: string }>(
      "select status from public.property_viewings",
    );
    assert.equal(after.status, "cancelled");
  } finally {
    await storage.close();
  }
});

dbTest("a message naming nothing gets the question; no match says so (fr)", async (db) => {
  const rt = await createTestRuntime(db, { now: () => NOW });
  const step = (text: string, memory: Record<string, unknown>) =>
    propertyFlow({
      agent: "property",
      language: "fr",
      input: { wamid: "w", text },
      memory,
      menu: [],
      progress: () => Promise.resolve(),
    }, (tool, args) => rt.callAs(USER.aline, tool, args));
  const ask = await step("je cherche un logement", {});
  assert.match(ask.replies![0].text, /^Quel quartier, combien de chambres/);
  assert.equal(ask.memory?.stage, "ask");
  const none = await step("Gisozi, 5 chambres", { stage: "ask" });
  assert.match(none.replies![0].text, /^Aucun logement ne correspond/);
});

dbTest(
  "a typed name at the viewing's confirmation asks again; a typed 'oui' books it (fr)",
  async (db) => {
    const rt = await createTestRuntime(db, { now: () => NOW });
    let memory: Record<string, unknown> = {};
    let turnNo = 0;
    const say = async (input: Partial<TurnInput>) => {
      turnNo++;
      const step = await propertyFlow(
        {
          agent: "property",
          language: "fr",
          input: { wamid: `w${turnNo}`, text: "", phone: "+250788000001", name: "Aline", ...input },
          memory,
          menu: [],
          progress: () => Promise.resolve(),
        },
        (tool, args, key) =>
          rt.callAs(USER.aline, tool, args, { idempotencyKey: `w${turnNo}:${key}` }),
      );
      memory = step.done ? {} : { ...memory, ...step.memory };
      return step;
    };
    await say({ text: "maison 2 chambres a Kimironko" });
    const times = await say({ choice: `listing:${BIBARE}`, text: "2-bedroom house in Bibare" });
    const slot = rowsOf(times)[0];
    const asked = await say({ choice: slot.id, text: slot.title });
    assert.deepEqual(
      asked.replies?.[0].buttons?.map((b) => b.id),
      ["viewing:yes", "viewing:no"],
    );
    // Her own name typed at the yes/no: the same confirmation again, not a new search.
    const again = await say({ text: "Aline" });
    assert.deepEqual(again.replies?.[0].buttons?.map((b) => b.id), ["viewing:yes", "viewing:no"]);
    assert.equal(again.replies?.[0].text, asked.replies?.[0].text);
    const booked = await say({ text: "oui" });
    assert.match(shown(booked), /KG 15 Ave, house 23/);
    const [viewing] = await db.query<{ n: number }>(
      "select count(*)::int as n from public.property_viewings where status = 'booked'",
    );
    assert.equal(viewing.n, 1);
  },
);
