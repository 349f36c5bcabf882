// An agent with `tool_discovery`: its model starts with the discovery tools only, searches,
// fetches the schema of a tool it had not been given, calls it and answers, through the real
// webhook, the pipeline and the OpenAI wire format (a scripted model on a loopback server).
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { bodyText, startAgentChannel } from "@testing/agent_channel.ts";
import { type Script, startScriptedOpenAI } from "@testing/openai_server.ts";
import { scriptedModel } from "@testing/scripted_model.ts";
import { AGENT_CONFIGS } from "../../config/agent_configs.ts";
import { createOpenAIModel } from "./model.ts";
import { discoveryOf, DiscoveryTurn } from "./tool_discovery.ts";
import type { AnyTool } from "@shared/registry/registry.ts";

const FROM = "250788000071";
// Five model steps in one turn: under CI's load they outlasted the turn's 10 s deadline and the
// turn was answered offline, a timing these tests do not check (model_outage_test covers it).
const ROOMY_TURN = { deadlineMs: 120_000 };

/** The bundled agent file with EasyMO's property agent discovering its tools. */
function withDiscovery(agent: string): unknown {
  const config = structuredClone(AGENT_CONFIGS) as {
    tenants: Record<string, { agents: Array<{ id: string; tool_discovery?: boolean }> }>;
  };
  const entry = config.tenants.easymo.agents.find((candidate) => candidate.id === agent);
  assert.ok(entry, `easymo runs ${agent}`);
  entry.tool_discovery = true;
  return config;
}

type Body = {
  tools?: Array<{ function: { name: string } }>;
  messages: Array<{ role: string; content?: unknown }>;
};

dbTest(
  "an agent with discovery finds, fetches and calls a tool it had not been given",
  async (db) => {
    const model = scriptedModel([
      { call: "search_tools", args: { query: "house to rent in Kimironko" } },
      // Not this agent's tool: the fetch names it as unknown and binds nothing.
      { call: "fetch_tool_schemas", args: { names: ["broadcast_schedule"] } },
      { call: "fetch_tool_schemas", args: { names: ["property_search"] } },
      { call: "property_search", args: { area: "Kimironko", bedrooms: 2 } },
      { say: "Here is what I found in Kimironko." },
    ]);
    await using server = startScriptedOpenAI({ script: model.script });
    const channel = await startAgentChannel(
      db,
      {
        model: createOpenAIModel({ apiKey: server.apiKey, baseURL: server.baseURL, model: "test" }),
        modelTurn: ROOMY_TURN,
      },
      { agentConfig: withDiscovery("property"), catalogSync: true },
    );
    await channel.rt.platform.catalog.settled();

    const reply = await channel.say(FROM, { text: "I want to rent a house in Kimironko" });
    assert.deepEqual(model.problems, []);
    assert.equal(model.remaining(), 0);
    assert.equal(bodyText(reply), "Here is what I found in Kimironko.");

    const bodies = server.requests
      .map((request) => JSON.parse(JSON.stringify(request.body)) as Body)
      .filter((body) => body.tools?.length);
    const offered = (body: Body) => body.tools!.map((tool) => tool.function.name).sort();
    // The model starts with the three discovery tools, not the agent's schemas.
    assert.deepEqual(offered(bodies[0]), ["fetch_tool_schemas", "list_tools", "search_tools"]);
    // The search found the tool; the fetch of another agent's tool bound nothing.
    const toolResults = bodies.at(-1)!.messages.filter((message) => message.role === "tool")
      .map((message) => JSON.parse(String(message.content)));
    assert.ok(
      toolResults[0].data.results.some((hit: { name: string }) => hit.name === "property_search"),
      JSON.stringify(toolResults[0]),
    );
    assert.equal(toolResults[1].error.code, "NOT_FOUND");
    assert.deepEqual(offered(bodies[2]), ["fetch_tool_schemas", "list_tools", "search_tools"]);
    // After its schema was fetched, property_search is offered and its call went through.
    assert.deepEqual(offered(bodies[3]), [
      "fetch_tool_schemas",
      "list_tools",
      "property_search",
      "search_tools",
    ]);
    assert.equal(toolResults[3].ok, true, JSON.stringify(toolResults[3]));

    await channel.rt.platform.traces.flush();
    const traces = await db.query<{ tool: string; agent_id: string; error_code: string | null }>(
      `select tool, agent_id, error_code from public.tool_calls
     where agent_id = 'property'`,
    );
    // Every call went through the pipeline, traced as the agent's (the order is the messages').
    assert.deepEqual(
      traces.map((trace) => `${trace.tool}:${trace.error_code ?? "ok"}`).sort(),
      [
        "fetch_tool_schemas:NOT_FOUND",
        "fetch_tool_schemas:ok",
        "property_search:ok",
        "search_tools:ok",
      ],
    );
    await channel.rt.platform.close();
  },
);

dbTest("an agent with discovery cannot call a tool whose schema it did not fetch", async (db) => {
  // A model that guesses a tool's name and arguments instead of fetching its schema.
  const script: Script = [
    { tool_calls: [{ name: "property_search", arguments: { area: "Kimironko" } }] },
    { content: "Let me look that up properly." },
  ];
  await using server = startScriptedOpenAI({ script });
  const channel = await startAgentChannel(
    db,
    {
      model: createOpenAIModel({ apiKey: server.apiKey, baseURL: server.baseURL, model: "test" }),
      modelTurn: ROOMY_TURN,
    },
    { agentConfig: withDiscovery("property"), catalogSync: true },
  );
  await channel.rt.platform.catalog.settled();
  const reply = await channel.say(FROM, { text: "I want to rent a house in Kimironko" });
  assert.equal(bodyText(reply), "Let me look that up properly.");
  const last = JSON.parse(JSON.stringify(server.requests.at(-1)!.body)) as Body;
  const result = JSON.parse(String(last.messages.find((m) => m.role === "tool")?.content));
  assert.equal(result.error.code, "VALIDATION_ERROR");
  assert.deepEqual(result.error.fields, [{
    path: "tool",
    message: "not fetched this turn: property_search",
  }]);
  await channel.rt.platform.traces.flush();
  const calls = await db.query("select 1 from public.tool_calls where tool = 'property_search'");
  assert.equal(calls.length, 0);
  await channel.rt.platform.close();
});

Deno.test("DiscoveryTurn binds only what a fetch answered of the agent's own tools", () => {
  const tool = (name: string) => ({ name }) as unknown as AnyTool;
  const tools = ["list_tools", "search_tools", "fetch_tool_schemas", "a", "b"].map(tool);
  const names = (turn: DiscoveryTurn) => turn.offered().map((t) => t.name).sort();
  const turn = new DiscoveryTurn(tools, discoveryOf({ toolDiscovery: true }));
  assert.deepEqual(names(turn), ["fetch_tool_schemas", "list_tools", "search_tools"]);
  assert.equal(turn.maxSteps(4), 6);
  assert.equal(turn.refusal("a")?.ok, false);
  assert.equal(turn.refusal("search_tools"), null);
  // A failed fetch binds nothing; a fetch of another tool (not the agent's) is never offered.
  turn.observe("fetch_tool_schemas", { ok: false, error: { code: "NOT_FOUND", msg: "x" } });
  turn.observe("fetch_tool_schemas", { ok: true, data: { tools: [{ name: "a" }, { name: "z" }] } });
  // Only the fetch tool's answer binds.
  turn.observe("search_tools", { ok: true, data: { tools: [{ name: "b" }] } });
  assert.deepEqual(names(turn), ["a", "fetch_tool_schemas", "list_tools", "search_tools"]);
  assert.equal(turn.refusal("a"), null);
  assert.equal(turn.refusal("b")?.ok, false);

  const plain = new DiscoveryTurn(tools, discoveryOf({ toolDiscovery: false }));
  assert.equal(plain.offered().length, tools.length);
  assert.equal(plain.refusal("a"), null);
  assert.equal(plain.maxSteps(4), 4);
});
