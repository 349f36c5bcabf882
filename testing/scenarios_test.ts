import assert from "node:assert/strict";
import {
  loadScenarios,
  parseScenario,
  runScenario,
  runSuite,
  ScenarioFileError,
  selectScenarios,
} from "./scenarios.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test("every scenario in config/scenarios passes with the buy & sell flow", opts, async () => {
  const scenarios = selectScenarios(await loadScenarios(), { mode: "deterministic" });
  assert.ok(scenarios.length >= 3, `only ${scenarios.length} scenario(s)`);
  const report = await runSuite(scenarios, { k: 1, backend: "pglite" });
  const failed = report.results.filter((result) => !result.runs.every(Boolean)).map((result) =>
    `${result.name}:\n    ${result.outcomes.flatMap((o) => o.failures).join("\n    ")}\n` +
    `  transcript:\n    ${result.outcomes.at(-1)!.transcript.join("\n    ")}`
  );
  assert.deepEqual(failed, []);
  assert.equal(report.passHatK, 1);
  assert.equal(report.passAt1, 1);
});

Deno.test("a wrong expectation fails and its failure names the expectation", opts, async () => {
  const scenario = parseScenario(
    `
name: wrong
user: { phone: "+250788000001" }
turns:
  - say: Please, I want to talk to a person
expect:
  - label: tickets raised
    sql: select reason from public.staff_tickets
    equals: [{ reason: asked for a robot }]
  - sql: select 1 from public.staff_tickets
    count: 2
  - contains: "no such words"
  - sql: select status from public.conversations
    equals: [{ status: handoff }]
`,
    "inline.yaml",
  );
  const result = await runScenario(scenario);
  assert.equal(result.passed, false);
  assert.equal(result.failures.length, 3, result.failures.join("\n"));
  assert.match(
    result.failures[0],
    /^expect\[0\] "tickets raised": expected rows .*asked for a robot/,
  );
  assert.match(result.failures[0], /got \[\{"reason":"asked for a person"\}\]/);
  assert.match(result.failures[1], /^expect\[1\] "select 1 from public.staff_tickets": expected 2/);
  assert.match(result.failures[2], /^expect\[2\] .*no such words/);
  assert.deepEqual(result.transcript.slice(0, 1), ["user: Please, I want to talk to a person"]);
  assert.match(result.transcript[1], /^bot: .*person from our team/);
});

Deno.test("a tap that matches no choice fails the run naming the turn", opts, async () => {
  const scenario = parseScenario(
    `
name: bad tap
user: { phone: "+250788000001" }
turns:
  - location: { latitude: -1.9536, longitude: 30.0925 }
  - say: paracetamol
  - tap: 7
expect:
  - sql: select 1
`,
  );
  const result = await runScenario(scenario);
  assert.equal(result.passed, false);
  assert.match(result.failures[0], /^turn 3 \(tap 7\): no such choice.*1\. concierge_ask/);
});

Deno.test("invalid scenario files are refused with their file and path", () => {
  assert.throws(
    () =>
      parseScenario(
        `
name: broken
user: { phone: "0788000001" }
turns:
  - say: hi
    tap: 1
  - as: "+250788000009"
expect: []
`,
        "config/scenarios/broken.yaml",
      ),
    (error: unknown) => {
      assert.ok(error instanceof ScenarioFileError);
      const text = error.issues.join("\n");
      assert.match(text, /config\/scenarios\/broken\.yaml: user\.phone: must be a phone number/);
      assert.match(text, /broken\.yaml: turns\[0\]: a turn has exactly one of/);
      assert.match(text, /broken\.yaml: turns\[1\]: a turn with "as" needs "say"/);
      assert.match(text, /broken\.yaml: expect: /);
      return true;
    },
  );
  assert.throws(() => parseScenario("name: [", "x.yaml"), /x\.yaml: YAML syntax/);
});

Deno.test("scenarios are selected by mode and name", () => {
  const base = { user: { phone: "+250788000001" }, turns: [{ say: "hi" }], expect: [] };
  const scenarios = (["any", "model", "deterministic"] as const).map((mode) => ({
    ...base,
    name: `s_${mode}`,
    mode,
  }));
  assert.deepEqual(selectScenarios(scenarios, { mode: "model" }).map((s) => s.name), [
    "s_any",
    "s_model",
  ]);
  assert.deepEqual(
    selectScenarios(scenarios, { mode: "deterministic", filter: "DET" }).map((s) => s.name),
    ["s_deterministic"],
  );
});
