/**
 * The live router, wired at start: trained once per tenant from the intents
 * of the packs' agents it runs and the filler phrases, with the shipped routing
 * model blended in for whichever of its agents the pack list has, routing by
 * the packs' roles and menu. Apart from `platform.ts` so the tools function's
 * bundle carries no classifier.
 *
 * @module
 */
import type { RouteContext } from "@shared/agent/route_decision.ts";
import { createRouter } from "@shared/agent/router.ts";
import type { Pack } from "@shared/registry/pack.ts";
import { loadTextModel, type TextModel } from "@shared/agent/text_model.ts";
import { PACKS, UNCLEAR_PHRASES } from "@shared/packs/mod.ts";
import { ROUTING_MODEL } from "@shared/packs/routing_model.ts";

// Loaded once, on the first route: the weights are trained offline (`deno task train:routing`).
let routingModel: TextModel | undefined;
function shippedModel(): TextModel | undefined {
  if (routingModel === undefined && ROUTING_MODEL.model !== null) {
    routingModel = loadTextModel(ROUTING_MODEL.model);
  }
  return routingModel;
}

/**
 * The router over `packs`, or over the agents one tenant `runs` of them
 * (trained once per pack list and set of agents). The agent decides with a
 * tenant's; `deno task eval:routing` scores the one over every pack.
 */
export function platformRouter(
  packs: readonly Pack[] = PACKS,
  runs?: readonly string[],
): RouteContext {
  // The shipped weights serve any pack list: the classifier keeps the agents the list has and
  // reads an agent they never learnt (a tenant's own pack) by its phrases alone.
  const model = shippedModel();
  return createRouter({
    packs,
    unclear: UNCLEAR_PHRASES,
    ...(runs ? { runs } : {}),
    ...(model ? { model } : {}),
  });
}
