/**
 * The agents as the graph routes them, read from the packs the composition
 * root hands in: who holds the front desk, the fallback and the hand-off,
 * which words name which agent, the menu, and each agent's offline flow.
 * The agent code names no agent itself.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";
import type { FlowMemory } from "@shared/registry/flow_memory.ts";
import type {
  AgentRole,
  MenuEntry,
  OfflineFlow,
  Pack,
  PackAgent,
  PendingWork,
} from "@shared/registry/pack.ts";

/** The packs' agents, indexed for routing. */
export interface AgentRoster {
  /** Where conversations start and return. */
  frontDesk: string;
  /** Where the front desk sends what names no topic. */
  fallback: string;
  /** Where sensitive topics and failing agents go. */
  handoff: string;
  /** The front desk's menu, in pack order: customer agents only. */
  menu: readonly MenuEntry[];
  /**
   * The staff menu, in pack order: every staff agent with a flow, titled by
   * its `menuTitle` (else its name). Only the staff channel shows it.
   */
  staffMenu: readonly MenuEntry[];
  /** A staff agent's flow and memory; undefined for any other agent (customers' included). */
  staffAgent(
    agentId: string,
  ): Pick<PackAgent, "id" | "name" | "offlineFlow" | "memory"> | undefined;
  /**
   * An agent's display name in a language (its `names`, else its `name`),
   * on the menu or not; the id itself for an agent no pack declares.
   */
  nameOf(agentId: string, language: Language): string;
  /**
   * A customer service's title in a language as any tenant's menu shows it ("Rides & moto"),
   * whether or not this tenant runs it; else its display name.
   */
  titleOf(agentId: string, language: Language): string;
  /** The agent a message names by its words (hand-off first, then pack order), or null. */
  topicOf(text: string): string | null;
  /** An agent's offline flow; the front desk's for an agent without one. */
  flowOf(agentId: string): OfflineFlow;
  /**
   * The staff work the agents do, named as customers hear it (`staffWorkName`), in pack order:
   * what a customer asking for it is told the team does.
   */
  staffWorkNames(language: Language): ReadonlyArray<{ agent: string; name: string }>;
  /** What an agent's conversation may leave open, if it declares it. */
  pendingOf(agentId: string): PendingWork | undefined;
  /** Whether an agent's places stock an item a message names, if it sells from stock. */
  stocksOf(agentId: string): PackAgent["stocks"];
  /** What an agent's offline flow keeps between turns, if it declares it. */
  memoryOf(agentId: string): FlowMemory | undefined;
  /** What the model is told an agent must and must not do, and the guard on its replies. */
  rulesOf(agentId: string): Pick<PackAgent, "instructions" | "guardReply">;
}

/**
 * Indexes the packs' agents.
 *
 * @throws {TypeError} when a role is held by no agent or by two, when an
 * agent id repeats, when an agent's intents name another agent, when a
 * staff agent could be routed to by a customer's words (intents or
 * keywords), when a staff agent holds a role, or when the front desk has no
 * offline flow.
 */
export function agentRoster(packs: readonly Pack[]): AgentRoster {
  const agents = new Map<string, PackAgent>();
  for (const agent of packs.flatMap((pack) => pack.agents)) {
    if (agents.has(agent.id)) {
      throw new TypeError(`Cannot index agents as "${agent.id}" is declared twice`);
    }
    agents.set(agent.id, agent);
    // An id is a string now, not a closed list: the packs are the registry it is checked against.
    if (agent.intents && agent.intents.agent !== agent.id) {
      throw new TypeError(
        `Cannot index agents as "${agent.id}" declares intents for "${agent.intents.agent}"`,
      );
    }
    // A staff agent's menu title is the staff menu's; words and roles would route customers.
    if (agent.audience === "staff" && (agent.intents || agent.asks || agent.role)) {
      throw new TypeError(
        `Cannot index agents as staff agent "${agent.id}" has intents, keywords or a role: ` +
          "customers would be routed to it",
      );
    }
  }
  const holder = (role: AgentRole): PackAgent => {
    const holders = [...agents.values()].filter((agent) => agent.role === role);
    if (holders.length !== 1) {
      throw new TypeError(
        `Cannot index agents as exactly one must hold the role ${role}: current holders are [${
          holders.map((agent) => agent.id).join(", ")
        }]`,
      );
    }
    return holders[0];
  };
  const frontDesk = holder("front_desk");
  const handoff = holder("handoff");
  const fallback = holder("fallback");
  const frontDeskFlow = frontDesk.offlineFlow;
  if (!frontDeskFlow) {
    throw new TypeError(
      `Cannot index agents as the front desk "${frontDesk.id}" has no offline flow`,
    );
  }
  // The hand-off's words come first: asking for a person wins over any topic.
  const askers = [handoff, ...[...agents.values()].filter((agent) => agent !== handoff)]
    .filter((agent) => agent.asks);
  return {
    frontDesk: frontDesk.id,
    fallback: fallback.id,
    handoff: handoff.id,
    menu: [...agents.values()].flatMap((agent) =>
      agent.audience === "customers" && agent.menuTitle
        ? [{ id: agent.id, title: agent.menuTitle }]
        : []
    ),
    staffMenu: [...agents.values()].flatMap((agent) =>
      agent.audience === "staff" && agent.offlineFlow
        ? [{
          id: agent.id,
          title: agent.menuTitle ?? { en: agent.name, rw: agent.name, fr: agent.name },
        }]
        : []
    ),
    staffAgent: (agentId) => {
      const agent = agents.get(agentId);
      return agent?.audience === "staff" && agent.offlineFlow ? agent : undefined;
    },
    nameOf: (agentId, language) => {
      const agent = agents.get(agentId);
      return agent?.names?.[language] ?? agent?.name ?? agentId;
    },
    titleOf: (agentId, language) => {
      const agent = agents.get(agentId);
      return agent?.menuTitle?.[language] ?? agent?.names?.[language] ?? agent?.name ?? agentId;
    },
    topicOf: (text) => askers.find((agent) => agent.asks!(text))?.id ?? null,
    flowOf: (agentId) => agents.get(agentId)?.offlineFlow ?? frontDeskFlow,
    pendingOf: (agentId) => agents.get(agentId)?.pending,
    stocksOf: (agentId) => agents.get(agentId)?.stocks,
    staffWorkNames: (language) =>
      [...agents.values()].flatMap((agent) =>
        agent.staffWorkName ? [{ agent: agent.id, name: agent.staffWorkName[language] }] : []
      ),
    // The front desk's flow answers for agents without one: its memory then, not theirs.
    memoryOf: (agentId) => {
      const agent = agents.get(agentId);
      return agent?.offlineFlow ? agent.memory : frontDesk.memory;
    },
    rulesOf: (agentId) => {
      const agent = agents.get(agentId);
      return { instructions: agent?.instructions, guardReply: agent?.guardReply };
    },
  };
}

// Said when a tenant runs no hand-off agent: the channel then holds the conversation for staff.
const STAFF_HOLD: Record<Language, string> = {
  en: "I'm passing you to our team. A person will reply to you here.",
  rw: "Ndakohereza ku bakozi bacu. Umuntu arakusubiza hano.",
  fr: "Je vous passe à notre équipe. Une personne vous répondra ici.",
};

/**
 * The roster as one tenant's conversations see it: only the agents the
 * tenant runs (the agent file's view) are on its menu or reached by their
 * words. The front desk is where every conversation starts and calls no
 * tool, so it holds for every tenant. A tenant that does not run the
 * fallback falls back to the front desk; one that does not run the hand-off
 * agent still reaches staff: the channel holds the conversation for a
 * person (the hand-off agent's tools are not the tenant's to call).
 */
export function tenantRoster(roster: AgentRoster, runs: ReadonlySet<string>): AgentRoster {
  const reachable = (id: string) => runs.has(id) || id === roster.frontDesk;
  const runsHandoff = runs.has(roster.handoff);
  const staffHold: OfflineFlow = (turn) =>
    Promise.resolve({ replies: [{ text: STAFF_HOLD[turn.language] }], handoff: true, done: true });
  return {
    ...roster,
    fallback: reachable(roster.fallback) ? roster.fallback : roster.frontDesk,
    menu: roster.menu.filter((entry) => runs.has(entry.id)),
    staffMenu: roster.staffMenu.filter((entry) => runs.has(entry.id)),
    staffAgent: (agentId) => runs.has(agentId) ? roster.staffAgent(agentId) : undefined,
    // Only the work of agents the tenant runs: a tenant without videos never mentions them.
    staffWorkNames: (language) =>
      roster.staffWorkNames(language).filter((work) => runs.has(work.agent)),
    topicOf: (text) => {
      const topic = roster.topicOf(text);
      // Asking for a person is answered whether or not the tenant runs the hand-off agent.
      return topic && (reachable(topic) || topic === roster.handoff) ? topic : null;
    },
    flowOf: (agentId) =>
      agentId === roster.handoff && !runsHandoff ? staffHold : roster.flowOf(agentId),
  };
}
