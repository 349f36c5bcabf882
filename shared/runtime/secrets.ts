/**
 * The platform secret and the keys derived from it. One secret
 * (`EASYMO_SECRET`, at least 32 characters) signs confirmation tokens, keys
 * the analytics hash and, in development, signs local JWTs; each use gets
 * its own derived key.
 *
 * @module
 */

/** The HS256 key for locally signed development JWTs. */
export function devJwtSecret(secret: string): string {
  return `dev-jwt:${secret}`;
}

/**
 * Reads the development secret from `path`, creating it on first use.
 * Only for the embedded dev server: deployments set `EASYMO_SECRET`.
 */
export async function loadOrCreateDevSecret(path: string): Promise<string> {
  try {
    return (await Deno.readTextFile(path)).trim();
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const secret = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  await Deno.mkdir(new URL(".", `file://${path}`), { recursive: true }).catch(() => {});
  await Deno.writeTextFile(path, secret, { mode: 0o600, createNew: true }).catch((error) => {
    // Another process created it first: use theirs.
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  });
  return (await Deno.readTextFile(path)).trim();
}
