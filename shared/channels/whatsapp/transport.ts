/**
 * The transport contract: how the dispatcher hands one message to WhatsApp.
 * {@link createGraphAdapter} talks to Meta's Graph API;
 * {@link createLocalAdapter} only pretends, for local runs.
 *
 * @module
 */
import type { MessageBody } from "./messages.ts";

/** Meta accepted the message. */
export interface SendAccepted {
  /** Success. */
  ok: true;
  /** Meta's message id; statuses refer to it. */
  wamid: string;
}

/** Meta (or the network) refused the message. */
export interface SendRejected {
  /** Failure. */
  ok: false;
  /** Meta's `error.code`, or 0 (`WA_ERROR.transport`) when no Graph API answer came. */
  code: number;
  /** A short description (Meta's error message without its `(#code)` prefix). */
  title: string;
  /** Meta's `error_data.details`, when given. */
  details?: string;
  /** Whether sending the same message again later may work. */
  retryable: boolean;
  /** The server's `Retry-After`, in milliseconds, when it sent one. */
  retryAfterMs?: number;
}

/** The outcome of one send. */
export type SendResult = SendAccepted | SendRejected;

/** Sends one message to one recipient; never throws for a refused message. */
export interface WhatsAppTransport {
  /**
   * Sends `body` to `to`.
   *
   * @param to The recipient's wa_id.
   * @param body The message body, without `to`.
   * @param from The tenant sending it (its business number sends); absent in
   *   single-number uses.
   * @returns Accepted with the wamid, or rejected with Meta's code.
   */
  send(to: string, body: MessageBody, from?: SendFrom): Promise<SendResult>;
}

/** Who sends a message: the tenant whose business number it leaves from. */
export interface SendFrom {
  /** The org id of the tenant (`wa_outbox.org_id`). */
  orgId: string;
  /**
   * The tenant's business number the recipient last wrote to
   * (`wa_contacts.phone_number_id`): the message leaves from it, so a tenant
   * with two numbers answers from the one written to. @default the tenant's first number
   */
  phoneNumberId?: string;
}
