/**
 * `payments`: where mobile-money settlement evidence arrives.
 *
 * - `POST /payments/callback` `{momo_ref, status, provider_txn_id, amount, payer_phone?}`,
 *   signed with `MOMO_CALLBACK_SECRET`: a provider (or aggregator) reports
 *   how a charge ended. Idempotent by momo_ref and provider_txn_id.
 * - `POST /payments/sms` `{sender, text, received_at, device_id?}`, signed
 *   with `SMS_FORWARDER_SECRET`: a merchant phone's SMS-forwarding app posts
 *   a MoMo confirmation text; it settles the one open charge it matches, or
 *   goes to staff. A device registered in `public.sms_forwarders` files its
 *   SMS under its own org; any other under `PAYMENTS_SMS_ORG`.
 * - `POST /payments/sweep` (service-role token): expires unpaid charges past
 *   their expiry and tells each payer once (a scheduler calls it; the dev
 *   server runs it every minute).
 *
 * Signatures: `X-EasyMO-Signature: t=<unix s>,v1=<hex HMAC-SHA256("<t>.<raw body>")>`
 * (shared/packs/payments/callback_signature.ts), checked over the raw bytes
 * before anything is parsed; a missing, stale or wrong signature is 401 and
 * says nothing more. Bodies are read through shared/http/body.ts (16 KiB,
 * 10 s). Each request then runs one internal tool through the pipeline as
 * the service on the charge's org.
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
  type CallbackVerifier,
  createCallbackVerifier,
  SIGNATURE_HEADER,
} from "@shared/packs/payments/callback_signature.ts";

/** Largest body either endpoint reads (an SMS is at most 2,000 characters). */
export const MAX_PAYMENTS_BODY = 16 * 1024;

/** Options for {@link createPaymentsApp}. */
export interface PaymentsAppOptions extends Runtime {
  /** The secret callbacks are signed with (`MOMO_CALLBACK_SECRET`, at least 16 characters). */
  callbackSecret: string;
  /** The secret the SMS forwarder signs with (`SMS_FORWARDER_SECRET`, at least 16 characters). */
  smsSecret: string;
  /**
   * The org (id or slug) SMS from unregistered devices are filed under
   * (`PAYMENTS_SMS_ORG`, the operator); registered devices name their own.
   */
  smsOrg: string;
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

/** Builds the app, mounted at `/payments`. */
export function createPaymentsApp(options: PaymentsAppOptions): PaymentsApp {
  const { platform, resolveCaller } = options;
  const verifyCallback = createCallbackVerifier({
    secret: options.callbackSecret,
    now: options.now,
  });
  const verifySms = createCallbackVerifier({ secret: options.smsSecret, now: options.now });
  const smsTenant = platform.tenants.get(options.smsOrg) ?? platform.tenants.bySlug(options.smsOrg);
  if (!smsTenant) throw new Error(`Unknown org for forwarded SMS: ${options.smsOrg}`);
  const operatorOrgId = smsTenant.id;
  const app = new Hono().basePath("/payments");

  app.onError((error, c) => {
    platform.log.error("payments_failed", { error: String(error), path: c.req.path });
    return contractResponse(fail("INTERNAL_ERROR"));
  });

  /** The signed body's JSON, or the response refusing it. */
  async function signedJson(
    request: Request,
    verify: CallbackVerifier,
    endpoint: string,
  ): Promise<{ body: unknown } | Response> {
    const read = await readBody(request, { maxBytes: MAX_PAYMENTS_BODY });
    if (!read.ok) return refusalResponse(read);
    const check = await verify(read.bytes, request.headers.get(SIGNATURE_HEADER));
    if (!check.ok) {
      platform.log.warn("payments_signature_refused", { endpoint, reason: check.reason });
      return Response.json({ ok: false, error: UNSIGNED }, { status: 401 });
    }
    try {
      return { body: JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(read.bytes)) };
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
    const signed = await signedJson(c.req.raw, verifyCallback, "callback");
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

  /** The org a forwarding device is registered to, else the operator's. */
  async function smsOrgOf(deviceId: string | undefined): Promise<string> {
    if (deviceId === undefined) return operatorOrgId;
    const [device] = await platform.db.query<{ org_id: string }>(
      "select org_id from public.sms_forwarders where device_id = $1",
      [deviceId],
    );
    if (device) return device.org_id;
    platform.log.warn("payments_sms_unregistered_device", { org_id: operatorOrgId });
    return operatorOrgId;
  }

  app.post("/sms", async (c) => {
    const signed = await signedJson(c.req.raw, verifySms, "sms");
    if (signed instanceof Response) return signed;
    const parsed = SmsBody.safeParse(signed.body);
    if (!parsed.success) return contractResponse(validationFailure(parsed.error));
    const result = await call(
      "payment_record_sms",
      parsed.data,
      await smsOrgOf(parsed.data.device_id),
      `sms:${
        parsed.data.device_id ?? "unknown"
      }:${parsed.data.received_at}:${parsed.data.text.length}`,
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

/** The local secrets of the payments endpoints, derived from the dev secret (the simulator signs with them). */
export function localPaymentSecrets(secret: string): { callbackSecret: string; smsSecret: string } {
  return {
    callbackSecret: `dev-momo-callback:${secret}`,
    smsSecret: `dev-sms-forwarder:${secret}`,
  };
}
