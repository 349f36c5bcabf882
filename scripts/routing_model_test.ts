import assert from "node:assert/strict";
import { loadTextModel } from "@shared/agent/text_model.ts";
import { ROUTING_MODEL } from "@shared/packs/routing_model.ts";
import { normalizeText } from "@shared/agent/text_features.ts";
import { loadHarmCorpusFiles } from "@shared/agent/harm_training.ts";
import { loadRoutingCorpus } from "./routing_corpus.ts";
import { routingDigest, routingSamples } from "./train_routing_model.ts";

// Read once for the file's tests: reading the corpus as the classifier reads it is most of their cost.
const samples = routingSamples();

Deno.test("the shipped routing weights were trained from today's phrases, corpus and names", async () => {
  const digest = await routingDigest(await samples);
  assert.equal(
    ROUTING_MODEL.digest,
    digest,
    "shared/packs/routing_model.json is stale: run `deno task train:routing` and commit it",
  );
});

Deno.test("the shipped routing weights load and tell the corpus's agents apart", async () => {
  assert.ok(ROUTING_MODEL.model !== null, "no routing weights shipped");
  const model = loadTextModel(ROUTING_MODEL.model);
  // Every 7th sample: the weights (pruned, 8-bit) still fit what they learnt from.
  const some = (await samples).filter((_, i) => i % 7 === 0);
  const right = some.filter((sample) => model.predict(sample.text).label === sample.label).length;
  assert.ok(right / some.length > 0.9, `${right}/${some.length} training samples read right`);
});

Deno.test("no routing evaluation message is a routing or harm corpus message, once normalised", async () => {
  // Where each normalised corpus line is: its file and line number, so a clash names our own line.
  const corpus = new Map<string, string>();
  for (const file of [...await loadRoutingCorpus(), ...await loadHarmCorpusFiles()]) {
    const lines = (await Deno.readTextFile(new URL(`../${file.path}`, import.meta.url))).split(
      "\n",
    );
    lines.forEach((line, index) => {
      const text = line.trim();
      if (text !== "" && !text.startsWith("#")) {
        corpus.set(normalizeText(text), `${file.path}:${index + 1}`);
      }
    });
  }
  // Every set the evaluation reads, present and future: a YAML list item is a message.
  const clashes: string[] = [];
  const dir = new URL("../testing/routing_eval/", import.meta.url);
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.name.endsWith(".yaml")) continue;
    const text = await Deno.readTextFile(new URL(entry.name, dir));
    for (const [, item] of text.matchAll(/^\s*-\s*(?:text:\s*)?(.+)$/gm)) {
      const message = normalizeText(item.trim().replace(/^["']|["']$/g, ""));
      // As for the curated phrases: two words or fewer ("ok thanks") cannot be unique.
      if (message.split(" ").length > 2 && corpus.has(message)) {
        // Only a tuning set (`_dev`) may be read: for a held-out set the failure names the corpus
        // line to delete and never the held-out message or its set.
        clashes.push(
          entry.name.includes("_dev")
            ? `${entry.name}: "${item}" is at ${corpus.get(message)}`
            : `${
              corpus.get(message)
            } equals a held-out evaluation message: delete that corpus line`,
        );
      }
    }
  }
  assert.deepEqual(clashes, []);
});
