/**
 * `X-Hub-Signature-256`: the HMAC-SHA256 of the raw request body keyed with
 * the Meta app secret. Checked over the raw bytes, before any parsing, in
 * constant time. There is no bypass.
 *
 * @module
 */
import { hmacKey, toHex } from "@shared/runtime/canonical.ts";

const HEADER = /^sha256=([0-9a-fA-F]{64})$/;

/** A verifier bound to one app secret (the key is imported once). */
export type SignatureVerifier = (body: Uint8Array, header: string | null) => Promise<boolean>;

/**
 * Builds a verifier for `X-Hub-Signature-256` headers.
 *
 * @throws {RangeError} when the secret is empty.
 */
export function createSignatureVerifier(appSecret: string): SignatureVerifier {
  if (!appSecret) throw new RangeError("Cannot verify webhooks as the app secret is empty");
  const key = hmacKey(appSecret, ["verify"]);
  return async (body, header) => {
    const match = HEADER.exec(header?.trim() ?? "");
    if (!match) return false;
    const signature = Uint8Array.from(match[1].match(/../g)!, (byte) => parseInt(byte, 16));
    // crypto.subtle.verify compares MACs in constant time.
    return await crypto.subtle.verify(
      "HMAC",
      await key,
      signature as Uint8Array<ArrayBuffer>,
      body as Uint8Array<ArrayBuffer>,
    );
  };
}

/** The header value Meta would send for `body` (tests, the simulator). */
export async function signBody(appSecret: string, body: Uint8Array): Promise<string> {
  const mac = await crypto.subtle.sign(
    "HMAC",
    await hmacKey(appSecret, ["sign"]),
    body as Uint8Array<ArrayBuffer>,
  );
  return `sha256=${toHex(new Uint8Array(mac))}`;
}
