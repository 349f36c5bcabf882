/**
 * The live router, wired at start: trained once from the packs' intents and
 * the filler phrases, routing by the packs' roles and menu. Apart from
 * `platform.ts` so the tools function's bundle carries no classifier.
 *
 * @module
 */
import type { RouteContext } from "@shared/agent/route_decision.ts";
import { createRouter } from "@shared/agent/router.ts";
import type { Pack } from "@shared/registry/pack.ts";
import { PACKS, UNCLEAR_PHRASES } from "@shared/packs/mod.ts";

/**
 * The router over `packs` (trained once per pack list). The agent and
 * `deno task eval:routing` decide with it.
 */
export function platformRouter(packs: readonly Pack[] = PACKS): RouteContext {
  return createRouter({ packs, unclear: UNCLEAR_PHRASES });
}
