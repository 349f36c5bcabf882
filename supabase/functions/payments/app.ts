/**
 * `payments`: where mobile-money settlement evidence arrives.
 *
 * - `POST /payments/callback` `{momo_ref, status, provider_txn_id, amount, payer_phone?}`,
 *   signed with `MOMO_CALLBACK_SECRET`: a provider (or aggregator) reports
 *   how a charge ended. Idempotent by momo_ref and provider_txn_id.
 * - `POST /payments/sms` `{sender, text, received_at, device_id?}`, from a
 *   registered SMS forwarder (a merchant phone's SMS-forwarding app) naming
 *   itself in `X-EasyMO-Device` and signing with its own key: a MoMo
 *   confirmation text, filed under the device's org; it settles the one open
 *   charge of that org it matches, or goes to its staff. The device is the
 *   one the key proves; a body naming another device is refused.
 * - `/payments/forwarders` (the service role, or staff of the org): register
 *   a forwarder and get its secret once, rotate it, revoke it, list an org's
 *   (forwarders.ts; `deno task tools forwarder …`).
 * - `POST /payments/sweep` (service-role token): expires unpaid charges past
 *   their expiry and tells each payer once (a scheduler calls it; the dev
 *   server runs it every minute).
 *
 * Signatures: `X-EasyMO-Signature: t=<unix s>,v1=<hex HMAC-SHA256("<t>.<raw body>")>`
 * (shared/packs/payments/callback_signature.ts; a forwarder's key is found by
 * its `X-EasyMO-Device`, forwarder_auth.ts), checked over the raw bytes before
 * anything is parsed; a missing, stale or wrong signature, or an unknown or
 * revoked device, is 401 and says nothing more. Bodies are read through
 * shared/http/body.ts (16 KiB, 10 s). Each request then runs one internal
 * tool through the pipeline as the service on the charge's (or device's) org.
 *
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import { fail, ok, type ToolResult, validationFailure } from "@shared/contract/mod.ts";
import { readBody, refusalResponse } from "@shared/http/body.ts";
import { contractResponse } from "@shared/http/respond.ts";
import type { Runtime } from "@shared/platform/env.ts";
import {
  createCallbackVerifier,
  createForwarderVerifier,
  SIGNATURE_HEADER,
} from "@shared/platform/payments.ts";
import { createForwardersApp } from "./forwarders.ts";

/** Largest body either endpoint reads (an SMS is at most 2,000 characters). */
export const MAX_PAYMENTS_BODY = 16 * 1024;

/** Options for {@link createPaymentsApp}. */
export interface PaymentsAppOptions extends Runtime {
  /** The secret callbacks are signed with (`MOMO_CALLBACK_SECRET`, at least 16 characters). */
  callbackSecret: string;
  /** The clock of signature checks, ms (tests). @default Date.now */
  now?: () => number;
  /** How often the long-running host sweeps, ms. @default 60000 */
  sweepIntervalMs?: number;
}

/** The payments function. */
export interface PaymentsApp {
  /** Answers requests (paths start with `/payments`). */
  fetch(request: Request): Response | Promise<Response>;
  /** Expires what is due in every org; returns the references expired. */
  sweep(): Promise<string[]>;
  /** Starts the sweep loop (long-running hosts only). */
  start(): void;
  /** Stops it. */
  stop(): Promise<void>;
}

const CallbackBody = z.strictObject({
  momo_ref: z.string().min(1).max(32),
  status: z.enum(["SUCCESSFUL", "FAILED", "INSUFFICIENT_FUNDS", "EXPIRED"]),
  provider_txn_id: z.string().min(1).max(64),
  amount: z.int().min(0).max(100_000_000),
  payer_phone: z.string().max(32).optional(),
});

const SmsBody = z.strictObject({
  sender: z.string().min(1).max(40),
  text: z.string().min(1).max(2000),
  received_at: z.iso.datetime({ offset: true }),
  device_id: z.string().min(1).max(100).optional(),
});

const UNSIGNED = { code: "AUTH_ERROR", msg: "Signature required" } as const;

/** Whether the signed bytes are good: as checked, or the reason (logged, never answered). */
type SignedCheck = { ok: true } | { ok: false; reason: string };

/** Builds the app, mounted at `/payments`. */
export function createPaymentsApp(options: PaymentsAppOptions): PaymentsApp {
  const { platform, resolveCaller } = options;
  const verifyCallback = createCallbackVerifier({
    secret: options.callbackSecret,
    now: options.now,
  });
  const verifyForwarder = createForwarderVerifier({ db: platform.db, now: options.now });
  const app = new Hono().basePath("/payments");
  app.route("/forwarders", createForwardersApp({ platform, resolveCaller }));

  app.onError((error, c) => {
    platform.log.error("payments_failed", { error: String(error), path: c.req.path });
    return contractResponse(fail("INTERNAL_ERROR"));
  });

  /** The signed body's JSON, or the response refusing it (one answer for every bad signature). */
  async function signedJson<T extends SignedCheck>(
    request: Request,
    verify: (bytes: Uint8Array, headers: Headers) => Promise<T>,
    endpoint: string,
  ): Promise<{ body: unknown; check: T & { ok: true } } | Response> {
    const read = await readBody(request, { maxBytes: MAX_PAYMENTS_BODY });
    if (!read.ok) return refusalResponse(read);
    const check = await verify(read.bytes, request.headers);
    if (!check.ok) {
      platform.log.warn("payments_signature_refused", { endpoint, reason: check.reason });
      return Response.json({ ok: false, error: UNSIGNED }, { status: 401 });
    }
    try {
      const text = new TextDecoder("utf-8", { fatal: true }).decode(read.bytes);
      return { body: JSON.parse(text), check: check as T & { ok: true } };
    } catch {
      return contractResponse(
        fail("VALIDATION_ERROR", "Invalid request: the body is not JSON", {
          fields: [{ path: "body", message: "must be a JSON object" }],
        }),
      );
    }
  }

  function call(tool: string, args: unknown, orgId: string, key: string): Promise<ToolResult> {
    return platform.call({
      tool,
      args,
      caller: { claims: { role: "service_role" }, org_id: orgId },
      idempotencyKey: key.slice(0, 255),
    });
  }

  app.post("/callback", async (c) => {
    const signed = await signedJson(
      c.req.raw,
      (bytes, headers) => verifyCallback(bytes, headers.get(SIGNATURE_HEADER)),
      "callback",
    );
    if (signed instanceof Response) return signed;
    const parsed = CallbackBody.safeParse(signed.body);
    if (!parsed.success) return contractResponse(validationFailure(parsed.error));
    const body = parsed.data;
    const ref = body.momo_ref.trim().toUpperCase();
    const [charge] = await platform.db.query<{ org_id: string }>(
      "select org_id from public.payments where momo_ref = $1",
      [ref],
    );
    if (!charge) {
      platform.log.warn("payments_callback_unknown_ref", { momo_ref: ref });
      return contractResponse(fail("NOT_FOUND", "No such payment"));
    }
    const result = await call(
      "payment_settle",
      { ...body, momo_ref: ref },
      charge.org_id,
      `callback:${ref}:${body.provider_txn_id}`,
    );
    return contractResponse(result);
  });

  app.post("/sms", async (c) => {
    const signed = await signedJson(c.req.raw, verifyForwarder, "sms");
    if (signed instanceof Response) return signed;
    const parsed = SmsBody.safeParse(signed.body);
    if (!parsed.success) return contractResponse(validationFailure(parsed.error));
    const { deviceId, orgId } = signed.check.device;
    // The key says which device this is; the body may repeat it, never name another.
    if (parsed.data.device_id !== undefined && parsed.data.device_id !== deviceId) {
      platform.log.warn("payments_sms_device_mismatch", {
        device_id: deviceId,
        claimed: parsed.data.device_id,
      });
      const message = `must be the signing device's id (${deviceId}) or left out`;
      return contractResponse(
        fail("AUTH_ERROR", "A forwarder may only forward its own SMS", {
          fields: [{ path: "device_id", message }],
        }),
      );
    }
    const result = await call(
      "payment_record_sms",
      { ...parsed.data, device_id: deviceId },
      orgId,
      `sms:${deviceId}:${parsed.data.received_at}:${parsed.data.text.length}`,
    );
    return contractResponse(result);
  });

  async function sweep(): Promise<string[]> {
    const orgs = await platform.db.query<{ org_id: string }>(
      `select distinct org_id from public.payments
       where status = 'pending' and expires_at <= now()`,
    );
    const expired: string[] = [];
    for (const { org_id } of orgs) {
      const result = await call(
        "payment_expire_due",
        { limit: 100 },
        org_id,
        `sweep:${org_id}:${crypto.randomUUID()}`,
      );
      if (!result.ok) {
        platform.log.error("payments_sweep_failed", { org_id, code: result.error.code });
        continue;
      }
      expired.push(...(result.data as { expired: string[] }).expired);
    }
    return expired;
  }

  app.post("/sweep", async (c) => {
    const caller = await resolveCaller(c.req.header("authorization"), undefined, {
      service: true,
    });
    if ("ok" in caller) {
      await c.req.raw.body?.cancel().catch(() => {});
      return Response.json({ ok: false, error: { code: "AUTH_ERROR", msg: "Sign in required" } }, {
        status: 401,
      });
    }
    return contractResponse(ok({ expired: await sweep() }));
  });

  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<unknown> = Promise.resolve();
  return {
    fetch: app.fetch,
    sweep,
    start() {
      timer ??= setInterval(() => {
        running = sweep().catch((error) =>
          platform.log.error("payments_sweep_failed", { error: String(error) })
        );
      }, options.sweepIntervalMs ?? 60_000);
    },
    async stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}

/** The local callback secret, derived from the dev secret (the simulator signs with it). */
export function localPaymentSecrets(secret: string): { callbackSecret: string } {
  return { callbackSecret: `dev-momo-callback:${secret}` };
}
