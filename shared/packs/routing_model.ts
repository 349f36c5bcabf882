/**
 * The routing model's weights, trained offline by `deno task train:routing` from the packs'
 * phrases and routing corpus (`digest` says from what; scripts/routing_model_test.ts fails
 * when they are stale). Only the live router imports it, so functions that never route (the
 * tools function, the webhook) do not carry the weights.
 *
 * @module
 */
import type { SerializedTextModel } from "@shared/agent/text_model.ts";
import weights from "./routing_model.json" with { type: "json" };

/** The shipped routing model: the digest of its inputs, how many samples, its weights. */
export const ROUTING_MODEL: {
  digest: string;
  samples: number;
  model: SerializedTextModel | null;
} = weights as { digest: string; samples: number; model: SerializedTextModel | null };
