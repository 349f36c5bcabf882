import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "@shared/registry/define_tool.ts";
import type { AnyTool } from "@shared/registry/registry.ts";
import { notifyStaff } from "@shared/packs/support/mod.ts";
import { platformTools } from "@shared/platform/platform.ts";
import {
  type ChatTurn,
  createOpenAIModel,
  DEFAULT_OPENAI_MODEL,
  modelFromEnv,
  ModelUnavailableError,
} from "./model.ts";
import { type Script, startScriptedOpenAI } from "@testing/openai_server.ts";
import { startHangingEndpoint } from "@testing/hanging_endpoint.ts";

const getPrice = defineTool({
  name: "markets.get_price",
  title: "Get price",
  description: "Latest price of a listed symbol.",
  category: "markets",
  input: z.object({
    symbol: z.string().describe("Ticker symbol"),
    currency: z.enum(["EUR", "USD"]).optional(),
    window: z.object({ from: z.iso.date(), to: z.iso.date().optional() }).optional(),
  }),
  output: z.object({ price: z.number() }),
  examples: [{ input: { symbol: "ACME" } }],
  sideEffects: "none",
  execute: () => Promise.resolve({ price: 1 }),
});

/** A scripted server plus a model pointed at it. */
function setup(script: Script, options: { timeoutMs?: number } = {}) {
  const server = startScriptedOpenAI({ script });
  const model = createOpenAIModel({
    apiKey: server.apiKey,
    baseURL: server.baseURL,
    model: "gpt-test",
    timeoutMs: options.timeoutMs,
  });
  return { server, model };
}

const ASK: ChatTurn[] = [{ role: "user", content: "What does ACME cost?" }];

Deno.test("createOpenAIModel sends tools in strict format under provider-safe names", async () => {
  const { server, model } = setup([{ content: "Hello" }]);
  await using _ = server;
  const tools: AnyTool[] = [getPrice, ...platformTools()];
  const reply = await model.complete({
    messages: [{ role: "system", content: "Be brief." }, ...ASK],
    tools,
  });
  assert.deepEqual(reply, { content: "Hello", tool_calls: [] });

  assert.equal(server.requests.length, 1);
  const { path, authorized, body } = server.requests[0];
  assert.equal(path, "/v1/chat/completions");
  assert.equal(authorized, true);
  assert.ok(body);
  assert.equal(body.model, "gpt-test");
  assert.equal(body.tool_choice, "auto");
  assert.equal(body.parallel_tool_calls, false);
  assert.notEqual((body as { stream?: unknown }).stream, true);
  assert.deepEqual(body.messages, [
    { role: "system", content: "Be brief." },
    { role: "user", content: "What does ACME cost?" },
  ]);
  const sent = body.tools ?? [];
  assert.equal(sent.length, tools.length);
  for (const tool of sent) {
    assert.equal(tool.type, "function");
    if (tool.type !== "function") continue;
    assert.match(tool.function.name, /^[A-Za-z0-9_-]{1,64}$/);
  }
  const price = sent[0];
  assert.ok(price.type === "function");
  assert.equal(price.function.name, "markets_get_price");
  assert.equal(price.function.strict, true);
  const parameters = price.function.parameters ?? {};
  assert.deepEqual(parameters.required, ["symbol", "currency", "window"]);
  assert.equal(parameters.additionalProperties, false);
  const names = sent.map((tool) => tool.type === "function" ? tool.function.name : "");
  assert.ok(names.includes("notify_staff"));
});

Deno.test("createOpenAIModel omits tools, tool_choice and parallel_tool_calls without tools", async () => {
  const { server, model } = setup([{ content: "Hi" }]);
  await using _ = server;
  await model.complete({ messages: ASK, tools: [] });
  const body = server.requests[0].body;
  assert.ok(body);
  assert.equal("tools" in body, false);
  assert.equal("tool_choice" in body, false);
  assert.equal("parallel_tool_calls" in body, false);
});

Deno.test("createOpenAIModel maps a tool call back to our name with nulls stripped", async () => {
  const { server, model } = setup([{
    tool_calls: [{
      id: "call_price",
      name: "markets_get_price",
      arguments: { symbol: "ACME", currency: null, window: { from: "2026-01-01", to: null } },
    }],
  }]);
  await using _ = server;
  const reply = await model.complete({ messages: ASK, tools: [getPrice, notifyStaff] });
  assert.deepEqual(reply, {
    content: "",
    tool_calls: [{
      id: "call_price",
      name: "markets.get_price",
      args: { symbol: "ACME", window: { from: "2026-01-01" } },
    }],
  });
});

Deno.test("createOpenAIModel passes a tool that was not offered through unchanged, flagged", async () => {
  const { server, model } = setup([{
    tool_calls: [
      { name: "order_create", arguments: { sku: "A1", qty: null } },
      { name: "notify_staff", arguments: "{not json" },
    ],
  }]);
  await using _ = server;
  const reply = await model.complete({ messages: ASK, tools: [notifyStaff] });
  assert.equal(reply.tool_calls.length, 2);
  const [unknown, broken] = reply.tool_calls;
  assert.equal(unknown.name, "order_create");
  assert.equal(unknown.unknown, true);
  // Without a schema every null is taken for an omitted optional.
  assert.deepEqual(unknown.args, { sku: "A1" });
  // Invalid JSON: the raw string, for the pipeline to answer VALIDATION_ERROR.
  assert.equal(broken.name, "notify_staff");
  assert.equal(broken.unknown, undefined);
  assert.equal(broken.args, "{not json");
});

Deno.test("createOpenAIModel sends assistant tool calls and tool results in OpenAI's format", async () => {
  const { server, model } = setup([{ content: "ACME is at 12.5 EUR." }]);
  await using _ = server;
  const messages: ChatTurn[] = [
    ...ASK,
    {
      role: "assistant",
      content: "",
      tool_calls: [{ id: "call_1", name: "markets.get_price", args: { symbol: "ACME" } }],
    },
    { role: "tool", tool_call_id: "call_1", content: '{"ok":true,"data":{"price":12.5}}' },
    {
      role: "assistant",
      content: "Checking the old tool too.",
      tool_calls: [{ id: "call_2", name: "legacy.tool", args: "{broken" }],
    },
    { role: "tool", tool_call_id: "call_2", content: '{"ok":false}' },
  ];
  const reply = await model.complete({ messages, tools: [getPrice] });
  assert.equal(reply.content, "ACME is at 12.5 EUR.");
  const body = server.requests[0].body;
  assert.ok(body);
  assert.deepEqual(body.messages, [
    { role: "user", content: "What does ACME cost?" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{
        id: "call_1",
        type: "function",
        function: { name: "markets_get_price", arguments: '{"symbol":"ACME"}' },
      }],
    },
    { role: "tool", tool_call_id: "call_1", content: '{"ok":true,"data":{"price":12.5}}' },
    {
      role: "assistant",
      content: "Checking the old tool too.",
      tool_calls: [{
        id: "call_2",
        type: "function",
        // Not offered any more: made provider-safe so the history is still accepted.
        function: { name: "legacy_tool", arguments: "{broken" },
      }],
    },
    { role: "tool", tool_call_id: "call_2", content: '{"ok":false}' },
  ]);
});

Deno.test("createOpenAIModel refuses a tool turn without tool_call_id", async () => {
  const { server, model } = setup([{ content: "never" }]);
  await using _ = server;
  await assert.rejects(
    model.complete({ messages: [{ role: "tool", content: "{}" }], tools: [] }),
    TypeError,
  );
  assert.equal(server.requests.length, 0);
});

Deno.test("createOpenAIModel turns a 401 into ModelUnavailableError without the key", async () => {
  await using server = startScriptedOpenAI({ script: [{ content: "never" }] });
  const apiKey = "sk-wrong-0123456789abcdef";
  const model = createOpenAIModel({ apiKey, baseURL: server.baseURL, model: "gpt-test" });
  const error = await model.complete({ messages: ASK, tools: [] }).then(
    () => assert.fail("expected a rejection"),
    (error: unknown) => error,
  );
  assert.ok(error instanceof ModelUnavailableError);
  assert.equal(error.status, 401);
  assert.equal(error.reason, "http");
  assert.equal(error.code, "invalid_api_key");
  assert.equal(error.cause, undefined);
  // The server echoes the key in its message; the error must not.
  assert.ok(!error.message.includes(apiKey), error.message);
  assert.ok(!JSON.stringify(error).includes(apiKey));
  assert.ok(!String(error.stack).includes(apiKey));
  assert.match(error.message, /401/);
  // 401 is not retried.
  assert.equal(server.requests.length, 1);
  assert.equal(server.requests[0].authorized, false);
});

Deno.test("createOpenAIModel retries a 500 once, then throws ModelUnavailableError", async () => {
  const failure = {
    status: 500,
    error: "The server had an error while processing your request.",
    headers: { "retry-after-ms": "0" },
  };
  const { server, model } = setup([failure, failure]);
  await using _ = server;
  const error = await model.complete({ messages: ASK, tools: [notifyStaff] }).then(
    () => assert.fail("expected a rejection"),
    (error: unknown) => error,
  );
  assert.ok(error instanceof ModelUnavailableError);
  assert.equal(error.status, 500);
  assert.ok(!error.message.includes(server.apiKey));
  assert.equal(server.requests.length, 2);
});

Deno.test("createOpenAIModel succeeds when the retry after a 500 does", async () => {
  const { server, model } = setup([
    { status: 503, error: "Overloaded", headers: { "retry-after-ms": "0" } },
    { content: "Back" },
  ]);
  await using _ = server;
  const reply = await model.complete({ messages: ASK, tools: [] });
  assert.equal(reply.content, "Back");
  assert.equal(server.requests.length, 2);
});

Deno.test("createOpenAIModel reports an unreachable endpoint as a connection failure", async () => {
  const server = startScriptedOpenAI({ script: [] });
  const { baseURL, apiKey } = server;
  await server.close();
  const model = createOpenAIModel({ apiKey, baseURL, model: "gpt-test" });
  const error = await model.complete({ messages: ASK, tools: [] }).then(
    () => assert.fail("expected a rejection"),
    (error: unknown) => error,
  );
  assert.ok(error instanceof ModelUnavailableError);
  assert.equal(error.reason, "connection");
  assert.equal(error.status, null);
});

Deno.test("createOpenAIModel times out a slow endpoint", async () => {
  const { server, model } = setup(
    async (_body, { signal }) => {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 5_000);
        signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve(undefined);
        });
      });
      return { content: "too late" };
    },
    { timeoutMs: 100 },
  );
  await using _ = server;
  const error = await model.complete({ messages: ASK, tools: [] }).then(
    () => assert.fail("expected a rejection"),
    (error: unknown) => error,
  );
  assert.ok(error instanceof ModelUnavailableError);
  assert.equal(error.reason, "timeout");
});

Deno.test(
  "createOpenAIModel keeps a call and its retry within timeoutMs, however long an attempt may take",
  async () => {
    await using endpoint = startHangingEndpoint();
    // An attempt may take 30 s (the default) and is retried once: the call may take 200 ms.
    const model = createOpenAIModel({ apiKey: "sk-test", baseURL: endpoint.baseURL, model: "m" });
    assert.equal(model.endpoint, endpoint.baseURL);
    const error = await model.complete({ messages: ASK, tools: [], timeoutMs: 200 }).then(
      () => assert.fail("expected a rejection"),
      (error: unknown) => error,
    );
    assert.ok(error instanceof ModelUnavailableError);
    assert.equal(error.reason, "timeout");
    // The one attempt used the whole budget: no retry was sent after it.
    assert.equal(endpoint.hungRequests, 1);
  },
);

Deno.test("createOpenAIModel does not retry past timeoutMs when the provider asks to wait", async () => {
  // A 503 asking for 5 s before the retry: the call gives up at its budget instead.
  const { server, model } = setup([
    { status: 503, error: "Overloaded", headers: { "retry-after-ms": "5000" } },
    { content: "too late" },
  ]);
  await using _ = server;
  const error = await model.complete({ messages: ASK, tools: [], timeoutMs: 300 }).then(
    () => assert.fail("expected a rejection"),
    (error: unknown) => error,
  );
  assert.ok(error instanceof ModelUnavailableError);
  assert.equal(error.reason, "timeout");
  assert.equal(server.requests.length, 1);
  // With no time left at all, nothing is sent.
  const none = await model.complete({ messages: ASK, tools: [], timeoutMs: 0 }).then(
    () => assert.fail("expected a rejection"),
    (error: unknown) => error,
  );
  assert.ok(none instanceof ModelUnavailableError);
  assert.equal(none.reason, "timeout");
  assert.equal(server.requests.length, 1);
});

Deno.test("createOpenAIModel honours an aborted signal", async () => {
  const { server, model } = setup([{ content: "never" }]);
  await using _ = server;
  const controller = new AbortController();
  controller.abort();
  const error = await model.complete({ messages: ASK, tools: [], signal: controller.signal })
    .then(() => assert.fail("expected a rejection"), (error: unknown) => error);
  assert.ok(error instanceof ModelUnavailableError);
  assert.equal(error.reason, "aborted");
});

Deno.test("modelFromEnv returns null without a key and a model with one", async () => {
  const env = (values: Record<string, string>) => ({ get: (name: string) => values[name] });
  assert.equal(modelFromEnv(env({})), null);
  assert.equal(modelFromEnv(env({ OPENAI_API_KEY: "  " })), null);

  await using server = startScriptedOpenAI({ script: [{ content: "ok" }] });
  const model = modelFromEnv(
    env({ OPENAI_API_KEY: server.apiKey, OPENAI_BASE_URL: server.baseURL }),
  );
  assert.ok(model);
  assert.equal((await model.complete({ messages: ASK, tools: [] })).content, "ok");
  assert.equal(server.requests[0].body?.model, DEFAULT_OPENAI_MODEL);
});

Deno.test("modelFromEnv reads OPENAI_TIMEOUT_MS and refuses a value that is not milliseconds", async () => {
  const env = (values: Record<string, string>) => ({ get: (name: string) => values[name] });
  assert.throws(
    () => modelFromEnv(env({ OPENAI_API_KEY: "sk-test", OPENAI_TIMEOUT_MS: "soon" })),
    /OPENAI_TIMEOUT_MS must be milliseconds/,
  );
  await using server = startScriptedOpenAI({
    script: async (_body, { signal }) => {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 5_000);
        signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve(undefined);
        });
      });
      return { content: "too late" };
    },
  });
  const model = modelFromEnv(env({
    OPENAI_API_KEY: server.apiKey,
    OPENAI_BASE_URL: server.baseURL,
    OPENAI_TIMEOUT_MS: "100",
  }));
  const error = await model!.complete({ messages: ASK, tools: [] }).then(
    () => assert.fail("expected a rejection"),
    (error: unknown) => error,
  );
  assert.ok(error instanceof ModelUnavailableError);
  assert.equal(error.reason, "timeout");
});

Deno.test("createOpenAIModel sends a tool set again as it is now: a tool registered anew replaces the one it sent before", async () => {
  const { server, model } = setup([{ content: "one" }, { content: "two" }, { content: "three" }]);
  await using _ = server;
  const described = (request: number) =>
    (server.requests[request].body?.tools ?? []).map((tool) =>
      tool.type === "function" ? tool.function.description : undefined
    );
  await model.complete({ messages: ASK, tools: [getPrice] });
  await model.complete({ messages: ASK, tools: [getPrice] });
  const renewed = { ...getPrice, description: "Latest price, in RWF." } as AnyTool;
  await model.complete({ messages: ASK, tools: [renewed] });
  assert.deepEqual(described(0), ["Latest price of a listed symbol."]);
  assert.deepEqual(described(1), ["Latest price of a listed symbol."]);
  assert.deepEqual(described(2), ["Latest price, in RWF."]);
});
