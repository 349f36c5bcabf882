// The staff desk's model discovers its tools as the customers' agents do (one mechanism,
// `tool_discovery.ts`): a staff member on their registered WhatsApp number asks the Marketing &
// Sales agent (discovery on in the agent file) in English, Kinyarwanda and French; the model
// starts with the discovery tools only, searches, fetches the schema of a tool it was not given,
// calls it and answers, through the real webhook, the pipeline and OpenAI's wire format.
import assert from "node:assert/strict";
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { dbTest } from "@testing/db.ts";
import { bodyChoices, bodyText, startAgentChannel } from "@testing/agent_channel.ts";
import { type Script, startScriptedOpenAI } from "@testing/openai_server.ts";
import { scriptedModel } from "@testing/scripted_model.ts";
import { ORG } from "@testing/seed.ts";
import { createOpenAIModel } from "./model.ts";

// Jean, EasyMO staff, on the number the seed registers for him.
const JEAN = "250788000002";
const AGENT = "marketing_sales";
const DISCOVERY = ["fetch_tool_schemas", "list_tools", "search_tools"];

type Body = {
  tools?: Array<{ function: { name: string } }>;
  messages: Array<{ role: string; content?: unknown }>;
};

const REQUESTS = [
  { language: "en", text: "Which broadcast templates do we have?", answer: "We have one." },
  {
    language: "rw",
    text: "Ni izihe nyandikorugero z'ubutumwa rusange dufite?",
    answer: "Dufite imwe.",
  },
  { language: "fr", text: "Quels modèles de diffusion avons-nous ?", answer: "Nous en avons un." },
] as const;

dbTest(
  "a staff agent with discovery searches, fetches, calls a tool it was not given and answers, in en/rw/fr",
  async (db) => {
    await db.query(
      `insert into public.broadcast_templates (org_id, name, language, variables, body, meta_status)
       values ($1, 'weekend_promo', 'en', '{name}', 'Hello {{1}}, 10% off this weekend', 'approved')`,
      [ORG.easymo],
    );
    const model = scriptedModel(REQUESTS.flatMap(({ text, answer }) => [
      { call: "search_tools", args: { query: text } },
      { call: "fetch_tool_schemas", args: { names: ["broadcast_templates"] } },
      { call: "broadcast_templates", args: {} },
      { say: answer },
    ]));
    await using server = startScriptedOpenAI({ script: model.script });
    const channel = await startAgentChannel(
      db,
      {
        model: createOpenAIModel({ apiKey: server.apiKey, baseURL: server.baseURL, model: "test" }),
      },
      { catalogSync: true },
    );
    await channel.rt.platform.catalog.settled();
    const encoder = new Tiktoken(o200k);
    try {
      const menu = await channel.say(JEAN, { text: "hello" });
      assert.ok(bodyChoices(menu).includes(`staff:${AGENT}`), JSON.stringify(menu));
      await channel.say(JEAN, { listReply: { id: `staff:${AGENT}`, title: "Marketing & Sales" } });
      for (const { language, text, answer } of REQUESTS) {
        const before = server.requests.length;
        const reply = await channel.say(JEAN, { text });
        assert.equal(bodyText(reply), answer, language);
        const bodies = server.requests.slice(before)
          .map((request) => JSON.parse(JSON.stringify(request.body)) as Body)
          .filter((body) => body.tools?.length);
        assert.equal(bodies.length, 4, language);
        const offered = (body: Body) => body.tools!.map((tool) => tool.function.name).sort();
        // Each turn starts with the discovery tools only, even after an earlier turn's fetch.
        assert.deepEqual(offered(bodies[0]), DISCOVERY, language);
        assert.deepEqual(offered(bodies[1]), DISCOVERY, language);
        assert.deepEqual(offered(bodies[2]), [...DISCOVERY, "broadcast_templates"].sort());
        // The model is told the member's language.
        const system = String(bodies[0].messages.find((m) => m.role === "system")?.content);
        assert.match(system, new RegExp(`language \\(${language}\\)`));
        // The search found the tool from the member's own words; the call answered the template.
        const results = bodies[3].messages.filter((message) => message.role === "tool")
          .slice(-3).map((message) => JSON.parse(String(message.content)));
        assert.ok(
          results[0].data.results.slice(0, 3).some((hit: { name: string }) =>
            hit.name === "broadcast_templates"
          ),
          `${language}: ${JSON.stringify(results[0].data.results)}`,
        );
        assert.equal(results[1].data.tools[0].name, "broadcast_templates");
        assert.ok(
          results[2].data.templates.some((template: { name: string }) =>
            template.name === "weekend_promo"
          ),
          JSON.stringify(results[2]),
        );
        // Within the budget: no step sends the model 2,000 tokens of tool schemas.
        for (const body of bodies) {
          const tokens = encoder.encode(JSON.stringify(body.tools)).length;
          assert.ok(tokens < 2_000, `${language}: ${tokens} tokens of tools`);
        }
      }
      assert.deepEqual(model.problems, []);
      assert.equal(model.remaining(), 0);
      await channel.rt.platform.traces.flush();
      const traces = await db.query<{ tool: string; error_code: string | null }>(
        `select tool, error_code from public.tool_calls where agent_id = $1 order by tool`,
        [AGENT],
      );
      // Every call went through the pipeline as the agent's, and none failed (one more
      // broadcast_templates: the agent's flow lists them when the member enters).
      assert.deepEqual(
        traces.map((trace) => `${trace.tool}:${trace.error_code ?? "ok"}`),
        [
          ...Array(4).fill("broadcast_templates:ok"),
          ...Array(3).fill("fetch_tool_schemas:ok"),
          ...Array(3).fill("search_tools:ok"),
        ],
      );
    } finally {
      await channel.rt.platform.close();
    }
  },
);

dbTest(
  "a staff agent with discovery is refused a tool whose schema it did not fetch",
  async (db) => {
    // A model that guesses a tool's name and arguments instead of fetching its schema.
    const script: Script = [
      {
        tool_calls: [{ name: "broadcast_cancel", arguments: { campaign_id: crypto.randomUUID() } }],
      },
      { content: "I will look it up first." },
    ];
    await using server = startScriptedOpenAI({ script });
    const channel = await startAgentChannel(db, {
      model: createOpenAIModel({ apiKey: server.apiKey, baseURL: server.baseURL, model: "test" }),
    });
    try {
      await channel.say(JEAN, { listReply: { id: `staff:${AGENT}`, title: "Marketing & Sales" } });
      const reply = await channel.say(JEAN, { text: "Cancel tomorrow's broadcast" });
      assert.equal(bodyText(reply), "I will look it up first.");
      const last = JSON.parse(JSON.stringify(server.requests.at(-1)!.body)) as Body;
      const result = JSON.parse(String(last.messages.find((m) => m.role === "tool")?.content));
      assert.equal(result.error.code, "VALIDATION_ERROR");
      assert.deepEqual(result.error.fields, [{
        path: "tool",
        message: "not fetched this turn: broadcast_cancel",
      }]);
      await channel.rt.platform.traces.flush();
      const calls = await db.query(
        "select 1 from public.tool_calls where tool = 'broadcast_cancel'",
      );
      assert.equal(calls.length, 0);
    } finally {
      await channel.rt.platform.close();
    }
  },
);
