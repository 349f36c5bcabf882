/**
 * The live router, wired at start: trained once per tenant from the intents
 * of the packs' agents it runs and the filler phrases, routing by the packs' roles and menu. Apart from
 * `platform.ts` so the tools function's bundle carries no classifier.
 *
 * @module
 */
import type { RouteContext } from "@shared/agent/route_decision.ts";
import { createRouter } from "@shared/agent/router.ts";
import type { Pack } from "@shared/registry/pack.ts";
import { PACKS, UNCLEAR_PHRASES } from "@shared/packs/mod.ts";

/**
 * The router over `packs`, or over the agents one tenant `runs` of them
 * (trained once per pack list and set of agents). The agent decides with a
 * tenant's; `deno task eval:routing` scores the one over every pack.
 */
export function platformRouter(
  packs: readonly Pack[] = PACKS,
  runs?: readonly string[],
): RouteContext {
  return createRouter({ packs, unclear: UNCLEAR_PHRASES, ...(runs ? { runs } : {}) });
}
