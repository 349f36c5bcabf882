import assert from "node:assert/strict";
import { assertSuitePasses, loadScenarios, playOffline, selectScenarios } from "./scenarios.ts";
import { englishLeaks } from "./scenario_suite.ts";
import { runsOnPglite } from "./db.ts";

// On PGlite, where the PGlite half of the database tests runs (see scenario_suite.ts).
const opts = {
  sanitizeOps: false,
  sanitizeResources: false,
  ignore: !runsOnPglite(),
};

async function insuranceScenarios() {
  return selectScenarios(await loadScenarios(), { mode: "deterministic", filter: "insurance_" });
}

// Apart from the other scenarios so the two files run side by side: these read photos and
// render certificates.
Deno.test("every insurance scenario in config/scenarios passes", opts, async () => {
  const scenarios = await insuranceScenarios();
  assert.ok(scenarios.length >= 4, `only ${scenarios.length} scenario(s)`);
  await assertSuitePasses(scenarios);
});

// As the other parts of the suite check theirs (scenario_suite.ts), on the plays above.
Deno.test(
  "no reply to a rw or fr user in the insurance scenarios holds an English word",
  opts,
  async () => {
    const found: string[] = [];
    for (const scenario of (await insuranceScenarios()).filter((s) => /_(rw|fr)$/.test(s.name))) {
      const result = await playOffline(scenario);
      const language = scenario.name.endsWith("_rw") ? "rw" : "fr";
      for (const line of englishLeaks(result.transcript, language)) {
        found.push(`${scenario.name}: ${line}`);
      }
    }
    assert.deepStrictEqual(found, []);
  },
);
