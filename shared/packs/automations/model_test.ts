import assert from "node:assert/strict";
import { z } from "zod";
import {
  type AutomationCatalog,
  AutomationSpecSchema,
  checkAutomation,
  conditionHolds,
  cronProblem,
  nextSlot as nextSlotIn,
  placeholder,
  renderArgs,
} from "./model.ts";
import { slackSettingsFromEnv } from "./catalog.ts";

const EVENT = {
  name: "thing_happened",
  description: "test",
  payload: z.object({ text: z.string(), total: z.number(), who: z.string().nullable() }),
};
const catalog: AutomationCatalog = {
  events: () => [EVENT],
  timeZone: () => "UTC",
  tool: (_org, name) =>
    name === "count_it" ? { input: z.strictObject({ n: z.number(), label: z.string() }) } : null,
};

function spec(overrides: Record<string, unknown>) {
  return AutomationSpecSchema.parse({
    name: "t",
    trigger: { event: "thing_happened" },
    actions: [{ tool: "count_it", args: { n: "{{event.total}}", label: "{{event.text}}!" } }],
    ...overrides,
  });
}

Deno.test("checkAutomation() accepts templates of the right type and names wrong ones by path", () => {
  assert.deepEqual(checkAutomation(spec({}), "org", catalog), []);
  // A whole-string template of a text field where the tool wants a number is refused at its path.
  const issues = checkAutomation(
    spec({ actions: [{ tool: "count_it", args: { n: "{{event.text}}", label: "x" } }] }),
    "org",
    catalog,
  );
  assert.deepEqual(issues.map((issue) => issue.path), ["actions.0.args.n"]);
  assert.deepEqual(
    checkAutomation(spec({ condition: { path: "total", op: "gt", value: "10" } }), "org", catalog)
      .map((issue) => issue.path),
    ["condition.value"],
  );
  assert.deepEqual(
    checkAutomation(
      spec({ actions: [{ tool: "count_it", args: { n: 1, label: "{{text}}" } }] }),
      "org",
      catalog,
    ).map((issue) => issue.path),
    ["actions.0.args.label"],
  );
});

Deno.test("conditionHolds() applies each operator, case-folded when asked", () => {
  const payload = { text: "URGENT my order", total: 12, who: null };
  const holds = (op: string, path: string, value?: unknown, case_insensitive = false) =>
    conditionHolds({ op: op as "equals", path, value: value as string, case_insensitive }, payload);
  assert.equal(holds("contains", "text", "urgent"), false);
  assert.equal(holds("contains", "event.text", "urgent", true), true);
  assert.equal(holds("starts_with", "text", "urgent", true), true);
  assert.equal(holds("equals", "total", 12), true);
  assert.equal(holds("not_equals", "total", 12), false);
  assert.equal(holds("gt", "total", 10), true);
  assert.equal(holds("lt", "total", 10), false);
  assert.equal(holds("in", "text", ["urgent my order"], true), true);
  assert.equal(holds("exists", "who"), false);
  assert.equal(holds("exists", "text"), true);
});

Deno.test("renderArgs() keeps a whole template's type and writes null as nothing in text", () => {
  assert.deepEqual(
    renderArgs({ n: "{{ event.total }}", label: "{{event.text}} by {{event.who}}", k: [1] }, {
      total: 3,
      text: "hi",
      who: null,
    }),
    { n: 3, label: "hi by ", k: [1] },
  );
});

Deno.test("nextSlot() gives the next slot of every_minutes and of cron, in UTC", () => {
  const at = new Date("2026-11-27T08:07:30Z");
  const nextSlot = (schedule: { every_minutes?: number; cron?: string }, after: Date) =>
    nextSlotIn(schedule, after, { timeZone: "UTC" });
  assert.equal(nextSlot({ every_minutes: 15 }, at).toISOString(), "2026-11-27T08:15:00.000Z");
  assert.equal(nextSlot({ cron: "0 9 * * 1-5" }, at).toISOString(), "2026-11-27T09:00:00.000Z");
  // 2026-11-27 is a Friday: the next Monday-only slot is the 30th.
  assert.equal(nextSlot({ cron: "30 6 * * 1" }, at).toISOString(), "2026-11-30T06:30:00.000Z");
  assert.equal(nextSlot({ cron: "*/20 * * * *" }, at).toISOString(), "2026-11-27T08:20:00.000Z");
  assert.equal(nextSlot({ cron: "0 0 1 1 *" }, at).toISOString(), "2027-01-01T00:00:00.000Z");
  assert.match(cronProblem("* * *") ?? "", /5 fields/);
  assert.match(cronProblem("0 24 * * *") ?? "", /hour/);
  assert.equal(cronProblem("0,30 8-17/2 * * 0,7"), null);
});

Deno.test("slackSettingsFromEnv() reads the prefixes and refuses a bad one", () => {
  const env = (value?: string) => ({ get: () => value });
  assert.deepEqual(slackSettingsFromEnv(env()).webhookPrefixes, [
    "https://hooks.slack.com/services/",
  ]);
  assert.deepEqual(
    slackSettingsFromEnv(env("http://127.0.0.1:9999/services/, https://hooks.slack.com/services/"))
      .webhookPrefixes,
    ["http://127.0.0.1:9999/services/", "https://hooks.slack.com/services/"],
  );
  assert.throws(() => slackSettingsFromEnv(env("hooks.slack.com")), RangeError);
});

Deno.test("placeholder() stands in with a value each field's own schema accepts", () => {
  const fields = {
    id: z.uuid(),
    maybe: z.uuid().nullable(),
    n: z.int(),
    kind: z.enum(["settled", "failed"]),
    on: z.boolean(),
    text: z.string(),
  };
  for (const [name, schema] of Object.entries(fields)) {
    assert.equal(schema.safeParse(placeholder(schema)).success, true, name);
  }
});

Deno.test("a rule's names, event, cron, paths and compared texts refuse NUL and control characters by field", () => {
  const base = {
    name: "urgent",
    trigger: { event: "thing_happened" },
    condition: { path: "text", op: "contains", value: "urgent" },
    actions: [{ tool: "count_it", args: { n: 1, label: "x" } }],
  };
  assert.equal(AutomationSpecSchema.safeParse(base).success, true);
  const bad: Array<[Record<string, unknown>, string]> = [
    [{ ...base, name: "\u0000\u0000" }, "name"],
    [{ ...base, trigger: { event: "thing\u0000" } }, "trigger.event"],
    [{ ...base, trigger: { schedule: { cron: "0 8 * * *\u0000" } } }, "trigger.schedule.cron"],
    [{ ...base, condition: { path: "te\u0000xt", op: "exists" } }, "condition.path"],
    [
      { ...base, condition: { path: "text", op: "contains", value: "a\u0000" } },
      "condition.value",
    ],
    [
      { ...base, condition: { path: "text", op: "in", value: ["ok", "\ud800"] } },
      "condition.value",
    ],
    [{ ...base, actions: [{ tool: "count\u0000", args: {} }] }, "actions.0.tool"],
  ];
  for (const [input, path] of bad) {
    const result = AutomationSpecSchema.safeParse(input);
    assert.equal(result.success, false, path);
    assert.ok(
      result.error!.issues.some((issue) => issue.path.join(".").startsWith(path)),
      `${path}: ${JSON.stringify(result.error!.issues.map((issue) => issue.path.join(".")))}`,
    );
  }
  // A compared text keeps its own spaces and line breaks.
  const spaced = AutomationSpecSchema.parse({
    ...base,
    condition: { path: "text", op: "equals", value: " two\nlines " },
  });
  assert.equal(spaced.condition?.value, " two\nlines ");
});
