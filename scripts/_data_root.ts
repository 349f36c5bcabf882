/**
 * Where the dev server keeps local state (embedded database, dev secret,
 * seeded users for the CLI).
 *
 * @module
 */

/** `$EASYMO_DATA_DIR`, or `.data/` in the repository (git-ignored); ends with `/`. */
export function dataRoot(): string {
  const dir = Deno.env.get("EASYMO_DATA_DIR") ?? new URL("../.data/", import.meta.url).pathname;
  return dir.endsWith("/") ? dir : `${dir}/`;
}

/** A seeded user as the dev server lists them in `dev_users.json`. */
export interface DevUser {
  /** User id. */
  id: string;
  /** E.164 phone. */
  phone: string;
  /** Display name. */
  display_name: string;
  /** Org memberships. */
  orgs: Array<{ org: string; role: string }>;
}

/** `EASYMO_SECRET`, or the dev server's generated secret; null before its first start. */
export async function readDevSecret(): Promise<string | null> {
  const fromEnv = Deno.env.get("EASYMO_SECRET");
  if (fromEnv) return fromEnv;
  try {
    return (await Deno.readTextFile(`${dataRoot()}dev_secret`)).trim();
  } catch {
    return null;
  }
}

/** The seeded users the dev server wrote; null before its first start. */
export async function readDevUsers(): Promise<DevUser[] | null> {
  try {
    return JSON.parse(await Deno.readTextFile(`${dataRoot()}dev_users.json`));
  } catch {
    return null;
  }
}
