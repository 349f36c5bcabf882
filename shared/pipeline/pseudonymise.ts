/**
 * Keyed hashing for personal identifiers: HMAC-SHA256, so a phone number
 * cannot be recovered by hashing all of Rwanda's numbers without the key.
 *
 * @module
 */
import { hmacKey, toHex } from "@shared/runtime/canonical.ts";

/** Returns a function that hashes a value with `secret` (hex, 32 chars). */
export function createPseudonymiser(secret: string): (value: string) => Promise<string> {
  const encoder = new TextEncoder();
  const key = hmacKey(`pseudonymise:${secret}`, ["sign"]);
  return async (value) => {
    const mac = await crypto.subtle.sign("HMAC", await key, encoder.encode(value));
    return toHex(new Uint8Array(mac)).slice(0, 32);
  };
}
