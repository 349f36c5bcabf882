// The typed memories of the agents that kept untyped memory until now (Pharmacy and the other
// ordering agents, Payments, the hand-off, the front desk), seen by people mid-conversation
// across a deploy: the real webhook, graph and checkpointer on each database. A conversation
// kept before the memory had a type is read as it is when its shape is the declared one, and
// restarted with a plain message in the person's language when it is not; it never fails.
import assert from "node:assert/strict";
import type { Language } from "@shared/contract/language.ts";
import { dbTest } from "@testing/db.ts";
import { englishWords } from "@testing/english_words.ts";
import { deploy, withAgent } from "@testing/flow_deploys.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { PHARMACY_TEXTS } from "@shared/packs/pharmacy/pharmacy_flow.ts";
import { createRouter } from "./router.ts";

const RESTARTED: Record<Language, string> = {
  en:
    "This service has been updated since your last message, so we start again from the beginning.",
  rw: "Iyi serivisi yavuguruwe kuva ubutumwa bwawe buheruka, bityo turongera gutangira bushya.",
  fr: "Ce service a été mis à jour depuis votre dernier message : nous reprenons depuis le début.",
};
const ASKING: Record<Language, string> = {
  en: "I need a pharmacy",
  rw: "Ndashaka farumasi",
  fr: "Bonjour, je cherche une pharmacie",
};
const OK: Record<Language, string> = { en: "ok", rw: "sawa", fr: "d'accord" };
const LANGUAGES: readonly Language[] = ["en", "rw", "fr"];

dbTest(
  "a pharmacy conversation kept before its memory was typed goes on when its shape is the declared one",
  async (db) => {
    const rt = await createTestRuntime(db);
    const router = createRouter({ packs: rt.platform.packs });
    // The deploy before this one: the same flow, its memory undeclared (never checked).
    const untyped = withAgent(rt.platform.packs, "pharmacy", ({ memory: _, ...agent }) => agent);
    const typed = rt.platform.packs;
    for (const [i, lang] of LANGUAGES.entries()) {
      // One person across the deploy, another on the typed deploy throughout: told the same.
      const across = `25078800005${i}`;
      const throughout = `25078800006${i}`;
      const before = await deploy(db, { packs: untyped, router, from: across });
      const control = await deploy(db, { packs: typed, router, from: throughout });
      const listed = await before({ text: ASKING[lang] });
      assert.deepEqual(listed, await control({ text: ASKING[lang] }));
      assert.ok(listed[0].includes(PHARMACY_TEXTS.askVenue[lang]), listed[0]);

      const after = await deploy(db, { packs: typed, router, from: across });
      const stock = await after({ text: "1" });
      assert.deepEqual(stock, await control({ text: "1" }));
      assert.ok(!stock.includes(RESTARTED[lang]), stock.join("\n"));
      // The pharmacy's stock, as its step kept it: a listed medicine with its price.
      assert.match(stock[0], /RWF/);
    }
  },
);

dbTest(
  "a pharmacy conversation kept in another shape restarts with a plain message in the person's language",
  async (db) => {
    const rt = await createTestRuntime(db);
    const router = createRouter({ packs: rt.platform.packs });
    // An older flow that kept the pharmacy by name and prices as text: not the ordering steps'
    // shape, so the typed flow cannot read it.
    const older = withAgent(rt.platform.packs, "pharmacy", ({ memory: _, ...agent }) => ({
      ...agent,
      offlineFlow: () =>
        Promise.resolve({
          replies: [{ text: "Which pharmacy?" }],
          memory: {
            step: {
              venue: "Pharmacie Conseil Kimihurura",
              stock: [{ sku: "PARA-500", name: "Paracetamol 500mg", price: "500 RWF" }],
            },
          },
        }),
    }));
    const typed = rt.platform.packs;
    for (const [i, lang] of LANGUAGES.entries()) {
      const from = `25078800007${i}`;
      const before = await deploy(db, { packs: older, router, from });
      assert.deepEqual(await before({ text: ASKING[lang] }), ["Which pharmacy?"]);

      const after = await deploy(db, { packs: typed, router, from });
      const restarted = await after({ text: OK[lang] });
      // Told why, then the flow from its start: the pharmacies to pick from.
      assert.equal(restarted[0], RESTARTED[lang]);
      assert.equal(restarted.length, 2, restarted.join("\n"));
      assert.ok(restarted[1].includes(PHARMACY_TEXTS.askVenue[lang]), restarted[1]);
      if (lang !== "en") assert.deepEqual(englishWords(restarted[0]), []);
      // Restarted once: the next message goes on from the list.
      const stock = await after({ text: "1" });
      assert.ok(!stock.includes(RESTARTED[lang]), stock.join("\n"));
      assert.match(stock[0], /RWF/);
    }
  },
);
