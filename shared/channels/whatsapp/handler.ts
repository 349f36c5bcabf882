/**
 * What happens to a stored inbound message: an answer from one of the packs'
 * counterparts (a vendor to an inquiry, a driver to a ride offer, ...) goes
 * to the pack that claims it; everything else is a customer's turn for the
 * conversation handler. A turn's replies, transcript and next state commit in
 * one transaction, skipped entirely if that message was already committed —
 * so re-processing after a crash sends nothing twice.
 *
 * A turn whose tool call is rate limited is not answered with an error and
 * not marked done: the user is told once, in their language, to try again
 * shortly, and the message is put off ({@link RetryLater}) for a later attempt.
 *
 * @module
 */
import { fail, type ToolResult } from "@shared/contract/mod.ts";
import type { ConversationHandler } from "./conversation.ts";
import { resolveWhatsAppSender } from "./whatsapp_user.ts";
import { answerWhileHandedOff } from "./handoff_queue.ts";
import { typedLeaveAnswer } from "@shared/contract/leave_answer.ts";
import type { Database, Queryable } from "@shared/db/types.ts";
import {
  MESSAGE_RECEIVED,
  type MessageReceivedPayload,
} from "@shared/capabilities/messaging/events.ts";
import type { z } from "zod";
import type { Counterpart, CounterpartMessage } from "@shared/registry/pack.ts";
import type { Platform } from "@shared/pipeline/platform.ts";
import { type InboundMessage, messageText } from "./inbound.ts";
import { type InboundHandler, RetryLater } from "./inbound_processor.ts";
import { enqueueMessage, textMessage, type WhatsAppMessage } from "./mod.ts";
import { sha256Hex } from "@shared/runtime/canonical.ts";
import { languageOf, phraseBook } from "@shared/contract/language.ts";

const say = phraseBook({
  busy: {
    en:
      "We are getting many requests right now. Please try again shortly: we kept your message and will come back to it.",
    rw:
      "Turimo kwakira ubusabe bwinshi ubu. Mwongere mugerageze mu kanya gato: ubutumwa bwanyu twabubitse kandi turabusubiza.",
    fr:
      "Nous recevons beaucoup de demandes en ce moment. Merci de réessayer dans un instant : nous avons gardé votre message et y reviendrons.",
  },
});

/** Thrown out of a turn's tool call that was rate limited. */
class ToolRateLimited extends Error {
  constructor(readonly tool: string) {
    super(`tool ${tool} was rate limited`);
  }
}

/** Options for {@link createWhatsAppHandler}. */
export interface WhatsAppHandlerOptions {
  /** The platform (tools, database). */
  platform: Platform;
  /** The org that owns the business number. */
  orgId: string;
  /** Answers every customer turn (whatever no counterpart claims). */
  conversation: ConversationHandler;
  /** Called (and awaited) after outbound messages were queued, e.g. to dispatch now. */
  onQueued?: () => Promise<void>;
  /** How long a rate-limited message waits before its next attempt. @default 60000 */
  rateLimitRetryMs?: number;
}

/** The counterpart's view of an inbound message. */
export function counterpartMessage(message: InboundMessage): CounterpartMessage {
  const content = message.content;
  return {
    wamid: message.wamid,
    from: message.from,
    text: messageText(content),
    choice: content.kind === "button_reply" || content.kind === "list_reply"
      ? content.id
      : content.kind === "quick_reply"
      ? content.payload
      : undefined,
    contextWamid: message.contextWamid,
    location: content.kind === "location"
      ? { latitude: content.latitude, longitude: content.longitude }
      : undefined,
    profileName: message.profileName,
  };
}

/** Builds the handler the inbound processor runs. */
export function createWhatsAppHandler(options: WhatsAppHandlerOptions): InboundHandler {
  const { platform, orgId, conversation } = options;
  const rateLimitRetryMs = options.rateLimitRetryMs ?? 60_000;
  const db = platform.db;

  // Once per message (the outbox key), however often it is put off again. What it would say
  // may change between attempts (another message of theirs made the profile French meanwhile):
  // the first one stands, the customer is not told twice and the retry does not fail on it.
  async function askToWait(
    message: InboundMessage,
    locale: "en" | "rw" | "fr",
    conversationId: string,
  ) {
    const language = languageOf(messageText(message.content), locale);
    await enqueueMessage(db, {
      orgId,
      to: message.from,
      message: textMessage(say("busy", language)),
      idempotencyKey: `busy:${message.wamid}`,
      conversationId,
      firstStands: true,
    });
    await options.onQueued?.();
  }

  const counterparts = platform.packs.flatMap((pack) => pack.counterparts ?? []);

  async function counterpartAnswer(
    counterpart: Counterpart,
    message: CounterpartMessage,
  ): Promise<void> {
    await counterpart.handle(message, async (tool, args, step) => {
      const result = await platform.call({
        tool,
        args,
        caller: { claims: { role: "service_role" }, org_id: orgId },
        // No agent: counterparts are answered by the pack's code, not an agent's allowlist.
        context: { trace_id: message.wamid },
        idempotencyKey: `wa:${message.wamid}:${step}`,
      });
      if (!result.ok && result.error.code === "RATE_LIMIT") {
        throw new RetryLater(`RATE_LIMIT: ${tool}`, { delayMs: rateLimitRetryMs });
      }
      throwIfTransient(result);
      return result;
    });
    await options.onQueued?.();
  }

  async function conversationTurn(message: InboundMessage): Promise<void> {
    // The org's staff, writing from a number it registered for them, are themselves here (their
    // staff agents, their rights); anyone else is a customer of the number's org.
    const user = await resolveWhatsAppSender(db, {
      orgId,
      waId: message.from,
      profileName: message.profileName,
    });
    // Handed to staff: the person still hears where they stand, and can leave the queue
    // (then this message reaches the assistant as "menu", so they see what it offers).
    // …except the answer to "cancel or keep?" asked with an urgent hand-off: the assistant
    // holds that work (a paused ride) and settles it, and the person stays with staff.
    const said = counterpartMessage(message);
    const settlesWork = /^leave:(cancel|keep)$/.test(said.choice ?? "") ||
      (user.state.awaiting === "leave" && typedLeaveAnswer(said.text ?? "") !== null);
    const waiting = user.handedOff && !settlesWork
      ? await answerWhileHandedOff(db, {
        orgId,
        conversationId: user.conversationId,
        locale: user.locale,
        text: counterpartMessage(message).text,
        choice: counterpartMessage(message).choice,
      })
      : null;
    const outcome = waiting && !waiting.left ? waiting : await conversation({
      message: waiting ? { ...message, content: { kind: "text", text: "menu" } } : message,
      user: waiting ? { ...user, handedOff: false } : user,
      orgId,
      callTool: async (tool, args, callOptions) => {
        // A customer's turn calls tools as an agent, under its allowlist: the channel runs every
        // tenant's agents and picks none itself, so a call that names no agent is refused.
        if (!callOptions?.agentId) {
          return fail("AUTH_ERROR", "A conversation's tool call must name the agent making it");
        }
        const result = await platform.call({
          tool,
          args,
          caller: { claims: { sub: user.userId, role: "authenticated" }, org_id: orgId },
          context: {
            trace_id: message.wamid,
            agent_id: callOptions.agentId,
            convo_id: user.conversationId,
          },
          idempotencyKey: callOptions?.key ?? `wa:${message.wamid}:${callOptions?.step ?? tool}`,
          confirmation: callOptions?.confirmation,
        });
        if (!result.ok && result.error.code === "RATE_LIMIT") throw new ToolRateLimited(tool);
        if (!callOptions?.answersFailure) throwIfTransient(result);
        return result;
      },
      progress: async (text) => {
        // Keyed by its text: a retried message does not say it twice (nor fails on it when its
        // conversation was closed and another opened meanwhile).
        await enqueueMessage(db, {
          orgId,
          to: message.from,
          message: textMessage(text),
          idempotencyKey: `progress:${message.wamid}:${(await sha256Hex(text)).slice(0, 16)}`,
          conversationId: user.conversationId,
          firstStands: true,
        });
        await options.onQueued?.();
      },
    }).catch(async (error) => {
      if (!(error instanceof ToolRateLimited)) throw error;
      await askToWait(message, user.locale, user.conversationId);
      throw new RetryLater(`RATE_LIMIT: ${error.tool}`, { delayMs: rateLimitRetryMs });
    });
    await commitTurn(db, {
      orgId,
      message,
      userId: user.userId,
      conversationId: user.conversationId,
      replies: [...waiting?.left ? waiting.replies : [], ...outcome.replies],
      state: "state" in outcome ? outcome.state : user.state,
      handoff: "handoff" in outcome && outcome.handoff === true,
      entered: "entered" in outcome ? outcome.entered : undefined,
    });
    if (outcome.replies.length || waiting?.replies.length) await options.onQueued?.();
  }

  // The front desk is where a conversation rests between flows.
  const frontDesk = platform.packs.flatMap((pack) => pack.agents ?? [])
    .find((agent) => agent.role === "front_desk")?.id;
  const idle = (from: string) => async () => {
    const [open] = await db.query<
      { status: string; agent: string | null; awaiting: string | null }
    >(
      `select c.status, c.state->>'agent' as agent, c.state->>'awaiting' as awaiting
       from public.conversations c join public.profiles p on p.id = c.user_id
       where c.org_id = $1 and p.phone = '+' || $2::text and c.channel = 'whatsapp'
         and c.status <> 'closed'`,
      [orgId, from],
    );
    return !open || (open.status === "open" && !open.awaiting &&
      (!open.agent || open.agent === frontDesk));
  };

  return async (message) => {
    const asCounterpart = { ...counterpartMessage(message), orgId, idle: idle(message.from) };
    for (const counterpart of counterparts) {
      if (await counterpart.claims(db, asCounterpart)) {
        return await counterpartAnswer(counterpart, asCounterpart);
      }
    }
    await conversationTurn(message);
  };
}

// A transient failure (timeout, outage, our bug) is thrown so the message is retried.
function throwIfTransient(result: ToolResult): void {
  if (result.ok) return;
  if (["TIMEOUT", "SERVICE_UNAVAILABLE", "INTERNAL_ERROR"].includes(result.error.code)) {
    throw new Error(`tool call failed transiently: ${result.error.code}`);
  }
}

/** Commits a turn: transcript, state and queued replies, once per message. */
export async function commitTurn(
  db: Database,
  turn: {
    orgId: string;
    message: InboundMessage;
    userId: string;
    conversationId: string;
    replies: WhatsAppMessage[];
    state: Record<string, unknown>;
    handoff?: boolean;
    /** The agent the turn entered: its `funnel_started`, committed with the turn. */
    entered?: string;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [inbound] = await tx.query(
      `insert into public.messages (org_id, conversation_id, user_id, direction, sender, body, payload, wamid, created_at)
       values ($1, $2, $3, 'inbound', 'user', $4, $5, $6, $7)
       on conflict (wamid) do nothing
       returning id`,
      [
        turn.orgId,
        turn.conversationId,
        turn.userId,
        messageText(turn.message.content) || null,
        { kind: turn.message.content.kind, content: turn.message.content },
        turn.message.wamid,
        turn.message.sentAt.toISOString(),
      ],
    );
    // Already committed by an earlier run of this message: nothing more to do.
    if (!inbound) return;
    await emitMessageReceived(tx, turn);
    await tx.query(
      `update public.conversations
       set state = $2, updated_at = now(),
           last_inbound_at = greatest(last_inbound_at, $3::timestamptz),
           status = case when $4 then 'handoff' else status end,
           agent_id = coalesce($5, agent_id)
       where id = $1`,
      [
        turn.conversationId,
        turn.state,
        turn.message.sentAt.toISOString(),
        turn.handoff ?? false,
        // The agent the conversation is with now, as the Admin Inbox shows it.
        typeof turn.state.agent === "string" && turn.state.agent ? turn.state.agent : null,
      ],
    );
    if (turn.entered) {
      // Once per entry: written with the message, which commits once however often it is run.
      await tx.query(
        `insert into public.analytics_events (org_id, event, props, user_id, convo_id, trace_id)
         values ($1, 'funnel_started', jsonb_build_object('agent', $2::text),
                 (select m.user_id from public.org_members m
                  where m.org_id = $1 and m.user_id = $3),
                 $4, $5)`,
        [turn.orgId, turn.entered, turn.userId, turn.conversationId, turn.message.wamid],
      );
    }
    for (const [index, reply] of turn.replies.entries()) {
      await enqueueMessage(tx, {
        orgId: turn.orgId,
        to: turn.message.from,
        message: reply,
        idempotencyKey: `reply:${turn.message.wamid}:${index}`,
        conversationId: turn.conversationId,
      });
      await tx.query(
        `insert into public.messages (org_id, conversation_id, user_id, direction, sender, body, payload)
         values ($1, $2, $3, 'outbound', 'agent', $4, $5)`,
        [turn.orgId, turn.conversationId, turn.userId, bodyText(reply), reply],
      );
    }
  });
}

/**
 * The front desk's `message_received` event for automations, written with the message so a
 * re-delivered webhook (the same wamid) writes none: the message's insert above does nothing,
 * and the outbox's key (org, event, wamid) holds even if it did.
 */
async function emitMessageReceived(
  tx: Queryable,
  turn: {
    orgId: string;
    message: InboundMessage;
    conversationId: string;
    state: Record<string, unknown>;
  },
): Promise<void> {
  const language = turn.state.language;
  const payload: z.input<typeof MessageReceivedPayload> = {
    message_id: turn.message.wamid,
    text: messageText(turn.message.content),
    sender_phone: `+${turn.message.from}`,
    sender_name: turn.message.profileName ?? "",
    language: language === "rw" || language === "fr" ? language : "en",
    conversation_id: turn.conversationId,
    agent: typeof turn.state.agent === "string" && turn.state.agent ? turn.state.agent : null,
  };
  await tx.query(
    `insert into public.automation_events (org_id, event, source_key, payload, occurred_at)
     values ($1, $2, $3, $4, $5)
     on conflict (org_id, event, source_key) do nothing`,
    [
      turn.orgId,
      MESSAGE_RECEIVED.name,
      turn.message.wamid,
      payload,
      turn.message.sentAt.toISOString(),
    ],
  );
}

function bodyText(message: WhatsAppMessage): string {
  const body = message.body as unknown as Record<string, unknown>;
  const text = (body.text as { body?: string } | undefined)?.body;
  const interactive = (body.interactive as { body?: { text?: string } } | undefined)?.body?.text;
  const template = (body.template as { name?: string } | undefined)?.name;
  return text ?? interactive ?? (template ? `[template ${template}]` : "");
}
