/**
 * Base64 and base64url (RFC 4648 §4, §5) for bytes: one implementation for
 * every module that stores or sends bytes as text (model weights, sealed
 * credentials, signed tokens, file inputs, task ids). `atob`/`btoa` work on
 * "binary strings", so each direction goes through one in slices: a spread
 * of a whole megabyte into `String.fromCharCode` overflows the stack.
 *
 * @module
 */

const SLICE = 0x8000;

/** `bytes` as standard base64, padded. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let at = 0; at < bytes.length; at += SLICE) {
    binary += String.fromCharCode(...bytes.subarray(at, at + SLICE));
  }
  return btoa(binary);
}

/**
 * The bytes of standard base64 text (padding optional, no whitespace).
 *
 * @throws {SyntaxError} when `text` is not base64.
 */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.replace(/=+$/, "").length % 4 === 1) {
    throw new SyntaxError("Not base64");
  }
  const binary = atob(text.padEnd(text.length + (4 - text.length % 4) % 4, "="));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** `bytes` as base64url without padding (safe in URLs, headers and ids). */
export function encodeBase64Url(bytes: Uint8Array): string {
  return encodeBase64(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * The bytes of base64url text (padding optional).
 *
 * @throws {SyntaxError} when `text` is not base64url.
 */
export function decodeBase64Url(text: string): Uint8Array<ArrayBuffer> {
  if (/[+/]/.test(text)) throw new SyntaxError("Not base64url");
  return decodeBase64(text.replaceAll("-", "+").replaceAll("_", "/"));
}
