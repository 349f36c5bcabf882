/**
 * Where mobile-money settlement evidence arrives, served by the `payments`
 * function (`createPackFunction`, `/payments/<path>`):
 *
 * - `POST /callback` `{momo_ref, status, provider_txn_id, amount, payer_phone?}`,
 *   signed with the callback secret (`MOMO_CALLBACK_SECRET`): a provider (or
 *   aggregator) reports how a charge ended. Idempotent by momo_ref and provider_txn_id.
 * - `POST /sms` `{sender, text, received_at, device_id?}`, from a registered
 *   SMS forwarder (a merchant phone's SMS-forwarding app) naming itself in
 *   `X-EasyMO-Device` and signing with its own key: a MoMo confirmation
 *   text, filed under the device's org; it settles the one open charge of
 *   that org it matches, or goes to its staff. The device is the one the key
 *   proves; a body naming another device is refused.
 *
 * Unpaid charges past their expiry are the pack's schedule's
 * (`expire_due_charges`, run by the platform's sweep): one loop, not an
 * endpoint of its own.
 *
 * Signatures: `X-EasyMO-Signature: t=<unix s>,v1=<hex HMAC-SHA256("<t>.<raw body>")>`
 * (callback_signature.ts; a forwarder's key is found by its `X-EasyMO-Device`,
 * forwarder_auth.ts), checked over the raw bytes before anything is parsed;
 * a missing, stale or wrong signature, or an unknown or revoked device, is
 * 401 and says nothing more. Each request then runs one internal tool
 * through the pipeline as the service on the charge's (or device's) org.
 *
 * @module
 */
import { z } from "zod";
import { fail, httpStatus, type ToolResult, validationFailure } from "@shared/contract/mod.ts";
import type { EndpointRequest, PackEndpoint, PackResponse } from "@shared/registry/pack.ts";
import { createCallbackVerifier, SIGNATURE_HEADER } from "./callback_signature.ts";
import { PAYMENTS_CONFIG } from "./config.ts";
import { createForwarderVerifier } from "./forwarder_auth.ts";

/** Largest body either evidence endpoint reads (an SMS is at most 2,000 characters). */
export const MAX_PAYMENTS_BODY = 16 * 1024;

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

/** The one answer to every bad signature: the sender learns nothing more. */
const UNSIGNED: PackResponse = {
  status: 401,
  body: { ok: false, error: { code: "AUTH_ERROR", msg: "Signature required" } },
};

/** A tool result as the endpoint's answer. */
export function answer(result: ToolResult): PackResponse {
  return { status: result.ok ? 200 : httpStatus(result.error.code), body: result };
}

/** A body's bytes as JSON, or the answer refusing them. */
export function jsonBody(bytes: Uint8Array): { body: unknown } | PackResponse {
  try {
    return { body: JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) };
  } catch {
    return answer(
      fail("VALIDATION_ERROR", "Invalid request: the body is not JSON", {
        fields: [{ path: "body", message: "must be a JSON object" }],
      }),
    );
  }
}

/** The clock of signature checks: the platform's, so tests and the sweep agree. */
function nowMs(request: EndpointRequest): () => number {
  return () => request.services.now().getTime();
}

/** `POST /callback`: a provider's signed report of how a charge ended. */
export const callbackEndpoint: PackEndpoint = {
  method: "POST",
  path: "/callback",
  auth: "signed",
  maxBytes: MAX_PAYMENTS_BODY,
  async handle(request) {
    const secret = request.services.get(PAYMENTS_CONFIG).callbackSecret;
    if (!secret) {
      // Nothing can be proven without the secret: refuse, and tell operators why.
      request.log.error("payments_callback_secret_missing", {
        hint: "set MOMO_CALLBACK_SECRET (at least 16 characters) on the payments function",
      });
      return answer(fail("SERVICE_UNAVAILABLE", "Payment callbacks are not configured"));
    }
    const verify = createCallbackVerifier({ secret, now: nowMs(request) });
    const check = await verify(request.bytes, request.headers.get(SIGNATURE_HEADER));
    if (!check.ok) {
      request.log.warn("payments_signature_refused", {
        endpoint: "callback",
        reason: check.reason,
      });
      return UNSIGNED;
    }
    const signed = jsonBody(request.bytes);
    if (!("body" in signed)) return signed;
    const parsed = CallbackBody.safeParse(signed.body);
    if (!parsed.success) return answer(validationFailure(parsed.error));
    const body = parsed.data;
    const ref = body.momo_ref.trim().toUpperCase();
    // The charge's org is what the callback acts for; the reference alone names it.
    const [charge] = await request.db.asService((tx) =>
      tx.query<{ org_id: string }>("select org_id from public.payments where momo_ref = $1", [
        ref,
      ])
    );
    if (!charge) {
      request.log.warn("payments_callback_unknown_ref", { momo_ref: ref });
      return answer(fail("NOT_FOUND", "No such payment"));
    }
    return answer(
      await request.callAsService("payment_settle", { ...body, momo_ref: ref }, {
        orgId: charge.org_id,
        idempotencyKey: `callback:${ref}:${body.provider_txn_id}`,
      }),
    );
  },
};

/** `POST /sms`: a registered forwarder's MoMo confirmation text. */
export const smsEndpoint: PackEndpoint = {
  method: "POST",
  path: "/sms",
  auth: "signed",
  maxBytes: MAX_PAYMENTS_BODY,
  async handle(request) {
    const verify = createForwarderVerifier({ db: request.db, now: nowMs(request) });
    const check = await verify(request.bytes, request.headers);
    if (!check.ok) {
      request.log.warn("payments_signature_refused", { endpoint: "sms", reason: check.reason });
      return UNSIGNED;
    }
    const signed = jsonBody(request.bytes);
    if (!("body" in signed)) return signed;
    const parsed = SmsBody.safeParse(signed.body);
    if (!parsed.success) return answer(validationFailure(parsed.error));
    const { deviceId, orgId } = check.device;
    // The key says which device this is; the body may repeat it, never name another.
    if (parsed.data.device_id !== undefined && parsed.data.device_id !== deviceId) {
      request.log.warn("payments_sms_device_mismatch", {
        device_id: deviceId,
        claimed: parsed.data.device_id,
      });
      const message = `must be the signing device's id (${deviceId}) or left out`;
      return answer(
        fail("AUTH_ERROR", "A forwarder may only forward its own SMS", {
          fields: [{ path: "device_id", message }],
        }),
      );
    }
    return answer(
      await request.callAsService(
        "payment_record_sms",
        { ...parsed.data, device_id: deviceId },
        {
          orgId,
          idempotencyKey: `sms:${deviceId}:${parsed.data.received_at}:${parsed.data.text.length}`,
        },
      ),
    );
  },
};
