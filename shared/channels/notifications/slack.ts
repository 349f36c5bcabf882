/**
 * Staff notifications to Slack through an incoming webhook: one POST of
 * `{text, blocks}` per message, answered `200 ok` or with one of Slack's
 * plain-text errors (`400 invalid_payload`, `403 action_prohibited`,
 * `404 channel_not_found`, `410 channel_is_archived`, `429` with
 * `Retry-After`, `5xx`), read by the classifiers every Slack sender uses
 * (`classifySlackResponse`, `classifySlackFailure`, `shared/capabilities/slack`).
 * Only 408, 429 and 5xx and connections never made are worth retrying; the
 * rest need someone to fix the webhook. A POST that went out and got no
 * answer (a timeout) is never retried: it is reported `unknown`, since Slack
 * may have posted it.
 *
 * The webhook URL is a secret (anyone holding it can post to the channel):
 * it is never logged and never put into a result.
 *
 * @module
 */
import { classifySlackFailure, classifySlackResponse } from "@shared/capabilities/slack/mod.ts";
import {
  checkEndpoint,
  type FetchLike,
  type LocalTransportOptions,
  type NotificationTransport,
  postJson,
} from "./notification_transport.ts";

/** Maps one webhook answer to a send result (the capability's, re-exported for its users). */
export { classifySlackResponse };

/** Slack's limit on a section block's text. */
const MAX_SECTION_CHARS = 3000;

/** Options for {@link createSlackWebhookTransport}. */
export interface SlackWebhookOptions {
  /** The incoming-webhook URL (`https://hooks.slack.com/services/…`); a secret. */
  webhookUrl: string;
  /** The fetch to use. @default globalThis.fetch */
  fetch?: FetchLike;
  /** Gives up on one POST after this long. @default 5000 */
  timeoutMs?: number;
  /** Label stored as the outbox row's target once sent. @default "slack:webhook" */
  target?: string;
  /** A link to the ticket in the Admin Inbox, shown under the message. */
  ticketUrl?: (ticketId: string) => string;
}

/** The JSON body of one incoming-webhook message. */
export interface SlackWebhookMessage {
  /** Notification and fallback text (mrkdwn). */
  text: string;
  /** Block Kit layout. */
  blocks?: Array<Record<string, unknown>>;
}

/**
 * Escapes text for Slack mrkdwn: `&`, `<` and `>`, so a user's summary
 * cannot mention `<!channel>` or dress up a link.
 */
export function escapeMrkdwn(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** Options for {@link formatSlackMessage}. */
export interface SlackMessageInput {
  /** The staged text. */
  text: string;
  /** Urgent tickets get :rotating_light: in front. */
  urgent: boolean;
  /** The ticket, shown (and linked) under the message. */
  ticketId: string | null;
  /** Builds the ticket link. */
  ticketUrl?: (ticketId: string) => string;
}

/** Builds the webhook body: a short mrkdwn message, urgent ones flagged. */
export function formatSlackMessage(input: SlackMessageInput): SlackWebhookMessage {
  const prefix = input.urgent ? ":rotating_light: *Urgent* " : "";
  const text = truncate(`${prefix}${escapeMrkdwn(input.text)}`, MAX_SECTION_CHARS);
  const blocks: Array<Record<string, unknown>> = [
    { type: "section", text: { type: "mrkdwn", text } },
  ];
  if (input.ticketId) {
    const url = input.ticketUrl?.(input.ticketId);
    const ticket = `Ticket \`${input.ticketId.slice(0, 8)}\``;
    blocks.push({
      type: "context",
      elements: [{
        type: "mrkdwn",
        text: url ? `${ticket} · <${escapeMrkdwn(url)}|Open in Admin Inbox>` : ticket,
      }],
    });
  }
  return { text, blocks };
}

/**
 * A transport posting to a Slack incoming webhook.
 *
 * @throws {TypeError} when the URL is not https (or http to loopback).
 */
export function createSlackWebhookTransport(options: SlackWebhookOptions): NotificationTransport {
  checkEndpoint(options.webhookUrl, "the Slack webhook URL");
  const fetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 5000;
  const target = options.target ?? "slack:webhook";
  return {
    channel: "slack",
    async send(message) {
      const outcome = await postJson({
        url: options.webhookUrl,
        body: formatSlackMessage({ ...message, ticketUrl: options.ticketUrl }),
        timeoutMs,
        fetch,
        secrets: [options.webhookUrl],
      });
      if (outcome.kind === "error") {
        // Never connected: Slack certainly has not got it, and it may be sent again.
        if (classifySlackFailure(outcome.error) === "not_sent") {
          return { ok: false, retryable: true, reason: `slack ${outcome.reason}` };
        }
        // The request went out (a timeout, a cut connection): Slack may have posted it, and a
        // retry could post it twice. Recorded as unknown for staff to check the channel.
        return {
          ok: false,
          retryable: false,
          unknown: true,
          reason: `slack ${outcome.reason}: no answer, it may have been posted; not sent again`,
        };
      }
      const result = classifySlackResponse(outcome.status, outcome.body, outcome.retryAfterMs);
      return result.ok ? { ok: true, target } : result;
    },
  };
}

/**
 * The local default: succeeds without sending, so staged rows are marked
 * sent with target `local` (development, tests, or no webhook configured).
 */
export function createLocalSlackTransport(
  options: LocalTransportOptions = {},
): NotificationTransport {
  return {
    channel: "slack",
    send(message) {
      options.log?.info("notification_local", { channel: "slack", ticket_id: message.ticketId });
      return Promise.resolve({ ok: true, target: "local" });
    },
  };
}

function truncate(text: string, max: number): string {
  // Never leave half an entity (`&am`) at the cut.
  return text.length <= max ? text : `${text.slice(0, max - 1).replace(/&[a-z]*$/, "")}…`;
}
