import assert from "node:assert/strict";
import { platformRouter } from "@shared/platform/router.ts";
import { PACKS } from "@shared/packs/mod.ts";
import { decideRoute } from "./route_decision.ts";

Deno.test("a tenant's router routes only to the agents it runs, the front desk and the hand-off", () => {
  const whole = platformRouter(PACKS);
  const pharmacyOnly = platformRouter(PACKS, ["pharmacy"]);
  const ride = "I need a taxi to Kimironko";
  assert.equal(whole.classifier.classify(ride).agent, "mobility_orchestrator");
  const seen = pharmacyOnly.classifier.classify(ride);
  assert.notEqual(seen.agent, "mobility_orchestrator");
  assert.ok(seen.ranking.every((entry) => entry.agent !== "mobility_orchestrator"));
  assert.equal(pharmacyOnly.classifier.classify("do you have paracetamol").agent, "pharmacy");
  assert.deepEqual(pharmacyOnly.agents.menu, ["pharmacy"]);
  assert.deepEqual(
    [...pharmacyOnly.agents.customer].sort(),
    [whole.agents.frontDesk, whole.agents.handoff, "pharmacy"].sort(),
  );
  // Trained once: tenants that run the same agents share one view, in any order.
  assert.equal(platformRouter(PACKS, ["pharmacy", "pharmacy"]), pharmacyOnly);
  assert.equal(platformRouter(PACKS), whole);
});

Deno.test("a service the tenant does not run is named as not offered, in any language, never routed", () => {
  const paper = platformRouter(PACKS, ["shop", "support_handoff"]);
  const start = { agent: null, atMenu: false, menuOptions: [], langPref: null };
  for (
    const [text, language] of [
      ["I want a moto", "en"],
      ["je veux une moto pour aller à Remera", "fr"],
      ["ndashaka moto ijya i Kicukiro", "rw"],
    ] as const
  ) {
    const decision = decideRoute(text, start, paper);
    assert.equal(decision.kind, "not_offered", text);
    assert.equal(decision.kind === "not_offered" && decision.service, "mobility_orchestrator");
    assert.equal(decision.replyLanguage, language, text);
  }
  // What the tenant runs is still routed, and a greeting is still the front desk's.
  assert.equal(decideRoute("do you have sugar?", start, paper).kind, "route");
  assert.equal(decideRoute("hello", start, paper).kind, "route");
  // The whole platform runs every service: nothing is "not offered" there.
  assert.notEqual(decideRoute("I want a moto", start, platformRouter(PACKS)).kind, "not_offered");
});
