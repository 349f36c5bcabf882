import assert from "node:assert/strict";
import { assertSuitePasses, loadScenarios, selectScenarios } from "./scenarios.ts";

// Apart from the other scenarios so the two files run side by side: these read photos and
// render certificates.
Deno.test(
  "every insurance scenario in config/scenarios passes",
  { sanitizeOps: false, sanitizeResources: false },
  async () => {
    const scenarios = selectScenarios(await loadScenarios(), {
      mode: "deterministic",
      filter: "insurance_",
    });
    assert.ok(scenarios.length >= 4, `only ${scenarios.length} scenario(s)`);
    await assertSuitePasses(scenarios);
  },
);
