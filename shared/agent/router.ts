/**
 * The live router: the route decision trained once from the packs the
 * composition root hands in, with the agents it routes between read from
 * the packs' roles and menu. The graph and `deno task eval:routing` decide
 * with the same context, so the evaluation scores what users get.
 *
 * @module
 */
import type { Pack } from "@shared/registry/pack.ts";
import {
  customerAgents,
  packIntents,
  packNeutralNames,
  packPlaces,
} from "@shared/registry/pack.ts";
import type { UnclearPhrases } from "./intent_classifier.ts";
import { agentRoster } from "./roster.ts";
import { type RouteContext, trainRouteContext } from "./route_decision.ts";

/** Options for {@linkcode createRouter}. */
export interface RouterOptions {
  /** The packs whose agents it routes to (their intents train it). */
  packs: readonly Pack[];
  /** Filler phrases taught as the unclear class. */
  unclear?: UnclearPhrases;
}

// Training takes a few hundred ms: once per pack list and filler set, however many handlers.
const trained = new WeakMap<readonly Pack[], Map<UnclearPhrases | undefined, RouteContext>>();

/**
 * The route context for `packs`: the classifier and language detector
 * trained from their intents, the front desk and hand-off from their roles,
 * the clarifying question's services from the front desk's menu.
 *
 * @throws {TypeError} when the packs leave a routing role unheld or held twice.
 */
export function createRouter(options: RouterOptions): RouteContext {
  const byUnclear = trained.get(options.packs) ?? new Map();
  trained.set(options.packs, byUnclear);
  const cached = byUnclear.get(options.unclear);
  if (cached) return cached;
  const roster = agentRoster(options.packs);
  const examples = packIntents(options.packs);
  const context = trainRouteContext({
    examples,
    unclear: options.unclear,
    neutralNames: packNeutralNames(options.packs),
    places: packPlaces(options.packs),
    agents: {
      frontDesk: roster.frontDesk,
      handoff: roster.handoff,
      menu: roster.menu.slice(0, 10).map((entry) => entry.id),
      customer: customerAgents(options.packs),
      learnt: examples.map((example) => example.agent),
    },
  });
  byUnclear.set(options.unclear, context);
  return context;
}
