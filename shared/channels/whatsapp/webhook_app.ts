/**
 * `wa-webhook`: the one webhook URL of the business number.
 *
 * - GET answers Meta's verification challenge when the verify token matches.
 * - POST checks `X-Hub-Signature-256` over the raw body (constant time, no
 *   bypass: missing → 401, wrong → 403, nothing stored), stores every message
 *   deduplicated by wamid and applies statuses, answers 200, and only then
 *   processes what was new. What a crash leaves unprocessed, the sweep picks up.
 * - The body is read streamed, at most 1 MiB within 10 s (413 / 408), before
 *   the signature is checked; the signature is checked before parsing.
 * - One bad message never blocks the others: text Postgres cannot hold is
 *   repaired and flagged, a message it still refuses is logged and skipped,
 *   and its siblings are stored and answered (see shared/whatsapp/ingest.ts).
 *
 * @module
 */
import { Hono } from "hono";
import { timingSafeEqual } from "node:crypto";
import type { CallerResolver } from "@shared/auth/caller.ts";
import { DEFAULT_BODY_TIMEOUT_MS, readBody, refusalResponse } from "@shared/http/body.ts";
import type { Platform } from "@shared/pipeline/platform.ts";
import { parseDelivery } from "./inbound.ts";
import type { InboundProcessor } from "./inbound_processor.ts";
import { isDataError, storeInbound } from "./ingest.ts";
import { applyStatus, isStaffAlertCode } from "./mod.ts";
import type { InboundMessage } from "./inbound.ts";

/** What the webhook needs. */
export interface WebhookAppOptions {
  /** The platform (database, logs). */
  platform: Platform;
  /**
   * Checks `X-Hub-Signature-256` against the app secrets of the known business
   * numbers: the phone-number ids whose app secret signed the body, or null
   * when no secret did (refused with 403).
   */
  verifySignature: TenantSignatureVerifier;
  /**
   * The org that owns a business number (`tenant_whatsapp_numbers`);
   * undefined for a number no tenant has, whose messages are not stored.
   */
  orgOfNumber: (phoneNumberId: string) => string | undefined | Promise<string | undefined>;
  /** The token configured in Meta's dashboard for GET verification. */
  verifyToken: string;
  /** Processes stored messages. */
  processor: InboundProcessor;
  /**
   * Runs a task after the response and keeps it alive (Supabase:
   * `(task) => EdgeRuntime.waitUntil(task())`). @default run it detached
   */
  background?: (task: () => Promise<unknown>) => void;
  /** Largest body read; Meta's deliveries are a few KiB. @default 1 MiB */
  maxBodyBytes?: number;
  /** How long a body may take to arrive. @default 10000 */
  bodyTimeoutMs?: number;
  /** Resolves bearer tokens (the sweep endpoint needs a service-role token). */
  resolveCaller: CallerResolver;
  /** Runs after a sweep (sends what is due); returns how many were sent. */
  afterSweep?: () => Promise<number>;
}

/**
 * Checks a body's signature; returns the phone-number ids whose app secret
 * signed it (empty when the secret is valid but no known number uses it),
 * or null when no secret did.
 */
export type TenantSignatureVerifier = (
  body: Uint8Array,
  header: string,
) => Promise<ReadonlySet<string> | null>;

/** The webhook's body limit: 1 MiB, far above Meta's payloads. */
export const WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;

const encoder = new TextEncoder();

function sameSecret(given: string, expected: string): boolean {
  const a = encoder.encode(given);
  const b = encoder.encode(expected);
  // Compare equal-length buffers only; the length itself is not secret here.
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Builds the webhook app, mounted at `/wa-webhook`. */
export function createWebhookApp(options: WebhookAppOptions): Hono {
  const { platform, processor } = options;
  const log = platform.log;
  const maxBodyBytes = options.maxBodyBytes ?? WEBHOOK_MAX_BODY_BYTES;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const background = options.background ?? ((task) => void task().catch(() => {}));
  const app = new Hono().basePath("/wa-webhook");

  app.onError((error, c) => {
    log.error("wa_webhook_failed", { error: String(error) });
    // Meta retries non-2xx deliveries; the message was not stored, so a retry is safe.
    return c.json({ ok: false }, 500);
  });

  // Meta refused a message for spam limits or chose not to deliver: staff must look.
  async function alertStaff(wamid: string, code: number): Promise<void> {
    // The tenant whose message it was: its staff are told.
    const [row] = await platform.db.query<{ org_id: string }>(
      "select org_id from public.wa_outbox where wamid = $1",
      [wamid],
    );
    if (!row) return;
    const result = await platform.call({
      tool: "notify_staff",
      args: {
        channel: "slack",
        payload: {
          reason: `WhatsApp refused a message (${code})`,
          summary:
            `Meta did not deliver ${wamid} (error ${code}). Check the number's quality rating.`,
          priority: "high",
        },
      },
      caller: { claims: { role: "service_role" }, org_id: row.org_id },
      idempotencyKey: `wa-alert:${wamid}`,
    });
    if (!result.ok) log.error("wa_staff_alert_failed", { wamid, code: result.error.code });
  }

  // Deployed functions have no background loop: a scheduler (pg_cron + pg_net) calls this
  // with a service-role token to process what a crash left and send what is due.
  app.post("/sweep", async (c) => {
    const caller = await options.resolveCaller(c.req.header("authorization"), null, {
      service: true,
    });
    if ("ok" in caller) return c.json({ ok: false }, 401);
    const processed = await processor.sweep();
    const sent = options.afterSweep ? await options.afterSweep() : 0;
    return c.json({ ok: true, data: { processed, sent } });
  });

  app.get("/", (c) => {
    const mode = c.req.query("hub.mode");
    const token = c.req.query("hub.verify_token") ?? "";
    const challenge = c.req.query("hub.challenge") ?? "";
    if (mode === "subscribe" && sameSecret(token, options.verifyToken) && challenge) {
      return c.text(challenge, 200);
    }
    log.warn("wa_verify_refused", { mode });
    return c.text("Forbidden", 403);
  });

  app.post("/", async (c) => {
    // Size first (streamed, never past the limit), then the signature, then parsing.
    const read = await readBody(c.req.raw, { maxBytes: maxBodyBytes, timeoutMs: bodyTimeoutMs });
    if (!read.ok) {
      log.warn("wa_body_refused", { status: read.status });
      return refusalResponse(read);
    }
    const raw = read.bytes;
    const signature = c.req.header("x-hub-signature-256") ?? null;
    if (!signature) {
      log.warn("wa_signature_missing", {});
      return c.json({ ok: false }, 401);
    }
    const signedFor = await options.verifySignature(raw, signature);
    if (!signedFor) {
      log.warn("wa_signature_invalid", { bytes: raw.byteLength });
      return c.json({ ok: false }, 403);
    }
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(raw));
    } catch {
      log.warn("wa_body_not_json", { bytes: raw.byteLength });
      return c.json({ ok: false }, 400);
    }
    const delivery = parseDelivery(body, { receivedAt: new Date() });
    if (!delivery) {
      log.warn("wa_body_not_whatsapp", {});
      return c.json({ ok: false }, 400);
    }
    if (delivery.rejected) log.warn("wa_items_rejected", { rejected: delivery.rejected });
    for (const message of delivery.messages) {
      if (message.flags?.length) {
        log.warn("wa_inbound_repaired", { wamid: message.wamid, flags: message.flags });
      }
    }
    // Each message for the tenant owning the number it was sent to. A number no tenant has is
    // logged (its id only) and nothing of it is stored; so is a number whose own app secret did
    // not sign the body (another tenant's app cannot speak for it).
    const orgs = new Map<string, string>();
    const accepted: InboundMessage[] = [];
    for (const message of delivery.messages) {
      const number = message.phoneNumberId;
      const orgId = orgs.get(number) ?? await options.orgOfNumber(number);
      if (!orgId) {
        log.warn("wa_number_unknown", { phone_number_id: number, wamid: message.wamid });
        continue;
      }
      if (!signedFor.has(number)) {
        log.warn("wa_number_not_signed", { phone_number_id: number, wamid: message.wamid });
        continue;
      }
      orgs.set(number, orgId);
      accepted.push(message);
    }
    // Each message on its own: one Postgres refuses is skipped, its siblings are stored.
    const { stored } = await storeInbound(
      platform.db,
      (message) => orgs.get(message.phoneNumberId)!,
      accepted,
      { log },
    );
    for (const status of delivery.statuses) {
      // Only a number's own app may report on its messages.
      if (status.phoneNumberId === undefined || !signedFor.has(status.phoneNumberId)) {
        log.warn("wa_status_not_signed", { phone_number_id: status.phoneNumberId ?? null });
        continue;
      }
      try {
        await applyStatus(platform.db, status);
      } catch (error) {
        if (!isDataError(error)) throw error;
        log.error("wa_status_unstorable", {
          wamid: status.wamid,
          error: String(error).slice(0, 300),
        });
        continue;
      }
      const alert = status.errors?.find((error) => isStaffAlertCode(error.code));
      if (status.status === "failed" && alert) await alertStaff(status.wamid, alert.code);
    }
    // Everything storable is stored: Meta gets its 200 before any processing.
    if (stored.length) background(() => processor.process(stored));
    return c.json({ ok: true });
  });

  return app;
}
