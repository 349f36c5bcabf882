/**
 * Signatures for settlement callbacks and the SMS-forwarder endpoint:
 * `X-EasyMO-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.
 * Callbacks are signed with the provider's secret; each SMS forwarder signs
 * with its own device key (forwarder_auth.ts looks it up and reuses
 * {@link parseSignature} and {@link macMatches}).
 *
 * The timestamp is signed with the body, so an old request cannot be re-dated;
 * a request older (or further in the future) than the tolerance is refused.
 * Replays inside the window carry the same momo_ref / transaction id and are
 * absorbed by the endpoints' idempotency (payment_events is unique per
 * source and key). The MAC is compared in constant time by
 * `crypto.subtle.verify`. There is no bypass.
 *
 * @module
 */
import { hmacKey, toHex } from "@shared/runtime/canonical.ts";

/** The header that carries the signature. */
export const SIGNATURE_HEADER = "X-EasyMO-Signature";

const encoder = new TextEncoder();
const HEADER = /^t=([0-9]{1,12}),v1=([0-9a-fA-F]{64})$/;

/** Why a signature was refused. */
export type SignatureRefusal = "missing" | "malformed" | "stale" | "mismatch";

/** The outcome of a check. */
export type SignatureCheck =
  | { ok: true; signedAt: number }
  | { ok: false; reason: SignatureRefusal };

/** Options for {@link createCallbackVerifier}. */
export interface CallbackVerifierOptions {
  /** The shared secret (at least 16 characters). */
  secret: string;
  /** How far the signed time may be from now, in seconds. @default 300 */
  toleranceSec?: number;
  /** The clock, in milliseconds (tests). @default Date.now */
  now?: () => number;
}

/** Checks one request's raw body against its signature header. */
export type CallbackVerifier = (body: Uint8Array, header: string | null) => Promise<SignatureCheck>;

function signedPayload(timestamp: string, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${timestamp}.`);
  const out = new Uint8Array(prefix.length + body.length);
  out.set(prefix);
  out.set(body, prefix.length);
  return out;
}

function checkSecret(secret: string): void {
  if (typeof secret !== "string" || secret.length < 16) {
    throw new RangeError("Cannot sign callbacks as the secret must be at least 16 characters");
  }
}

/**
 * Builds a verifier bound to one secret.
 *
 * @throws {RangeError} When the secret is shorter than 16 characters or the
 *   tolerance is not a positive number of seconds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createCallbackVerifier, signCallback } from "./callback_signature.ts";
 *
 * const secret = "a-long-shared-secret";
 * const body = new TextEncoder().encode('{"momo_ref":"PAY-7K3QX","status":"SUCCESSFUL"}');
 * const verify = createCallbackVerifier({ secret, now: () => 1_700_000_000_000 });
 * const header = await signCallback({ secret, body, timestamp: 1_700_000_000 });
 * assert.deepEqual(await verify(body, header), { ok: true, signedAt: 1_700_000_000 });
 * assert.deepEqual(await verify(body, null), { ok: false, reason: "missing" });
 * ```
 */
export function createCallbackVerifier(options: CallbackVerifierOptions): CallbackVerifier {
  checkSecret(options.secret);
  const toleranceSec = checkTolerance(options.toleranceSec);
  const now = options.now ?? Date.now;
  const key = hmacKey(options.secret, ["verify"]);
  return async (body, header) => {
    const parsed = parseSignature(header, { now, toleranceSec });
    if (!parsed.ok) return parsed;
    return await macMatches(await key, parsed, body);
  };
}

/** A signature header read and found fresh, not yet checked against a key. */
export interface ParsedSignature {
  ok: true;
  /** The signed time, unix seconds. */
  signedAt: number;
  /** The `t=` value as sent (the MAC covers these exact characters). */
  timestamp: string;
  /** The MAC bytes. */
  mac: Uint8Array<ArrayBuffer>;
}

/**
 * Reads a signature header and checks its time, before any key is looked up
 * (so a malformed or stale request costs no database read).
 */
export function parseSignature(
  header: string | null,
  options: { now: () => number; toleranceSec: number },
): ParsedSignature | { ok: false; reason: SignatureRefusal } {
  if (header === null || header.trim() === "") return { ok: false, reason: "missing" };
  const match = HEADER.exec(header.trim());
  if (!match) return { ok: false, reason: "malformed" };
  const signedAt = Number(match[1]);
  if (Math.abs(options.now() / 1000 - signedAt) > options.toleranceSec) {
    return { ok: false, reason: "stale" };
  }
  const mac = Uint8Array.from(match[2].match(/../g)!, (byte) => parseInt(byte, 16));
  return { ok: true, signedAt, timestamp: match[1], mac };
}

/**
 * Whether `signature` is the MAC of its time and `body` under `key`, compared
 * in constant time by `crypto.subtle.verify` (never byte by byte here).
 */
export async function macMatches(
  key: CryptoKey,
  signature: ParsedSignature,
  body: Uint8Array,
): Promise<SignatureCheck> {
  const valid = await crypto.subtle.verify(
    "HMAC",
    key,
    signature.mac,
    signedPayload(signature.timestamp, body),
  );
  return valid ? { ok: true, signedAt: signature.signedAt } : { ok: false, reason: "mismatch" };
}

/** The tolerance in seconds, checked. */
export function checkTolerance(toleranceSec: number | undefined): number {
  const tolerance = toleranceSec ?? 300;
  if (!(tolerance > 0)) {
    throw new RangeError("Cannot verify signatures as toleranceSec must be positive");
  }
  return tolerance;
}

/** Options for {@link signCallback}. */
export interface SignCallbackOptions {
  /** The shared secret. */
  secret: string;
  /** The raw body. */
  body: Uint8Array;
  /** Unix seconds. @default now */
  timestamp?: number;
}

/** The header value a sender attaches (the simulator, tests, the SMS-forwarder setup docs). */
export async function signCallback(options: SignCallbackOptions): Promise<string> {
  checkSecret(options.secret);
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const mac = await crypto.subtle.sign(
    "HMAC",
    await hmacKey(options.secret, ["sign"]),
    signedPayload(timestamp, options.body),
  );
  return `t=${timestamp},v1=${toHex(new Uint8Array(mac))}`;
}
