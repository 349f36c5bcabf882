/**
 * Which SMS forwarder sent a request, proven by its own key.
 *
 * A forwarder (the SMS-forwarding app on a merchant's phone) names itself in
 * `X-EasyMO-Device` and signs the raw body with its device key, in the
 * callbacks' format (`X-EasyMO-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>">`). The key is looked up by that device id, among devices
 * not revoked; the signature verifying under it is what makes the device id
 * true, so the org a forwarded SMS is filed under comes from the credential,
 * never from the body.
 *
 * Every refusal (no such device, revoked, wrong key, stale, malformed) looks
 * the same to the sender, and costs the same: a device without a key is
 * checked against a throwaway key, so the answer's timing does not tell a
 * registered device id from an unknown one. MACs are compared in constant
 * time by `crypto.subtle.verify`.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import {
  checkTolerance,
  macMatches,
  parseSignature,
  SIGNATURE_HEADER,
  type SignatureRefusal,
  signCallback,
} from "./callback_signature.ts";

/** The header in which a forwarder names itself. */
export const DEVICE_HEADER = "X-EasyMO-Device";

// Device ids are printable ASCII without spaces (they travel in a header).
const DEVICE_ID = /^[\x21-\x7e]{1,100}$/;

/** A forwarder whose signature verified. */
export interface ForwarderDevice {
  /** Its id, as registered. */
  deviceId: string;
  /** The org it forwards for. */
  orgId: string;
}

/** Why a forwarder's request was refused (for logs; the sender is told none of it). */
export type ForwarderRefusal = SignatureRefusal | "unknown_device";

/** The outcome of a check. */
export type ForwarderCheck =
  | { ok: true; device: ForwarderDevice; signedAt: number }
  | { ok: false; reason: ForwarderRefusal };

/** Checks one request's raw body and headers. */
export type ForwarderVerifier = (body: Uint8Array, headers: Headers) => Promise<ForwarderCheck>;

/** Options for {@link createForwarderVerifier}. */
export interface ForwarderVerifierOptions {
  /** Where devices and their keys are read (as the owner: keys live in `private`). */
  db: Queryable;
  /** How far the signed time may be from now, in seconds. @default 300 */
  toleranceSec?: number;
  /** The clock, in milliseconds (tests). @default Date.now */
  now?: () => number;
}

/**
 * Builds the verifier of the SMS-forwarder endpoint.
 *
 * @throws {RangeError} When the tolerance is not a positive number of seconds.
 */
export function createForwarderVerifier(options: ForwarderVerifierOptions): ForwarderVerifier {
  const toleranceSec = checkTolerance(options.toleranceSec);
  const now = options.now ?? Date.now;
  // Unknown and revoked devices are checked against this, so they cost what a wrong key does.
  const decoy = crypto.getRandomValues(new Uint8Array(48));
  return async function verifyForwarder(body, headers) {
    const parsed = parseSignature(headers.get(SIGNATURE_HEADER), { now, toleranceSec });
    if (!parsed.ok) return parsed;
    const deviceId = headers.get(DEVICE_HEADER)?.trim() ?? "";
    if (!DEVICE_ID.test(deviceId)) return { ok: false, reason: "malformed" };
    const [device] = await options.db.query<{ org_id: string; hmac_key: Uint8Array }>(
      `select f.org_id, k.hmac_key
       from public.sms_forwarders f join private.sms_forwarder_keys k on k.device_id = f.device_id
       where f.device_id = $1 and f.revoked_at is null`,
      [deviceId],
    );
    const key = await crypto.subtle.importKey(
      "raw",
      device ? Uint8Array.from(device.hmac_key) : decoy,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["verify"],
    );
    const check = await macMatches(key, parsed, body);
    if (!device) return { ok: false, reason: "unknown_device" };
    if (!check.ok) return check;
    return { ok: true, device: { deviceId, orgId: device.org_id }, signedAt: check.signedAt };
  };
}

/** Options for {@link signForwarded}. */
export interface SignForwardedOptions {
  /** The device id, as issued. */
  deviceId: string;
  /** The device's secret, as issued (shown once when it was registered or rotated). */
  secret: string;
  /** The raw body. */
  body: Uint8Array;
  /** Unix seconds. @default now */
  timestamp?: number;
}

/**
 * The headers a forwarder attaches to a request (the chat simulator, tests,
 * the forwarder setup docs).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { signForwarded } from "./forwarder_auth.ts";
 *
 * const body = new TextEncoder().encode('{"sender":"M-Money","text":"…"}');
 * const headers = await signForwarded({
 *   deviceId: "fwd-till-1",
 *   secret: "fwd_sk_an-issued-device-secret",
 *   body,
 *   timestamp: 1_700_000_000,
 * });
 * assert.equal(headers["X-EasyMO-Device"], "fwd-till-1");
 * assert.match(headers["X-EasyMO-Signature"], /^t=1700000000,v1=[0-9a-f]{64}$/);
 * ```
 */
export async function signForwarded(
  options: SignForwardedOptions,
): Promise<Record<string, string>> {
  return {
    [DEVICE_HEADER]: options.deviceId,
    [SIGNATURE_HEADER]: await signCallback({
      secret: options.secret,
      body: options.body,
      timestamp: options.timestamp,
    }),
  };
}
