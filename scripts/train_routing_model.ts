/**
 * Trains the routing model: the linear text model (shared/agent/text_model.ts)
 * the intent classifier blends with naive Bayes, from every learnt agent's
 * curated phrases (intents.ts), the filler phrases and the routing corpus
 * (shared/packs/<pack>/corpus.<lang>.txt and the hand-written
 * corpus_written.<lang>.txt), each read as the classifier reads
 * a message (names, courtesies and buying verbs taken out). Writes
 * shared/packs/routing_model.json with a digest of what it learnt from;
 * `routing_model_test.ts` fails when the phrases, corpus or names change and
 * the weights were not retrained. Training takes ~15 s, so it runs here, not
 * at start: the agent loads the weights.
 *
 * Run: `deno task train:routing [--check]` (`--check` exits 1 when the weights are stale).
 *
 * @module
 */
import { intentTopic, UNCLEAR_LABEL } from "@shared/agent/intent_classifier.ts";
import { type LabelledSample, trainTextModel } from "@shared/agent/text_model.ts";
import { PACKS, UNCLEAR_PHRASES } from "@shared/packs/mod.ts";
import { ROUTING_MODEL } from "@shared/packs/routing_model.ts";
import { packIntents, packNeutralNames, packPlaces, packStaffWork } from "@shared/registry/pack.ts";
import { cliOrExit, parseCli } from "./_cli.ts";
import { loadRoutingCorpus } from "./routing_corpus.ts";

/** The model's training options; a change is a change of inputs (the digest covers them). */
export const ROUTING_MODEL_OPTIONS = { epochs: 30, learningRate: 1, decay: 0, buckets: 2 ** 18 };
/** Weight rows whose largest weight is below this are dropped: 0.4 halves the file and changes no dev-set route. */
export const ROUTING_MODEL_PRUNE = 0.4;

/** The samples the routing model learns from, in a fixed order, as the classifier reads them. */
export async function routingSamples(): Promise<LabelledSample[]> {
  const topicOf = intentTopic([...packNeutralNames(PACKS), ...packPlaces(PACKS)]);
  const samples: LabelledSample[] = [];
  for (const { agent, phrases } of [...packIntents(PACKS), ...packStaffWork(PACKS)]) {
    for (const list of Object.values(phrases)) {
      for (const text of list) samples.push({ text: topicOf(text), label: agent });
    }
  }
  for (const list of Object.values(UNCLEAR_PHRASES)) {
    for (const text of list) samples.push({ text: topicOf(text), label: UNCLEAR_LABEL });
  }
  for (const file of await loadRoutingCorpus()) {
    for (const text of file.messages) samples.push({ text: topicOf(text), label: file.agent });
  }
  return samples;
}

/** SHA-256 of the samples and options: what the shipped weights were trained from. */
export async function routingDigest(samples: readonly LabelledSample[]): Promise<string> {
  const text = JSON.stringify({
    options: ROUTING_MODEL_OPTIONS,
    prune: ROUTING_MODEL_PRUNE,
    samples,
  });
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

if (import.meta.main) {
  const args = cliOrExit({
    name: "train_routing_model",
    usage: "Usage: deno task train:routing [--check]",
  }, () => parseCli(Deno.args, { options: { check: { type: "boolean", default: false } } }).values);
  const samples = await routingSamples();
  const digest = await routingDigest(samples);
  if (args.check) {
    const fresh = ROUTING_MODEL.digest === digest;
    console.log(
      fresh ? "routing model is up to date" : "routing model is stale: run deno task train:routing",
    );
    Deno.exit(fresh ? 0 : 1);
  }
  const started = performance.now();
  const model = trainTextModel(samples, ROUTING_MODEL_OPTIONS);
  const serialized = model.serialize({ pruneBelow: ROUTING_MODEL_PRUNE });
  const path = new URL("../shared/packs/routing_model.json", import.meta.url);
  await Deno.writeTextFile(
    path,
    JSON.stringify({ digest, samples: samples.length, model: serialized }) + "\n",
  );
  const size = (await Deno.stat(path)).size;
  console.log(
    `trained on ${samples.length} samples in ${
      ((performance.now() - started) / 1000).toFixed(1)
    } s; ` +
      `${serialized.rows.length * 3 / 4 / 4} rows kept, ${(size / 1024).toFixed(0)} KiB`,
  );
}
