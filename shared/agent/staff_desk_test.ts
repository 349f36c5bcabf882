import assert from "node:assert/strict";
import { fail, type ToolResult } from "@shared/contract/mod.ts";
import { callWithConfirmation, confirmedOutcome } from "@shared/registry/offline_steps.ts";
import { statelessFlow } from "@shared/registry/flow_memory.ts";
import type { OfflineFlow, Pack, PackAgent } from "@shared/registry/pack.ts";
import { agentRoster, tenantRoster } from "./roster.ts";
import { type StaffDeskTurn, staffDeskTurn } from "./staff_desk.ts";
import { ModelUnavailableError } from "./model.ts";

const identity = { description: "Test agent.", tools: [] } as const;

// Sends a report once confirmed; says what the confirmed call answered.
const reportFlow: OfflineFlow = async (turn, callTool) => {
  const reported = confirmedOutcome(turn, () => "Report sent.");
  if (reported) return reported;
  if (turn.input.text === "send") {
    return await callWithConfirmation(turn, callTool, {
      tool: "send_report",
      args: { to: "board" },
      step: "send",
    });
  }
  return { replies: [{ text: `reports: ${turn.input.choice ?? turn.input.text}` }] };
};

const agents: PackAgent[] = [
  {
    ...identity,
    id: "desk",
    name: "Desk",
    audience: "customers",
    role: "front_desk",
    ...statelessFlow(() => Promise.resolve({ replies: [{ text: "customer welcome" }] })),
  },
  { ...identity, id: "person", name: "Person", audience: "customers", role: "handoff" },
  { ...identity, id: "shop", name: "Shop", audience: "customers", role: "fallback" },
  {
    ...identity,
    id: "reports",
    name: "Reports",
    audience: "staff",
    menuTitle: { en: "Reports", rw: "Raporo", fr: "Rapports" },
    offlineFlow: reportFlow,
  },
];
const pack: Pack = { id: "p", tools: [], agents, tables: {}, texts: {}, services: [] };
const roster = tenantRoster(agentRoster([pack]), new Set(["desk", "shop", "reports"]));

function desk(
  calls: Array<{ tool: string; confirmation?: string }>,
  answer: (confirmation?: string) => ToolResult,
) {
  return (input: StaffDeskTurn["input"], state: unknown, extra: Partial<StaffDeskTurn> = {}) =>
    staffDeskTurn({
      input,
      state,
      locale: "en",
      roster,
      callTool: (_agent, tool, _args, options) => {
        calls.push({ tool, confirmation: options.confirmation });
        return Promise.resolve(answer(options.confirmation));
      },
      ...extra,
    });
}

Deno.test("staffDeskTurn() lists the tenant's staff agents and enters one; customer agents are not on it", async () => {
  const turn = desk([], () => fail("NOT_FOUND"));
  const menu = await turn({ wamid: "w1", text: "hello" }, {});
  assert.deepEqual(menu.replies[0].rows?.map((row) => row.id), ["staff:reports"]);
  // A tap on a customer agent or an unknown one is the menu again.
  for (const choice of ["staff:shop", "staff:desk", "agent:reports", "staff:nobody"]) {
    const refused = await turn({ wamid: "w2", text: "x", choice }, {});
    assert.equal(refused.state.agent, "", choice);
    assert.deepEqual(refused.replies[0].rows?.map((row) => row.id), ["staff:reports"]);
  }
  const entered = await turn({ wamid: "w3", text: "Reports", choice: "staff:reports" }, {});
  assert.equal(entered.state.agent, "reports");
  assert.deepEqual(entered.replies, [{ text: "reports: agent:reports" }]);
  const said = await turn({ wamid: "w4", text: "numbers please" }, entered.state);
  assert.deepEqual(said.replies, [{ text: "reports: numbers please" }]);
  const back = await turn({ wamid: "w5", text: "Retour" }, said.state);
  assert.equal(back.state.agent, "");
  // The router's menu wishes, in en/fr/rw, as customers say them; "00" too.
  for (const text of ["go back to the start", "retour au début", "subira ahabanza", "00"]) {
    const again = await turn({ wamid: `w6:${text}`, text }, said.state);
    assert.equal(again.state.agent, "", text);
  }
});

Deno.test("staffDeskTurn() asks before a call that needs confirmation, then reports it", async () => {
  const calls: Array<{ tool: string; confirmation?: string }> = [];
  // As the pipeline does: the call is made only with the token its read-back gave.
  const turn = desk(
    calls,
    (confirmation) =>
      confirmation === "t1"
        ? { ok: true, data: { sent: true } }
        : fail("CONFIRMATION_REQUIRED", "Confirm", {
          confirmation: {
            summary: "Send the report to the board",
            token: "t1",
            expires_at: "2030-01-01T00:00:00Z",
          },
        }),
  );
  const entered = await turn({ wamid: "w1", text: "", choice: "staff:reports" }, {});
  const asked = await turn({ wamid: "w2", text: "send" }, entered.state);
  assert.equal(asked.replies.at(-1)?.text, "Please confirm: Send the report to the board");
  assert.deepEqual(asked.replies.at(-1)?.buttons?.map((b) => b.id), [
    "agent_confirm",
    "agent_cancel",
  ]);
  assert.equal(asked.state.pending?.tool, "send_report");
  const done = await turn({ wamid: "w3", text: "Confirm", choice: "agent_confirm" }, asked.state);
  assert.deepEqual(done.replies, [{ text: "Report sent." }]);
  assert.equal(done.state.pending, null);
  // Asked (no token), asked again for a fresh token, then made with it.
  assert.deepEqual(calls.map((call) => call.confirmation), [undefined, undefined, "t1"]);

  // Cancelled: nothing made, and the flow says so.
  calls.length = 0;
  const again = await turn({ wamid: "w4", text: "send" }, done.state);
  const cancelled = await turn(
    { wamid: "w5", text: "Cancel", choice: "agent_cancel" },
    again.state,
  );
  assert.deepEqual(cancelled.replies, [{ text: "OK, I cancelled that." }]);
  assert.equal(calls.length, 1);
});

Deno.test("staffDeskTurn() lets a model answer words, and the flow when the model is unavailable", async () => {
  const calls: Array<{ tool: string }> = [];
  const turn = desk(calls, () => ({ ok: true, data: { items: [] } }));
  const entered = await turn({ wamid: "w1", text: "", choice: "staff:reports" }, {});
  let asked = 0;
  const model = {
    complete: () => {
      asked++;
      return Promise.resolve(
        asked === 1
          ? { content: "", tool_calls: [{ id: "c1", name: "lookup", args: {} }] }
          : { content: "Nothing found.", tool_calls: [] },
      );
    },
  };
  const answered = await turn({ wamid: "w2", text: "anything?" }, entered.state, {
    model,
    toolsFor: () => [],
  });
  assert.deepEqual(answered.replies, [{ text: "Nothing found." }]);
  assert.deepEqual(calls.map((call) => call.tool), ["lookup"]);
  assert.equal(answered.state.messages.length, 4);

  const failures: string[] = [];
  const down = {
    complete: () => Promise.reject(new ModelUnavailableError("no answer", { reason: "timeout" })),
  };
  const offline = await turn({ wamid: "w3", text: "anything?" }, answered.state, {
    model: down,
    isModelFailure: (error): error is ModelUnavailableError =>
      error instanceof ModelUnavailableError,
    onModelFailure: (_error, agent) => void failures.push(agent),
  });
  assert.deepEqual(offline.replies, [{ text: "reports: anything?" }]);
  assert.deepEqual(failures, ["reports"]);
});

Deno.test("staffDeskTurn() keeps the member's language when they tap a row with English words in it", async () => {
  const turn = desk([], () => fail("NOT_FOUND"));
  const menu = await turn({ wamid: "w1", text: "muraho" }, {});
  assert.equal(menu.state.language, "rw");
  const entered = await turn({ wamid: "w2", text: "Raporo", choice: "staff:reports" }, menu.state);
  // The row's title is ours ("weekend_offer — rw · offer", "hello please"): no evidence of theirs.
  const tapped = await turn(
    { wamid: "w3", text: "hello please, i need the offer", choice: "template:weekend_offer" },
    entered.state,
  );
  assert.equal(tapped.state.language, "rw");
  // Their own words still switch it.
  const typed = await turn({ wamid: "w4", text: "hello, I need the numbers please" }, tapped.state);
  assert.equal(typed.state.language, "en");
});
