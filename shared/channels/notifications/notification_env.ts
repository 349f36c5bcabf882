/**
 * Notification transports from the environment:
 *
 * | variable | meaning |
 * | --- | --- |
 * | `SLACK_WEBHOOK_URL` | Slack incoming webhook (secret); Slack is local/unsent without it |
 * | `SMS_ENDPOINT` | generic HTTP SMS gateway URL (`POST {from, to, text}`) |
 * | `SMS_API_KEY` | its bearer key (secret) |
 * | `SMS_SENDER` | sender id, e.g. `EasyMO` |
 * | `STAFF_SMS_TO` | on-call numbers, E.164, comma-separated |
 *
 * The four SMS variables go together: some without the others is an error,
 * not a silent fallback.
 *
 * @module
 */
import type { Logger } from "@shared/runtime/log.ts";
import type { FetchLike, NotificationTransport } from "./notification_transport.ts";
import { createLocalSlackTransport, createSlackWebhookTransport } from "./slack.ts";
import { createHttpSmsTransport, createLocalSmsTransport } from "./sms.ts";

/** The SMS variables, all required together. */
export const SMS_ENV = ["SMS_ENDPOINT", "SMS_API_KEY", "SMS_SENDER", "STAFF_SMS_TO"] as const;

/** Options for {@link notificationTransportsFromEnv}. */
export interface NotificationEnvOptions {
  /** Where variables are read. @default Deno.env */
  env?: { get(name: string): string | undefined };
  /**
   * A channel that is not configured: `local` sends nothing and marks rows
   * sent with target `local` (development); `none` leaves no transport, so
   * rows stay `recorded` until one is configured (deployed functions).
   * @default "local"
   */
  fallback?: "local" | "none";
  /** Told which channels are local or unconfigured (names only, never values). */
  log?: Pick<Logger, "info" | "warn">;
  /** The fetch the transports use. @default globalThis.fetch */
  fetch?: FetchLike;
}

/** One transport per configured channel. */
export interface NotificationTransports {
  /** Slack, when configured (or local). */
  slack?: NotificationTransport;
  /** SMS, when configured (or local). */
  sms?: NotificationTransport;
}

/**
 * Builds the transports the environment configures.
 *
 * @throws {Error} when only some SMS variables are set, naming the missing
 * ones; {TypeError} when a URL is not https (without echoing it).
 */
export function notificationTransportsFromEnv(
  options: NotificationEnvOptions = {},
): NotificationTransports {
  const env = options.env ?? Deno.env;
  const read = (name: string) => env.get(name)?.trim() || undefined;
  const fallback = options.fallback ?? "local";
  const transports: NotificationTransports = {};

  const webhookUrl = read("SLACK_WEBHOOK_URL");
  if (webhookUrl) {
    transports.slack = createSlackWebhookTransport({ webhookUrl, fetch: options.fetch });
  } else if (fallback === "local") {
    transports.slack = createLocalSlackTransport({ log: options.log });
  }

  const sms = Object.fromEntries(SMS_ENV.map((name) => [name, read(name)]));
  const missing = SMS_ENV.filter((name) => !sms[name]);
  if (missing.length === 0) {
    transports.sms = createHttpSmsTransport({
      endpoint: sms.SMS_ENDPOINT!,
      apiKey: sms.SMS_API_KEY!,
      sender: sms.SMS_SENDER!,
      to: sms.STAFF_SMS_TO!.split(","),
      fetch: options.fetch,
    });
  } else if (missing.length < SMS_ENV.length) {
    throw new Error(`Cannot send staff SMS as ${missing.join(", ")} not set`);
  } else if (fallback === "local") {
    transports.sms = createLocalSmsTransport({ log: options.log });
  }

  for (const channel of ["slack", "sms"] as const) {
    const transport = transports[channel];
    if (!transport) options.log?.warn("notification_transport_missing", { channel });
    else if (!(channel === "slack" ? webhookUrl : missing.length === 0)) {
      options.log?.info("notification_transport_local", { channel });
    }
  }
  return transports;
}
