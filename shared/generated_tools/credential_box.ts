/**
 * Tenants' API credentials at rest: AES-256-GCM (WebCrypto) under a key the
 * functions hold (`GENERATED_TOOLS_KEY`) and the database never sees. Each
 * secret is bound to its tenant, source and scheme as additional data, so a
 * row copied to another tenant or scheme does not decrypt.
 *
 * The same key signs (HMAC-SHA-256, under a key derived from it for that
 * purpose alone) the operation plans registration stores, so a plan written
 * to the database by anyone but the platform (a staff member through the
 * table's RLS, say) is refused when an instance reads it.
 *
 * @module
 */
import { decodeBase64 as fromBase64, encodeBase64 as toBase64 } from "@shared/runtime/base64.ts";

/** Where a credential belongs: bound into its ciphertext. */
export interface CredentialScope {
  /** The tenant. */
  orgId: string;
  /** The API source. */
  sourceId: string;
  /** The security scheme's name. */
  scheme: string;
}

/** A sealed credential, as stored. */
export interface SealedCredential {
  /** base64(iv ‖ ciphertext). */
  ciphertext: string;
  /** Which key sealed it (a hash prefix of the key, never the key). */
  keyId: string;
}

/** Seals and opens credentials. */
export interface CredentialBox {
  /** The id of the key in use. */
  readonly keyId: string;
  /** Encrypts a secret for its scope. */
  seal(secret: string, scope: CredentialScope): Promise<SealedCredential>;
  /**
   * Decrypts a sealed secret.
   *
   * @throws {Error} when the key differs or the row was tampered with or moved.
   */
  open(sealed: SealedCredential, scope: CredentialScope): Promise<string>;
  /** An HMAC-SHA-256 of `data` (base64url) under the plan-signing key. */
  sign(data: string): Promise<string>;
  /** Whether `signature` is {@link CredentialBox.sign}'s for `data` (checked in constant time). */
  verify(data: string, signature: string): Promise<boolean>;
}

/**
 * A box over key material: 32 bytes given as 64 hex digits or base64, or
 * any longer passphrase (hashed to 32 bytes).
 *
 * @throws {RangeError} when the material is shorter than 32 characters.
 */
export async function createCredentialBox(material: string): Promise<CredentialBox> {
  const text = material.trim();
  if (text.length < 32) {
    throw new RangeError(
      `Cannot create the credential box as GENERATED_TOOLS_KEY must be at least 32 characters: current length is ${text.length}`,
    );
  }
  const raw = /^[0-9a-f]{64}$/i.test(text)
    ? Uint8Array.from(text.match(/../g)!.map((pair) => parseInt(pair, 16)))
    : new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  const key = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
  const fingerprint = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`key-id:${toBase64(raw)}`)),
  );
  const keyId = [...fingerprint.slice(0, 8)].map((byte) => byte.toString(16).padStart(2, "0"))
    .join("");
  // A key of its own for signing: a MAC and a cipher never share key bytes.
  const signingKey = await crypto.subtle.importKey(
    "raw",
    await crypto.subtle.digest(
      "SHA-256",
      new TextEncoder().encode(`plan-signing:${toBase64(raw)}`),
    ),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  const aad = (scope: CredentialScope) =>
    new TextEncoder().encode(`${scope.orgId}\n${scope.sourceId}\n${scope.scheme}`);

  return {
    keyId,
    async seal(secret, scope) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = new Uint8Array(
        await crypto.subtle.encrypt(
          { name: "AES-GCM", iv, additionalData: aad(scope) },
          key,
          new TextEncoder().encode(secret),
        ),
      );
      const joined = new Uint8Array(iv.length + sealed.length);
      joined.set(iv);
      joined.set(sealed, iv.length);
      return { ciphertext: toBase64(joined), keyId };
    },
    async open(sealed, scope) {
      if (sealed.keyId !== keyId) throw new Error("Credential sealed under another key");
      const bytes = fromBase64(sealed.ciphertext);
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: bytes.slice(0, 12), additionalData: aad(scope) },
        key,
        bytes.slice(12),
      );
      return new TextDecoder().decode(plain);
    },
    async sign(data) {
      const mac = await crypto.subtle.sign("HMAC", signingKey, new TextEncoder().encode(data));
      return toBase64(new Uint8Array(mac)).replaceAll("+", "-").replaceAll("/", "_")
        .replace(/=+$/, "");
    },
    async verify(data, signature) {
      let mac: Uint8Array;
      try {
        mac = fromBase64(signature.replaceAll("-", "+").replaceAll("_", "/"));
      } catch {
        return false;
      }
      // WebCrypto's verify compares in constant time.
      return await crypto.subtle.verify(
        "HMAC",
        signingKey,
        mac as Uint8Array<ArrayBuffer>,
        new TextEncoder().encode(data),
      );
    },
  };
}

/**
 * The box from the environment: `GENERATED_TOOLS_KEY`, else (dev server,
 * tests) one derived from the platform secret, so a deployment that sets no
 * key still never stores a plain secret.
 */
export function credentialBoxFromEnv(
  platformSecret: string,
  env: Pick<Deno.Env, "get"> = Deno.env,
): Promise<CredentialBox> {
  const material = env.get("GENERATED_TOOLS_KEY")?.trim();
  return createCredentialBox(material || `generated-tools:${platformSecret}`);
}
