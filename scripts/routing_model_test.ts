import assert from "node:assert/strict";
import { loadTextModel } from "@shared/agent/text_model.ts";
import { ROUTING_MODEL } from "@shared/packs/routing_model.ts";
import { routingDigest, routingSamples } from "./train_routing_model.ts";

Deno.test("the shipped routing weights were trained from today's phrases, corpus and names", async () => {
  const digest = await routingDigest(await routingSamples());
  assert.equal(
    ROUTING_MODEL.digest,
    digest,
    "shared/packs/routing_model.json is stale: run `deno task train:routing` and commit it",
  );
});

Deno.test("the shipped routing weights load and tell the corpus's agents apart", async () => {
  assert.ok(ROUTING_MODEL.model !== null, "no routing weights shipped");
  const model = loadTextModel(ROUTING_MODEL.model);
  const samples = await routingSamples();
  // Every 7th sample: the weights (pruned, 8-bit) still fit what they learnt from.
  const some = samples.filter((_, i) => i % 7 === 0);
  const right = some.filter((sample) => model.predict(sample.text).label === sample.label).length;
  assert.ok(right / some.length > 0.9, `${right}/${some.length} training samples read right`);
});
