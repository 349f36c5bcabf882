/**
 * Confirmation tokens for `confirmRequired` tools. A token is an HMAC over
 * the tool, the caller, the exact arguments and the idempotency key, with an
 * expiry: it confirms that call and no other.
 *
 * @module
 */
/** What a token binds. */
export interface ConfirmationClaims {
  /** Tool name. */
  tool: string;
  /** `org:user` of the caller. */
  scope: string;
  /** Fingerprint of the validated arguments. */
  args: string;
  /** The idempotency key the call will use, or null. */
  key: string | null;
}

/** Result of checking a token against a call. */
export type ConfirmationCheck = "valid" | "mismatch" | "expired" | "forged";

import { hmacKey } from "@shared/runtime/canonical.ts";
import {
  decodeBase64Url as fromBase64url,
  encodeBase64Url as base64url,
} from "@shared/runtime/base64.ts";

const encoder = new TextEncoder();

/** Options for {@link ConfirmationSigner}. */
export interface ConfirmationSignerOptions {
  /** How long a token stays valid. @default 300000 (5 minutes) */
  ttlMs?: number;
  /** Clock. @default Date.now */
  now?: () => number;
}

/** Issues and checks confirmation tokens with one HMAC-SHA256 key. */
export class ConfirmationSigner {
  readonly #key: Promise<CryptoKey>;
  readonly #ttlMs: number;
  readonly #now: () => number;

  /**
   * Creates a signer from a secret of at least 32 bytes.
   *
   * @throws {RangeError} when the secret is too short.
   */
  constructor(secret: string, options: ConfirmationSignerOptions = {}) {
    if (encoder.encode(secret).length < 32) {
      throw new RangeError(
        "Cannot create confirmation signer as the secret is shorter than 32 bytes",
      );
    }
    this.#key = hmacKey(`confirm:${secret}`, ["sign", "verify"]);
    this.#ttlMs = options.ttlMs ?? 300_000;
    this.#now = options.now ?? Date.now;
  }

  /** Issues a token; returns it with its expiry. */
  async issue(claims: ConfirmationClaims): Promise<{ token: string; expiresAt: Date }> {
    const expiresAt = new Date(this.#now() + this.#ttlMs);
    const payload = encoder.encode(JSON.stringify({ ...claims, exp: expiresAt.getTime() }));
    const signature = new Uint8Array(
      await crypto.subtle.sign("HMAC", await this.#key, payload),
    );
    return { token: `${base64url(payload)}.${base64url(signature)}`, expiresAt };
  }

  /** Checks a token against the call in hand, in constant time for the signature. */
  async check(token: string, claims: ConfirmationClaims): Promise<ConfirmationCheck> {
    const [payloadText, signatureText, extra] = token.split(".");
    if (!payloadText || !signatureText || extra !== undefined) return "forged";
    let payload: Uint8Array, signature: Uint8Array;
    try {
      payload = fromBase64url(payloadText);
      signature = fromBase64url(signatureText);
    } catch {
      return "forged";
    }
    // crypto.subtle.verify compares the MAC in constant time.
    const genuine = await crypto.subtle.verify(
      "HMAC",
      await this.#key,
      signature as Uint8Array<ArrayBuffer>,
      payload as Uint8Array<ArrayBuffer>,
    );
    if (!genuine) return "forged";
    const bound = JSON.parse(new TextDecoder().decode(payload)) as ConfirmationClaims & {
      exp: number;
    };
    if (
      bound.tool !== claims.tool || bound.scope !== claims.scope || bound.args !== claims.args ||
      bound.key !== claims.key
    ) return "mismatch";
    return bound.exp < this.#now() ? "expired" : "valid";
  }
}
