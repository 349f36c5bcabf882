/**
 * How long customers wait when the model hangs, with the shipped settings
 * (the `MODEL_*` and `OPENAI_TIMEOUT_MS` defaults, or whatever the
 * environment sets): three customers (en, rw, fr) write at once to the real
 * webhook + agent over PGlite while the model's endpoint accepts connections
 * and never answers, then a fourth writes during the outage. Prints, per
 * message, when the "working on it" and the reply were queued, from the
 * moment the message was posted. Not a test: it takes a deadline's time.
 *
 * Run: `deno run -A bench/model_outage.ts`
 *
 * @module
 */
import { openTestDatabase } from "@testing/db.ts";
import { bodyText, startAgentChannel } from "@testing/agent_channel.ts";
import { startHangingEndpoint } from "@testing/hanging_endpoint.ts";
import { createOpenAIModel } from "@shared/agent/model.ts";
import { modelTurnOptionsFromEnv } from "@shared/agent/model_turn.ts";

const timeout = Deno.env.get("OPENAI_TIMEOUT_MS");
const db = await openTestDatabase("pglite");
await using endpoint = startHangingEndpoint();
const model = createOpenAIModel({
  apiKey: "sk-bench",
  baseURL: endpoint.baseURL,
  model: "gpt-4o-mini",
  ...(timeout ? { timeoutMs: Number(timeout) } : {}),
});
const channel = await startAgentChannel(db, { model });

const messages = [
  { lang: "en", from: "250788000301", text: "Pharmacy: do you have paracetamol?" },
  { lang: "rw", from: "250788000302", text: "Farumasi: mufite paracetamol?" },
  { lang: "fr", from: "250788000303", text: "Pharmacie : avez-vous du paracétamol ?" },
];

async function queued(to: string, since: number) {
  const rows = await db.query<{ body: Record<string, unknown>; at: Date | string }>(
    "select body, created_at as at from public.wa_outbox where to_wa_id = $1 order by seq",
    [to],
  );
  return rows.map((row) => ({
    seconds: ((new Date(row.at).getTime() - since) / 1000).toFixed(2),
    text: bodyText(row.body).slice(0, 48),
  }));
}

console.log(
  `settings: ${JSON.stringify(modelTurnOptionsFromEnv())}, OPENAI_TIMEOUT_MS=${
    timeout ?? "30000 (default)"
  }`,
);
const posted = Date.now();
await Promise.all(messages.map((message) => channel.say(message.from, { text: message.text })));
const wall = (Date.now() - posted) / 1000;
for (const message of messages) {
  console.log(message.lang, JSON.stringify(await queued(message.from, posted)));
}
console.log(`three at once: all answered and sent after ${wall.toFixed(2)} s`);

const fourth = Date.now();
await channel.say("250788000304", { text: messages[0].text });
console.log(
  `fourth, during the outage: ${((Date.now() - fourth) / 1000).toFixed(2)} s`,
  JSON.stringify(await queued("250788000304", fourth)),
);
console.log(`requests that reached the hanging endpoint: ${endpoint.hungRequests}`);
await db.dispose();
