import assert from "node:assert/strict";
import { platformRouter } from "@shared/platform/router.ts";
import { PACKS } from "@shared/packs/mod.ts";

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
