// An agent with `tenant_tools` is offered its tenant's generated tools and calls one against the
// tenant's API (a loopback server implementing the document), through the real webhook, the
// pipeline and the OpenAI wire format; the document is registered by staff through another
// instance, so the agent's instance learns of the tools at its next turn. Without
// `tenant_tools` the same agent is neither offered nor allowed them.
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { bodyText, startAgentChannel } from "@testing/agent_channel.ts";
import { startScriptedOpenAI } from "@testing/openai_server.ts";
import { scriptedModel } from "@testing/scripted_model.ts";
import { callConfirmed, createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import {
  allowTenantApiOnLoopback,
  PET_API_KEY,
  petstoreDocument,
  startTenantApi,
} from "@testing/tenant_api_server.ts";
import type { Database } from "@shared/db/types.ts";
import { AGENT_CONFIGS } from "../../config/agent_configs.ts";
import { createOpenAIModel } from "./model.ts";

const FROM = "250788000072";

/** The bundled agent file with EasyMO's property agent using the tenant's own tools (or not). */
function withTenantTools(agent: string, on: boolean): unknown {
  const config = structuredClone(AGENT_CONFIGS) as {
    tenants: Record<string, { agents: Array<{ id: string; tenant_tools?: boolean }> }>;
  };
  const entry = config.tenants.easymo.agents.find((candidate) => candidate.id === agent);
  assert.ok(entry, `easymo runs ${agent}`);
  if (on) entry.tenant_tools = true;
  return config;
}

/** EasyMO's staff register the pet store API through another instance. */
async function registerPetstore(db: Database, apiUrl: string): Promise<void> {
  await allowTenantApiOnLoopback(db, ORG.easymo);
  const staff = await createTestRuntime(db);
  try {
    const registered = await callConfirmed(staff, USER.jean, "api_source_register", {
      name: "petstore",
      kind: "openapi",
      document: JSON.stringify(petstoreDocument(apiUrl)),
    });
    assert.equal(registered.ok, true, JSON.stringify(registered));
    const credential = await callConfirmed(staff, USER.jean, "api_credential_set", {
      source: "petstore",
      scheme: "ApiKeyAuth",
      secret: PET_API_KEY,
    });
    assert.equal(credential.ok, true, JSON.stringify(credential));
  } finally {
    // Not closed: the instances share the test's database connection, which the test closes.
    await staff.platform.traces.flush();
  }
}

type Body = {
  tools?: Array<{ function: { name: string } }>;
  messages: Array<{ role: string; content?: unknown }>;
};

dbTest(
  "an agent with tenant_tools calls its tenant's generated tool against the tenant's API",
  async (db) => {
    const api = startTenantApi();
    const model = scriptedModel([
      { call: "petstore_list_pets", args: { limit: 5 } },
      { say: "The pet shop has Rex." },
    ]);
    await using server = startScriptedOpenAI({ script: model.script });
    const channel = await startAgentChannel(
      db,
      {
        model: createOpenAIModel({ apiKey: server.apiKey, baseURL: server.baseURL, model: "test" }),
        // A model step, a generated tool's call to the tenant's API, a step again: on a loaded
        // machine (CI's, load ~20) the turn took 19 s, outlasted its 10 s deadline and was answered
        // offline, a timing this test does not check (model_outage_test covers the deadline).
        modelTurn: { deadlineMs: 120_000 },
      },
      { agentConfig: withTenantTools("property", true) },
    );
    try {
      // Registered after the agent's instance started: it learns of the tools at the turn.
      await registerPetstore(db, api.url);
      const reply = await channel.say(FROM, { text: "I want to rent a house in Kimironko" });
      assert.deepEqual(model.problems, []);
      assert.equal(model.remaining(), 0);
      assert.equal(bodyText(reply), "The pet shop has Rex.");

      const bodies = server.requests
        .map((request) => JSON.parse(JSON.stringify(request.body)) as Body)
        .filter((body) => body.tools?.length);
      const offered = bodies[0].tools!.map((tool) => tool.function.name);
      assert.ok(offered.includes("petstore_list_pets"), offered.join(", "));
      assert.ok(offered.includes("property_search"), offered.join(", "));
      const results = bodies.at(-1)!.messages.filter((message) => message.role === "tool")
        .map((message) => JSON.parse(String(message.content)));
      assert.equal(results[0].ok, true, JSON.stringify(results[0]));
      assert.match(JSON.stringify(results[0].data), /Rex/);
      // The API saw the tenant's key; the model never did.
      const listCall = api.requests.find((request) => request.path === "/pets");
      assert.equal(listCall?.headers["x-api-key"], PET_API_KEY);
      assert.doesNotMatch(JSON.stringify(server.requests), new RegExp(PET_API_KEY));
      // The call went through the pipeline as the agent: traced under its name.
      await channel.rt.platform.traces.flush();
      const traced = await db.query<{ agent_id: string; ok: boolean }>(
        "select agent_id, ok from public.tool_calls where tool = 'petstore_list_pets'",
      );
      assert.deepEqual(traced, [{ agent_id: "property", ok: true }]);
    } finally {
      await channel.rt.platform.close();
      await api.close();
    }
  },
);

dbTest(
  "an agent without tenant_tools is neither offered nor allowed its tenant's generated tools",
  async (db) => {
    const api = startTenantApi();
    const channel = await startAgentChannel(db, { model: null }, {
      agentConfig: withTenantTools("property", false),
    });
    try {
      await registerPetstore(db, api.url);
      await channel.rt.platform.syncTools(ORG.easymo, true);
      const offered = channel.rt.platform.getToolsForAgent("property", ORG.easymo)
        .map((tool) => tool.name);
      assert.ok(offered.includes("property_search"));
      assert.equal(offered.some((name) => name.startsWith("petstore_")), false);
      const refused = await channel.rt.platform.call({
        tool: "petstore_list_pets",
        args: { limit: 5 },
        caller: { claims: { sub: USER.aline, role: "authenticated" }, org_id: ORG.easymo },
        context: { agent_id: "property" },
      });
      assert.equal(refused.ok, false);
      assert.equal(!refused.ok && refused.error.code, "AUTH_ERROR");
      assert.equal(api.requests.length, 0);
      // The tenant's members still use them directly (the tools function, MCP).
      const direct = await channel.rt.callAs(USER.aline, "petstore_list_pets", { limit: 5 });
      assert.equal(direct.ok, true, JSON.stringify(direct));
    } finally {
      await channel.rt.platform.close();
      await api.close();
    }
  },
);
