/**
 * Staff notification channels. The local default records each message in
 * `notification_outbox`, inside the caller's transaction, so what would have
 * gone to Slack or SMS is visible and commits with the ticket.
 *
 * @module
 */
import type { ChannelAdapter } from "@shared/registry/define_tool.ts";

/** A channel that only records: the default when no provider is configured. */
export function recordingChannel(channel: "slack" | "sms", target: string): ChannelAdapter {
  return {
    async send(message, tx) {
      await tx.query(
        `insert into public.notification_outbox (org_id, ticket_id, channel, target, body, created_by)
         values ($1, $2, $3, $4, $5, (select auth.uid()))`,
        [message.org_id, message.ticket_id, channel, target, message.text],
      );
      return { target, status: "recorded" };
    },
  };
}
