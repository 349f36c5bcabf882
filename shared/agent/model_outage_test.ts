import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { bodyChoices, bodyText, startAgentChannel } from "@testing/agent_channel.ts";
import { startHangingEndpoint } from "@testing/hanging_endpoint.ts";
import { startScriptedOpenAI } from "@testing/openai_server.ts";
import { createOpenAIModel } from "./model.ts";
import { createModelBreaker } from "./model_breaker.ts";
import { MODEL_FAILURE_REASON } from "./model_failures.ts";
import { workingText } from "./model_turn.ts";

const ASK = {
  en: "Pharmacy: do you have paracetamol?",
  rw: "Farumasi: mufite paracetamol?",
  fr: "Pharmacie : avez-vous du paracétamol ?",
} as const;

const CUSTOMER = { en: "250788000101", rw: "250788000102", fr: "250788000103" } as const;

async function count(db: TestDatabase, sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await db.query<{ n: number }>(`select count(*)::int as n from (${sql}) q`, params);
  return row.n;
}

dbTest(
  "a hanging model: en, rw and fr customers are answered offline in their language within the turn's deadline, the breaker then answers at once without the model, a probe closes it when the model is back, and staff get one ticket",
  async (db) => {
    // The model's endpoint accepts connections and never answers, until it recovers to this one.
    await using back = startScriptedOpenAI({
      script: (body) =>
        body.tools?.length ? { content: "Yes: Paracetamol 500mg, 500 RWF." } : { content: "-" },
    });
    await using endpoint = startHangingEndpoint({ recoverTo: Number(new URL(back.baseURL).port) });
    // OPENAI_TIMEOUT_MS's default (30 s per attempt, retried once) stands: the turn's deadline
    // is what bounds the wait.
    const model = createOpenAIModel({
      apiKey: back.apiKey,
      baseURL: endpoint.baseURL,
      model: "test",
    });
    const clock = { now: new Date("2026-11-26T09:00:00Z") };
    // Two function instances: their breakers share the database, not memory.
    const instance = () => ({
      model,
      modelTurn: { deadlineMs: 5_000, noticeAfterMs: 200 },
      breaker: createModelBreaker({
        db,
        threshold: 3,
        cooldownMs: 60_000,
        probeMs: 10_000,
        now: () => clock.now,
      }),
    });
    const a = await startAgentChannel(db, instance());
    const b = await startAgentChannel(db, instance());
    // What the offline flows answer, for comparison (no model at all).
    const offline = await startAgentChannel(db, { model: null });
    const expected = {
      en: await offline.say("250788000190", { text: ASK.en }),
      rw: await offline.say("250788000191", { text: ASK.rw }),
      fr: await offline.say("250788000192", { text: ASK.fr }),
    };
    assert.match(bodyText(expected.en), /Paracetamol/);
    assert.equal(new Set(Object.values(expected).map(bodyText)).size, 3, "one reply per language");

    // Three customers write at once while the model hangs.
    const languages = ["en", "rw", "fr"] as const;
    const replies = await Promise.all(
      languages.map((language) => a.say(CUSTOMER[language], { text: ASK[language] })),
    );
    for (const [index, language] of languages.entries()) {
      // The offline flow's reply, in their language...
      assert.equal(bodyText(replies[index]), bodyText(expected[language]), language);
      assert.deepEqual(bodyChoices(replies[index]), bodyChoices(expected[language]));
      // ...after a "working on it" in their language, once.
      const sent = (await a.outbox(CUSTOMER[language])).map(bodyText);
      assert.deepEqual(sent, [workingText(language), bodyText(expected[language])], language);
    }
    // Each turn waited for the model once, within its deadline: one request each, no retry,
    // and acting did not ask again after routing (the router was sure: it never asked).
    assert.equal(endpoint.hungRequests, 3);
    const failures = await db.query<{ reason: string }>(
      "select reason from public.model_failures order by id",
    );
    assert.deepEqual(failures.map((f) => f.reason), ["timeout", "timeout", "timeout"]);

    // The breaker is open: a fourth message, on the other instance, is answered at once,
    // offline, without a request to the model and without "working on it".
    const fourth = "250788000104";
    const reply = await b.say(fourth, { text: ASK.en });
    assert.equal(bodyText(reply), bodyText(expected.en));
    assert.equal(endpoint.hungRequests, 3);
    assert.deepEqual((await b.outbox(fourth)).map(bodyText), [bodyText(expected.en)]);
    assert.ok(b.rt.log.lines.some((line) => line.event === "model_skipped"));
    // A skipped turn is no failure: nothing counted, no ticket.
    assert.equal(await count(db, "select 1 from public.model_failures"), 3);

    // The model is back, but the cool-down is not over: still offline, still not asked.
    endpoint.recover();
    await a.say(fourth, { text: ASK.en });
    assert.equal(back.requests.length, 0);
    // After the cool-down one turn probes; the model answers, and the breaker closes.
    clock.now = new Date(clock.now.getTime() + 60_000);
    const probed = await b.say(CUSTOMER.rw, { text: ASK.rw });
    assert.equal(bodyText(probed), "Yes: Paracetamol 500mg, 500 RWF.");
    assert.equal(back.requests.length, 1);
    assert.ok(b.rt.log.lines.some((line) => line.event === "model_breaker_closed"));
    assert.deepEqual(
      await db.query("select failures, opened_at from private.model_breakers"),
      [{ failures: 0, opened_at: null }],
    );
    // Closed for every instance: the next turn, on the other one, uses the model too.
    const after = await a.say(CUSTOMER.fr, { text: ASK.fr });
    assert.equal(bodyText(after), "Yes: Paracetamol 500mg, 500 RWF.");
    assert.equal(back.requests.length, 2);

    // Staff got one ticket for the outage.
    assert.equal(
      await count(db, "select 1 from public.staff_tickets where reason = $1", [
        MODEL_FAILURE_REASON,
      ]),
      1,
    );
  },
);

dbTest(
  "a model that fails after its booking went through: the diner is told it is done, and the offline flow does not book again",
  async (db) => {
    const hour = 60 * 60 * 1000;
    // 19:00 in Kigali, three days after the real day (the database checks bookings against its
    // own clock).
    const day = new Date(Date.now() + 3 * 24 * hour);
    const tableAt = new Date(
      Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 17, 0),
    ).toISOString();
    const cafe = "c0000000-0000-4000-8000-000000000002";
    const diner = "250788000105";
    // The model books, then the provider fails before the model's reply.
    await using provider = startScriptedOpenAI({
      script: (body) => {
        if (!body.tools?.length) return { content: "-" };
        if (!body.messages.some((message) => message.role === "tool")) {
          return {
            tool_calls: [{
              name: "reservation_book",
              arguments: {
                venue_id: cafe,
                when: tableAt,
                size: 2,
                name: "Olive",
                phone: `+${diner}`,
              },
            }],
          };
        }
        return {
          status: 500,
          error: "The server had an error",
          headers: { "x-should-retry": "false" },
        };
      },
    });
    const model = createOpenAIModel({
      apiKey: provider.apiKey,
      baseURL: provider.baseURL,
      model: "test",
    });
    const chat = await startAgentChannel(db, { model, modelTurn: { deadlineMs: 60_000 } });
    const reply = await chat.say(diner, {
      text: "Book a table for 2 at Café Nyamirambo in three days at 19:00",
    });
    assert.equal(
      bodyText(reply),
      "That is done, but I could not finish my reply in time. Ask me about it, or send 0 for the menu.",
    );
    // One table: the model's. The offline flow did not book it a second time.
    assert.equal(
      await count(db, "select 1 from public.reservations where phone = $1", [`+${diner}`]),
      1,
    );
    // Staff see the model's failure as for any other.
    assert.equal(await count(db, "select 1 from public.model_failures"), 1);
  },
);
