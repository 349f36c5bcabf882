import assert from "node:assert/strict";
import { decideRoute } from "@shared/agent/route_decision.ts";
import { platformRouter } from "@shared/platform/router.ts";
import type { Language } from "@shared/contract/language.ts";
import type { OfflineTurn } from "@shared/registry/pack.ts";
import { frontDeskFlow } from "./mod.ts";

const NEW = { agent: null, atMenu: false, menuOptions: [], langPref: null };

// The front desk's turn for a first message; a closing reads no tool.
function frontDeskTurn(text: string, language: Language) {
  const turn: OfflineTurn = {
    agent: "concierge_router",
    language,
    input: { wamid: "wamid.closing", text },
    memory: {},
    menu: [{ id: "waiter_ai", title: { en: "Food", rw: "Ibiryo", fr: "Repas" } }],
    progress: () => Promise.resolve(),
  };
  return frontDeskFlow(turn, () => Promise.reject(new Error("a closing reads no tool")));
}

Deno.test("thanks or goodbye alone reaches the front desk, which takes leave in the person's language", async () => {
  const router = platformRouter();
  for (
    const [text, language, farewell] of [
      ["Thank you so much, goodbye!", "en", "You're welcome"],
      ["merci bien, à la prochaine", "fr", "Avec plaisir"],
      ["sawa urakoze, tuzongera", "rw", "Urakoze nawe"],
    ] as const
  ) {
    const decision = decideRoute(text, NEW, router);
    assert.equal(decision.kind === "route" && decision.agent, "concierge_router", text);
    const step = await frontDeskTurn(text, language);
    assert.ok(step.replies?.[0].text.startsWith(farewell), text);
  }
});

Deno.test("thanks with a request is the request's, and the front desk still welcomes a greeting", async () => {
  const decision = decideRoute("merci, il me faut du paracétamol", NEW, platformRouter());
  assert.equal(decision.kind === "route" && decision.agent, "pharmacy");
  const step = await frontDeskTurn("bonjour", "fr");
  assert.ok(step.replies?.[0].text.startsWith("Bonjour"));
});
