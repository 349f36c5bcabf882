/**
 * The service `notify_staff` needs to tell staff outside the Admin Inbox
 * (Slack, SMS): declared here by key, provided by the composition root, so
 * the kernel never names a vendor.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import { serviceKey } from "@shared/registry/define_tool.ts";

/** One message for staff about a ticket. */
export interface StaffNotice {
  org_id: string;
  ticket_id: string;
  text: string;
  urgent: boolean;
}

/** Where a notice went. */
export interface StaffNoticeReceipt {
  target: string;
  status: "recorded" | "sent";
}

/** Tells staff on a channel other than the inbox. */
export interface StaffNotifier {
  /**
   * Delivers (or stages, in `tx`, to be sent after commit) one notice on
   * `channel`; returns where it went.
   */
  send(channel: "slack" | "sms", notice: StaffNotice, tx: Queryable): Promise<StaffNoticeReceipt>;
}

/** The key the composition root provides the staff notifier under. */
export const STAFF_NOTIFIER = serviceKey<StaffNotifier>("support.staff_notifier");
