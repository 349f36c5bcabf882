/**
 * The staff desk for the browser: the Admin Inbox's assistant panel talks to
 * the org's staff agents with the same desk, flows and principal as a staff
 * member's registered WhatsApp number. The staff member is the verified
 * caller (their JWT): tools run as them, under RLS with staff rights, for
 * the agent they picked. The panel's conversation is the member's `web`
 * conversation in the org, whose state keeps the desk's.
 *
 * @module
 */
import type { JwtClaims } from "@shared/db/types.ts";
import { languageFromLocale } from "@shared/contract/language.ts";
import type { AgentReply, TurnInput } from "@shared/registry/pack.ts";
import { agentRoster, tenantRoster } from "@shared/agent/roster.ts";
import { type StaffDeskState, staffDeskTurn, staffMenuReply } from "@shared/agent/staff_desk.ts";
import { discoveryOf } from "@shared/agent/tool_discovery.ts";
// Types only: admin-messages does not ship the model's client (scripts/ci/check_bundles.ts).
import type { ModelTurn } from "@shared/agent/model_turn.ts";
import type { Platform } from "@shared/pipeline/platform.ts";

/** Options for {@link createStaffAssistant}. */
export interface StaffAssistantOptions {
  /**
   * The model for a turn, when staff agents answer words with one (a host
   * that ships the model's client wires it). @default none: the agents' flows answer
   */
  modelTurn?: () => Pick<ModelTurn, "complete"> | null;
}

/** One message from the panel. */
export interface StaffAssistantRequest {
  /** The verified staff member's claims (`sub` is their user id). */
  claims: JwtClaims;
  /** The org they act in (checked staff by the caller resolver). */
  orgId: string;
  /** The client's idempotency key: a retry answers what the first attempt answered. */
  key: string;
  /** What they wrote, or the option they tapped (its id and title). */
  text: string;
  choice?: string;
}

/** What the panel shows. */
export interface StaffAssistantAnswer {
  /** The desk's or agent's replies. */
  replies: AgentReply[];
  /** The staff agent the conversation is with; "" at the menu. */
  agent: string;
}

/** The panel's staff desk. */
export interface StaffAssistant {
  /** The staff menu as it stands (no turn is taken). */
  menu(request: Pick<StaffAssistantRequest, "claims" | "orgId">): Promise<StaffAssistantAnswer>;
  /** Answers one message. */
  turn(request: StaffAssistantRequest): Promise<StaffAssistantAnswer>;
}

type Kept = StaffDeskState & { lastKey?: string; lastReplies?: AgentReply[] };

/** Builds the panel's staff desk over the platform's packs and tenants. */
export function createStaffAssistant(
  platform: Platform,
  options: StaffAssistantOptions = {},
): StaffAssistant {
  const roster = agentRoster(platform.packs);

  function tenantOf(orgId: string) {
    const tenant = platform.tenants.get(orgId);
    const agents = platform.agents.list(tenant?.slug ?? "");
    return { tenant, agents, roster: tenantRoster(roster, new Set(agents.map((a) => a.id))) };
  }

  // The member's open web conversation in the org (opened when they have none) and their locale.
  async function conversationOf(orgId: string, userId: string) {
    await platform.db.query(
      `insert into public.conversations (org_id, user_id, channel)
       select $1, $2, 'web'
       where not exists (
         select 1 from public.conversations
         where org_id = $1 and user_id = $2 and channel = 'web' and status <> 'closed')`,
      [orgId, userId],
    );
    const [row] = await platform.db.query<{ id: string; state: Kept; locale: string | null }>(
      `select c.id, c.state, p.locale from public.conversations c
       join public.profiles p on p.id = c.user_id
       where c.org_id = $1 and c.user_id = $2 and c.channel = 'web' and c.status <> 'closed'
       order by c.created_at limit 1`,
      [orgId, userId],
    );
    return row;
  }

  return {
    async menu({ claims, orgId }) {
      const [profile] = await platform.db.query<{ locale: string | null }>(
        "select locale from public.profiles where id = $1",
        [claims.sub],
      );
      const language = languageFromLocale(profile?.locale);
      return { replies: [staffMenuReply(tenantOf(orgId).roster, language)], agent: "" };
    },

    async turn(request) {
      const { claims, orgId, key } = request;
      const userId = String(claims.sub);
      const conversation = await conversationOf(orgId, userId);
      const kept = conversation.state ?? {};
      // The same message again (a retried request): what it answered the first time.
      if (kept.lastKey === key && kept.lastReplies) {
        return { replies: kept.lastReplies, agent: kept.agent ?? "" };
      }
      const { tenant, agents, roster: tenantView } = tenantOf(orgId);
      const input: TurnInput = {
        wamid: `web:${key}`,
        text: request.text.trim(),
        ...(request.choice ? { choice: request.choice } : {}),
      };
      const outcome = await staffDeskTurn({
        input,
        state: kept,
        locale: languageFromLocale(conversation.locale),
        roster: tenantView,
        now: platform.now(),
        ...(tenant?.profile ? { brand: tenant.profile.brand } : {}),
        ...(tenant?.profile?.currency ? { currency: tenant.profile.currency } : {}),
        model: options.modelTurn?.() ?? null,
        toolsFor: (agentId) => platform.getToolsForAgent(agentId, orgId),
        discovery: (agentId) => discoveryOf(platform.agents.get(tenant?.slug ?? "", agentId)),
        describe: (agentId) => agents.find((agent) => agent.id === agentId),
        callTool: (agentId, tool, args, callOptions) =>
          platform.call({
            tool,
            args,
            caller: { claims, org_id: orgId },
            context: { trace_id: `web:${key}`, agent_id: agentId, convo_id: conversation.id },
            idempotencyKey: callOptions.key,
            confirmation: callOptions.confirmation,
          }),
      });
      await platform.db.query(
        `update public.conversations
         set state = $2, agent_id = coalesce(nullif($3, ''), agent_id), updated_at = now()
         where id = $1`,
        [
          conversation.id,
          { ...outcome.state, lastKey: key, lastReplies: outcome.replies },
          outcome.state.agent,
        ],
      );
      return { replies: outcome.replies, agent: outcome.state.agent };
    },
  };
}
