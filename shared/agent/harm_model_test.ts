import assert from "node:assert/strict";
import { HARM_MODEL } from "./harm_model.ts";
import { harmTrainingDigest } from "./harm_training.ts";

Deno.test("the shipped harm weights were trained on today's corpus, concepts, features and settings", async () => {
  assert.equal(
    HARM_MODEL.digest,
    await harmTrainingDigest(),
    "the harm model is stale: run `deno task gen:harm` and commit shared/agent/harm_model.ts",
  );
});
