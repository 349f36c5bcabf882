/**
 * Canonical JSON (sorted keys) and its SHA-256, used to fingerprint a call's
 * arguments for the idempotency ledger and confirmation tokens, and the one
 * way the code imports an HMAC-SHA256 key.
 *
 * @module
 */

/** JSON with object keys sorted at every level, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item) => {
    if (item && typeof item === "object" && !Array.isArray(item)) {
      return Object.fromEntries(
        Object.keys(item).sort().map((key) => [key, (item as Record<string, unknown>)[key]]),
      );
    }
    return item;
  }) ?? "null";
}

const encoder = new TextEncoder();

/** Hex SHA-256 of a string (as UTF-8) or of bytes. */
export async function sha256Hex(input: string | Uint8Array): Promise<string> {
  const bytes = typeof input === "string" ? encoder.encode(input) : new Uint8Array(input);
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

/** Lower-case hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

/**
 * Imports `secret` (UTF-8) as an HMAC-SHA256 key for `usages`. Verifying with
 * `crypto.subtle.verify` compares MACs in constant time.
 */
export function hmacKey(secret: string, usages: KeyUsage[]): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    usages,
  );
}
