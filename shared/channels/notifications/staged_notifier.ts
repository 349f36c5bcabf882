/**
 * Staff notifications, as tools see them: {@link stagedNotifier} stages
 * each message in `notification_outbox` (`status = 'recorded'`) inside the
 * caller's transaction, so it commits, or rolls back, with the ticket.
 * Nothing outside the database is called there: the notification
 * dispatcher (`notification_dispatcher.ts`) sends committed rows afterwards
 * through a `NotificationTransport` (`slack.ts`, `sms.ts`).
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";

/** A notice to stage, about one ticket. */
export interface StagedNotice {
  org_id: string;
  ticket_id: string;
  text: string;
  urgent: boolean;
}

/** Stages notices for the dispatcher. */
export interface StagedNotifier {
  /** Stages one outbox row for `channel` in `tx`; labelled `<channel>:local` until sent. */
  send(
    channel: "slack" | "sms",
    notice: StagedNotice,
    tx: Queryable,
  ): Promise<{ target: string; status: "recorded" }>;
}

/** The notifier the composition root provides packs that tell staff. */
export function stagedNotifier(): StagedNotifier {
  return {
    async send(channel, notice, tx) {
      const target = `${channel}:local`;
      await tx.query(
        `insert into public.notification_outbox (org_id, ticket_id, channel, target, body, created_by)
         values ($1, $2, $3, $4, $5, (select auth.uid()))`,
        [notice.org_id, notice.ticket_id, channel, target, notice.text],
      );
      return { target, status: "recorded" };
    },
  };
}
