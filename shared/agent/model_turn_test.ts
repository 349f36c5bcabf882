import assert from "node:assert/strict";
import type { Language } from "@shared/contract/language.ts";
import { startHangingEndpoint } from "@testing/hanging_endpoint.ts";
import { startScriptedOpenAI } from "@testing/openai_server.ts";
import { type ChatTurn, createOpenAIModel, ModelUnavailableError } from "./model.ts";
import { createModelTurn, modelTurnOptionsFromEnv, workingText } from "./model_turn.ts";

const ASK: ChatTurn[] = [{ role: "user", content: "Muraho" }];

function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(() => assert.fail("expected a rejection"), (error: unknown) => error);
}

Deno.test("createModelTurn: a hanging model costs the turn one deadline, then is not asked again", async () => {
  await using endpoint = startHangingEndpoint();
  const model = createOpenAIModel({ apiKey: "sk-test", baseURL: endpoint.baseURL, model: "m" });
  const said: Language[] = [];
  const turn = createModelTurn({
    model,
    // Long enough for the request to reach the endpoint on a busy machine before the deadline.
    deadlineMs: 2_000,
    noticeAfterMs: 50,
    notice: (language) => Promise.resolve(void said.push(language)),
  });
  // Routing asks first and runs out of the turn's time...
  const routing = await rejection(turn.complete({ messages: ASK, tools: [] }, "rw"));
  assert.ok(routing instanceof ModelUnavailableError);
  assert.equal(routing.reason, "timeout");
  assert.equal(endpoint.hungRequests, 1);
  // ...so acting does not wait again: it fails at once, without a request.
  const acting = await rejection(turn.complete({ messages: ASK, tools: [] }, "rw"));
  assert.equal(acting, routing);
  assert.equal(endpoint.hungRequests, 1);
  assert.equal(turn.failure, routing);
  assert.equal(turn.answered, false);
  // The user heard "working on it" once, in their language.
  assert.deepEqual(said, ["rw"]);
  assert.equal(turn.noticed, true);
});

Deno.test("createModelTurn: a slow but alive model is announced once, before its answer", async () => {
  const events: string[] = [];
  let told!: () => void;
  const noticeSent = new Promise<void>((resolve) => told = resolve);
  // The model answers only once the user has been told: slow, whatever the machine's speed.
  await using server = startScriptedOpenAI({
    script: async () => {
      await noticeSent;
      return { content: "Yego" };
    },
  });
  const model = createOpenAIModel({ apiKey: server.apiKey, baseURL: server.baseURL, model: "m" });
  const turn = createModelTurn({
    model,
    deadlineMs: 10_000,
    noticeAfterMs: 20,
    notice: async (language) => {
      told();
      // A slow send: the answer must still come after it.
      await new Promise((resolve) => setTimeout(resolve, 20));
      events.push(`notice:${workingText(language)}`);
    },
  });
  const first = await turn.complete({ messages: ASK, tools: [] }, "fr");
  events.push(`reply:${first.content}`);
  // A second call of the same turn (past the notice time): no second notice.
  told = () => assert.fail("the user was told twice");
  await turn.complete({ messages: ASK, tools: [] }, "fr");
  assert.deepEqual(events, ["notice:Un instant, je m'en occupe…", "reply:Yego"]);
  assert.equal(turn.answered, true);
  assert.equal(turn.failure, null);
});

Deno.test("createModelTurn: a quick model says nothing extra", async () => {
  await using server = startScriptedOpenAI({ script: () => ({ content: "Hi" }) });
  const model = createOpenAIModel({ apiKey: server.apiKey, baseURL: server.baseURL, model: "m" });
  const turn = createModelTurn({
    model,
    noticeAfterMs: 5_000,
    notice: () => Promise.reject(new Error("nobody should be told")),
  });
  assert.equal((await turn.complete({ messages: ASK, tools: [] }, "en")).content, "Hi");
  assert.equal(turn.noticed, false);
});

Deno.test("createModelTurn: a notice that cannot be sent never costs the answer", async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);
  await using server = startScriptedOpenAI({
    script: async () => {
      await released;
      return { content: "Here" };
    },
  });
  const model = createOpenAIModel({ apiKey: server.apiKey, baseURL: server.baseURL, model: "m" });
  const turn = createModelTurn({
    model,
    noticeAfterMs: 1,
    notice: () => {
      release();
      return Promise.reject(new Error("outbox unreachable"));
    },
  });
  assert.equal((await turn.complete({ messages: ASK, tools: [] }, "en")).content, "Here");
});

Deno.test("createModelTurn refuses durations that are not positive", () => {
  const model = { complete: () => Promise.resolve({ content: "", tool_calls: [] }) };
  assert.throws(() => createModelTurn({ model, deadlineMs: 0 }), RangeError);
  assert.throws(() => createModelTurn({ model, noticeAfterMs: -1 }), /noticeAfterMs/);
});

Deno.test("modelTurnOptionsFromEnv reads the deadline and the notice, and refuses non-milliseconds", () => {
  const env = (values: Record<string, string>) => ({ get: (name: string) => values[name] });
  assert.deepEqual(
    modelTurnOptionsFromEnv(
      env({ MODEL_TURN_DEADLINE_MS: "8000", MODEL_WORKING_NOTICE_MS: "2000" }),
    ),
    { deadlineMs: 8000, noticeAfterMs: 2000 },
  );
  assert.throws(
    () => modelTurnOptionsFromEnv(env({ MODEL_TURN_DEADLINE_MS: "12s" })),
    /MODEL_TURN_DEADLINE_MS must be milliseconds \(1-9999999\): current value is 12s/,
  );
});
