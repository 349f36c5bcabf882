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
  packStaffWork,
  packVehicleNames,
} from "@shared/registry/pack.ts";
import { STAFF_WORK_LABEL } from "@shared/registry/intent_types.ts";
import type { Classification, UnclearPhrases } from "./intent_classifier.ts";
import { agentRoster } from "./roster.ts";
import type { TextModel } from "./text_model.ts";
import { type RouteContext, type RouterAgents, trainRouteContext } from "./route_decision.ts";

/** Options for {@linkcode createRouter}. */
export interface RouterOptions {
  /** The packs whose agents it routes to (their intents train it). */
  packs: readonly Pack[];
  /** Filler phrases taught as the unclear class. */
  unclear?: UnclearPhrases;
  /**
   * The agents one tenant runs (the agent file's view): only they are
   * routed to or offered (with the front desk and the hand-off), so the
   * tenant's people never reach an agent it does not run. @default every
   * agent of `packs`
   */
  runs?: readonly string[];
  /**
   * The linear model (text_model.ts), trained offline on the packs' phrases and corpus, that
   * the intent classifier blends with the naive Bayes it trains at start.
   */
  model?: TextModel;
}

// Training takes a few hundred ms: once per pack list and filler set, however many handlers and
// tenants. A tenant's view of it is kept per set of agents run (tenants alike share one).
// Keyed by the linear model too: the same packs with and without it are two routers.
const trained = new WeakMap<
  readonly Pack[],
  Map<UnclearPhrases | undefined, Map<TextModel | undefined, Map<string, RouteContext>>>
>();

/**
 * The route context for `packs`, or for the agents a tenant `runs` of them:
 * the classifier and language detector trained from the packs' intents, the
 * front desk and hand-off from their roles, the clarifying question's
 * services from the front desk's menu.
 *
 * @throws {TypeError} when the packs leave a routing role unheld or held twice.
 */
export function createRouter(options: RouterOptions): RouteContext {
  const byUnclear = trained.get(options.packs) ?? new Map();
  trained.set(options.packs, byUnclear);
  const byModel = byUnclear.get(options.unclear) ??
    new Map<TextModel | undefined, Map<string, RouteContext>>();
  byUnclear.set(options.unclear, byModel);
  const byRuns = byModel.get(options.model) ?? new Map<string, RouteContext>();
  byModel.set(options.model, byRuns);
  const key = options.runs ? [...new Set(options.runs)].sort().join(" ") : "*";
  const cached = byRuns.get(key);
  if (cached) return cached;
  const roster = agentRoster(options.packs);
  if (options.runs) {
    // A tenant's router is the whole router seen through the agents it runs: the classifier is
    // trained once on every pack (so another tenant's topic reads as that topic, not as the
    // nearest of this tenant's), and a topic this tenant does not run is no topic here.
    const whole = createRouter({
      packs: options.packs,
      unclear: options.unclear,
      ...(options.model ? { model: options.model } : {}),
    });
    const runs = new Set(options.runs);
    // The front desk and the hand-off stay reachable: every tenant's people start somewhere
    // and can ask for a person (the roster's tenant view says who answers if it runs neither).
    // Staff work is no agent: every tenant's customers are told the team does it.
    const reachable = (agent: string) =>
      runs.has(agent) || agent === roster.frontDesk || agent === roster.handoff ||
      agent === STAFF_WORK_LABEL;
    const context: RouteContext = {
      ...whole,
      classifier: { classify: (text) => runOnly(whole.classifier.classify(text), reachable) },
      agents: {
        ...whole.agents,
        menu: roster.menu.filter((entry) => runs.has(entry.id)).slice(0, 10).map((entry) =>
          entry.id
        ),
        customer: whole.agents.customer.filter(reachable),
        learnt: whole.agents.learnt?.filter(reachable),
        everyService: whole.classifier,
      },
    };
    byRuns.set(key, context);
    return context;
  }
  const examples = packIntents(options.packs);
  const context = trainRouteContext({
    // Customers' requests for staff work are learnt as their own class, never as a staff agent.
    examples: [...examples, ...packStaffWork(options.packs)],
    unclear: options.unclear,
    neutralNames: packNeutralNames(options.packs),
    places: packPlaces(options.packs),
    vehicleNames: packVehicleNames(options.packs),
    model: options.model,
    agents: {
      frontDesk: roster.frontDesk,
      handoff: roster.handoff,
      menu: roster.menu.slice(0, 10).map((entry) => entry.id),
      customer: customerAgents(options.packs),
      learnt: examples.map((example) => example.agent),
      holds: agentHolds(options.packs),
      answersHours: options.packs.flatMap((pack) => pack.agents)
        .filter((agent) => agent.answersHours).map((agent) => agent.id),
      trips: options.packs.flatMap((pack) => pack.agents).find((agent) => agent.takesTrips)?.id,
      vehicleTrade: options.packs.flatMap((pack) => pack.agents)
        .find((agent) => agent.takesVehicleTrade)?.id,
      payments: options.packs.flatMap((pack) => pack.agents).find((agent) => agent.takesPayments)
        ?.id,
      complaints: complaintsAgent(options.packs),
      followUps: followUpsAgent(options.packs),
    },
  });
  byRuns.set(key, context);
  return context;
}

// A classification kept to the agents a tenant runs: the most likely of them, if it reads more
// like a request than like the phrases that ask for nothing; else no topic.
function runOnly(
  found: Classification,
  reachable: (agent: string) => boolean,
): Classification {
  if (found.agent === null || reachable(found.agent)) {
    return { ...found, ranking: found.ranking.filter((entry) => reachable(entry.agent)) };
  }
  const ranking = found.ranking.filter((entry) => reachable(entry.agent));
  const best = ranking[0];
  return best && best.confidence > found.unclear
    ? { ...found, agent: best.agent, confidence: best.confidence, ranking }
    : { ...found, agent: null, confidence: 0, ranking };
}

// The agent that takes complaints about a service and how it hears one (`PackAgent.takesComplaint`).
function complaintsAgent(packs: readonly Pack[]): RouterAgents["complaints"] {
  const agent = packs.flatMap((pack) => pack.agents).find((agent) => agent.takesComplaint);
  return agent?.takesComplaint ? { agent: agent.id, hears: agent.takesComplaint } : undefined;
}

// The agent that takes follow-ups of a purchase no agent named answers, how it hears one, and the
// agents that answer them (`PackAgent.takesFollowUp`, `PackAgent.answersFollowUps`).
function followUpsAgent(packs: readonly Pack[]): RouterAgents["followUps"] {
  const agents = packs.flatMap((pack) => pack.agents);
  const taker = agents.find((agent) => agent.takesFollowUp);
  return taker?.takesFollowUp
    ? {
      agent: taker.id,
      hears: taker.takesFollowUp,
      answers: agents.filter((agent) => agent.answersFollowUps).map((agent) => agent.id),
    }
    : undefined;
}

// Which agents keep a message in their conversation whatever its topic (`PackAgent.holds`).
function agentHolds(packs: readonly Pack[]): RouterAgents["holds"] {
  const holders = new Map(
    packs.flatMap((pack) => pack.agents).flatMap((agent) =>
      agent.holds ? [[agent.id, agent.holds] as const] : []
    ),
  );
  return (agent, text) => holders.get(agent)?.(text) ?? false;
}
