// A deploy that changes a flow's memory, seen by the people mid-conversation: the real
// webhook, graph and checkpointer on each database, one deploy after another over the same
// conversations. Kept memory of the old version is migrated when the flow can, else the
// conversation restarts with a plain message in the user's language; it never fails.
import assert from "node:assert/strict";
import type { Language } from "@shared/contract/language.ts";
import { dbTest } from "@testing/db.ts";
import { englishWords } from "@testing/english_words.ts";
import { deploy, withAgent } from "@testing/flow_deploys.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import type { FlowMemory } from "@shared/registry/flow_memory.ts";
import type { Pack } from "@shared/registry/pack.ts";
import { say as insuranceSays } from "@shared/packs/insurance/texts.ts";
import { createRouter } from "./router.ts";

const RESTARTED = {
  en:
    "This service has been updated since your last message, so we start again from the beginning.",
  rw: "Iyi serivisi yavuguruwe kuva ubutumwa bwawe buheruka, bityo turongera gutangira bushya.",
  fr: "Ce service a été mis à jour depuis votre dernier message : nous reprenons depuis le début.",
};
const ASKING = {
  en: "I need motor insurance",
  rw: "Ndashaka ubwishingizi bw'imodoka",
  fr: "Je veux une assurance moto",
};
const OK = { en: "ok", rw: "sawa", fr: "d'accord" };

/** The packs with the insurance agent's memory declared as `memory` (a deploy). */
function deployed(packs: readonly Pack[], memory: (current: FlowMemory) => FlowMemory): Pack[] {
  return withAgent(
    packs,
    "insurance",
    (agent) => agent.memory ? { ...agent, memory: memory(agent.memory) } : agent,
  );
}

dbTest(
  "a deploy that changes the insurance flow's memory restarts or migrates kept conversations",
  async (db) => {
    const rt = await createTestRuntime(db);
    const router = createRouter({ packs: rt.platform.packs });
    const v1 = deployed(rt.platform.packs, (memory) => ({ ...memory, version: 1 }));
    // Version 2 cannot read version 1's memory and has no migrate.
    const v2 = deployed(
      rt.platform.packs,
      (memory) => ({ ...memory, version: 2, migrate: undefined }),
    );
    // Version 2 that migrates version 1's memory (the same fields, here).
    const v2Migrating = deployed(rt.platform.packs, (memory) => ({
      ...memory,
      version: 2,
      migrate: (old, from) => from === 1 ? old : null,
    }));

    // Three people start insurance on the first deploy: each is asked for the card's photo.
    const restarting = { en: "250788000031", rw: "250788000034", fr: "250788000032" } as const;
    const migrated = "250788000033";
    for (const [language, from] of Object.entries(restarting)) {
      const send = await deploy(db, { packs: v1, router, from });
      const lang = language as Language;
      assert.deepEqual(await send({ text: ASKING[lang] }), [insuranceSays("askPhoto", lang)]);
    }
    {
      const send = await deploy(db, { packs: v1, router, from: migrated });
      assert.deepEqual(await send({ text: "I need motor insurance" }), [
        insuranceSays("askPhoto", "en"),
      ]);
      // Still version 1: text at the photo step asks for a photo, kept memory read as it is.
      assert.deepEqual(await send({ text: "ok" }), [insuranceSays("notAPhoto", "en")]);
    }

    // Deploy 2 without a migration: the next message restarts the flow, the user told why.
    for (const [language, from] of Object.entries(restarting)) {
      const send = await deploy(db, { packs: v2, router, from });
      const lang = language as Language;
      const text = OK[lang];
      assert.deepEqual(await send({ text }), [
        RESTARTED[lang],
        insuranceSays("askPhoto", lang),
      ]);
      // Said plainly in the user's language: no English in rw or fr.
      if (lang !== "en") assert.deepEqual(englishWords(RESTARTED[lang]), []);
      // Restarted once: the conversation now runs on version 2's memory.
      assert.deepEqual(await send({ text }), [insuranceSays("notAPhoto", lang)]);
    }

    // Deploy 2 with a migration: the conversation goes on where it was, nothing said about it.
    const send = await deploy(db, { packs: v2Migrating, router, from: migrated });
    assert.deepEqual(await send({ text: "ok" }), [insuranceSays("notAPhoto", "en")]);
  },
);
