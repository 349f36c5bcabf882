/**
 * Staff notification channels, as tools see them: {@link recordingChannel}
 * stages each message in `notification_outbox` (`status = 'recorded'`)
 * inside the caller's transaction, so it commits, or rolls back, with the
 * ticket. Nothing outside the database is called there: the notification
 * dispatcher (`notification_dispatcher.ts`) sends committed rows afterwards
 * through a `NotificationTransport` (`slack.ts`, `sms.ts`).
 *
 * @module
 */
import type { ChannelAdapter } from "@shared/registry/define_tool.ts";

/**
 * The channel tools use: stages one outbox row for `channel`, labelled
 * `target` until the dispatcher stores where it really went.
 */
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
