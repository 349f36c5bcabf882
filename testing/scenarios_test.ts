import assert from "node:assert/strict";
import { englishLeaks, suitePart } from "./scenario_suite.ts";
import {
  limitProblems,
  loadScenarios,
  parseScenario,
  runScenario,
  ScenarioFileError,
  selectScenarios,
} from "./scenarios.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test("the English check follows the language the user asks for or writes in", () => {
  const transcript = [
    "user: ndashaka moto",
    "bot: Wed 25 Nov",
    "user: Kimironko",
    "bot: 1,500 RWF / stick",
    "user: Hello, I speak English please",
    "bot: Kwishyura 3,950 RWF kuri Ride Kimironko · Wed 25 Nov",
    "user: parlez français",
    "bot: 2 000 RWF / glass",
  ];
  assert.deepEqual(englishLeaks(transcript, "rw"), [
    "bot: Wed 25 Nov",
    "bot: 1,500 RWF / stick",
    "bot: 2 000 RWF / glass",
  ]);
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

Deno.test(
  "a scripted model answers through the agent's model path; off script fails",
  opts,
  async () => {
    const scenario = (model: string) =>
      parseScenario(
        `
name: scripted
mode: scripted
user: { phone: "+250788000078" }
model:
${model}
turns:
  - say: Hi, I'd like a beef brochette at Café Nyamirambo
expect:
  - sql: select 1 from public.orders
    count: 0
  - contains: "Beef brochette"
`,
        "inline.yaml",
      );
    // The router is sure it is Waiter AI (it does not ask the model); the model looks the menu
    // up and quotes the result it was sent back.
    const good = await runScenario(scenario(`
  - call: search_supabase
    args:
      table: products
      columns: [sku, name]
      filters: [{ column: sku, op: eq, value: BRO-BEEF }]
      limit: 1
  - say: "We have {{search_supabase.items.0.name}}."
`));
    assert.deepEqual(good.failures, []);
    assert.match(good.transcript.at(-1)!, /^bot: We have Beef brochette\.$/);
    // A tool outside Waiter AI's allowlist is no quiet fallback to the offline flow.
    const outside = await runScenario(scenario(`
  - call: ride_request
    args: { vehicle_type: moto }
`));
    assert.equal(outside.passed, false);
    assert.match(
      outside.failures[0],
      /^turn 1 .*off the model script: .*ride_request is not among the agent's tools \(.*order_create/,
    );
    // A placeholder with no earlier result, and steps left over, fail too.
    const unknown = await runScenario(scenario(`
  - say: "Order {{order_create.order_no}}"
`));
    assert.match(unknown.failures[0], /no earlier result for order_create\.order_no/);
    const left = await runScenario(scenario(`
  - say: "Beef brochette it is."
  - say: never asked
`));
    assert.deepEqual(left.failures, ["the model script has 1 step(s) left unused"]);
    // A routing answer the router never asks for (its classifier is sure) is off script too.
    const unasked = await runScenario(scenario(`
  - route: waiter_ai
  - say: "Beef brochette it is."
`));
    assert.match(unasked.failures[0], /the agent asked, but the next step routes/);
  },
);

Deno.test("another party taps a button of the latest message to them", opts, async () => {
  const scenario = parseScenario(`
name: venue taps
user: { phone: "+250788000078" }
turns:
  - say: I want to order food
  - tap: "venue:c0000000-0000-4000-8000-000000000002"
  - tap: "item:BRO-BEEF"
  - tap: agent_confirm
  - as: "+250788000005"
    tap: "order:A-1001:confirmed"
  - as: "+250788000005"
    tap: Livrée
expect:
  - sql: select status from public.orders
    equals: [{ status: confirmed }]
`);
  const result = await runScenario(scenario);
  assert.equal(result.passed, false);
  assert.ok(
    result.transcript.includes("+250788000005: [tap Confirmer]"),
    result.transcript.join("\n"),
  );
  assert.match(
    result.failures[0],
    /^turn 6 \(as \+250788000005 tap "Livrée"\): no such choice; .*order:A-1001:preparing/,
  );
});

Deno.test("scripted scenarios need model steps and run with the offline suite", () => {
  assert.throws(
    () =>
      parseScenario(
        `
name: no steps
mode: scripted
user: { phone: "+250788000001" }
turns: [{ say: hi }]
expect: [{ sql: select 1 }]
`,
        "s.yaml",
      ),
    /s\.yaml: model: a scenario has "model" steps exactly when its mode is "scripted"/,
  );
  const base = { user: { phone: "+250788000001" }, turns: [{ say: "hi" }], expect: [] };
  const scenarios = (["scripted", "model", "deterministic"] as const).map((mode) => ({
    ...base,
    name: `s_${mode}`,
    mode,
  }));
  assert.deepEqual(selectScenarios(scenarios, { mode: "deterministic" }).map((s) => s.name), [
    "s_scripted",
    "s_deterministic",
  ]);
  assert.deepEqual(selectScenarios(scenarios, { mode: "model" }).map((s) => s.name), ["s_model"]);
});

Deno.test("a choices expectation fails naming the choices offered", opts, async () => {
  const scenario = parseScenario(`
name: titles
user: { phone: "+250788000001" }
turns:
  - say: I want to order food
  - tap: Kimironko Brochettes…
expect:
  - choices: [Grilled chicken (quarter)]
`);
  const result = await runScenario(scenario);
  assert.equal(result.passed, false);
  assert.equal(result.failures.length, 1, result.failures.join("\n"));
  assert.match(
    result.failures[0],
    /^expect\[0\] .*last choices offered.*: the last choices offered were .*"Grilled chicken… \(4,500 RWF \/ plate\)"/,
  );
});

Deno.test("a message over WhatsApp's limits is named, one problem a line", () => {
  const list = (rows: Array<{ title: string; description?: string }>, section = "Venues") => ({
    type: "interactive",
    interactive: {
      type: "list",
      body: { text: "Pick one" },
      action: { button: "Choose", sections: [{ title: section, rows }] },
    },
  });
  assert.deepEqual(limitProblems(list([{ title: "Kimironko Brochettes…", description: "x" }])), []);
  assert.deepEqual(limitProblems({ type: "text", text: { body: "x".repeat(500) } }), []);
  assert.deepEqual(
    limitProblems(
      list(
        [{ title: "Kimironko Brochettes & Grill", description: "d".repeat(73) }],
        "Restaurants near Kimironko",
      ),
    ),
    [
      'section title "Restaurants near Kimironko" has 26 characters (max 24)',
      'row title "Kimironko Brochettes & Grill" has 28 characters (max 24)',
      `row description "${"d".repeat(73)}" has 73 characters (max 72)`,
    ],
  );
  const buttons = (titles: string[]) => ({
    type: "interactive",
    interactive: {
      type: "button",
      body: { text: "Shall I ask the nearest drivers?" },
      action: {
        buttons: titles.map((title, i) => ({ type: "reply", reply: { id: `b${i}`, title } })),
      },
    },
  });
  assert.deepEqual(limitProblems(buttons(["Shaka umushoferi", "Reka"])), []);
  assert.deepEqual(limitProblems(buttons(["Yego, shaka umushoferi", "Reka", "A", "B"])), [
    "4 buttons (max 3)",
    'button title "Yego, shaka umushoferi" has 22 characters (max 20)',
  ]);
  assert.deepEqual(
    limitProblems(list(Array.from({ length: 11 }, (_, i) => ({ title: `Row ${i}` })))),
    ["11 list rows (max 10)"],
  );
});

Deno.test("the suite's parts hold every offline scenario once", async () => {
  const all = selectScenarios(await loadScenarios(), { mode: "deterministic" })
    .filter((scenario) => !scenario.name.startsWith("insurance_"))
    .map((scenario) => scenario.name).sort();
  const parts = await Promise.all([1, 2, 3].map((part) => suitePart({ part, parts: 3 })));
  assert.deepEqual(parts.flat().map((scenario) => scenario.name).sort(), all);
  for (const part of parts) assert.ok(part.length >= all.length / 3 - 1);
});
