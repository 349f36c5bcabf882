import assert from "node:assert/strict";
import { assertSuitePasses, loadScenarios, selectScenarios } from "./scenarios.ts";
import { testBackends } from "./db.ts";

// Apart from the other scenarios so the two files run side by side: these read photos and
// render certificates.
Deno.test(
  "every insurance scenario in config/scenarios passes",
  // On PGlite, where the PGlite half of the database tests runs (see scenario_suite.ts).
  { sanitizeOps: false, sanitizeResources: false, ignore: !testBackends().includes("pglite") },
  async () => {
    const scenarios = selectScenarios(await loadScenarios(), {
      mode: "deterministic",
      filter: "insurance_",
    });
    assert.ok(scenarios.length >= 4, `only ${scenarios.length} scenario(s)`);
    await assertSuitePasses(scenarios);
  },
);
