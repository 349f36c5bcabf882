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

/**
 * Creates the data folders the dev server writes (the root, and the embedded
 * database's folder when given), parents included, so a fresh clone starts.
 */
export async function ensureDataDirs(
  options: { root?: string; pgliteDir?: string } = {},
): Promise<void> {
  await Deno.mkdir(options.root ?? dataRoot(), { recursive: true });
  if (options.pgliteDir) await Deno.mkdir(options.pgliteDir, { recursive: true });
}

/** The port the dev server listens on: `$PORT`, else 54321. */
export const DEFAULT_PORT = 54321;

/**
 * The dev server's base URL, read from the same environment as the server:
 * `http://127.0.0.1:$PORT` (54321 when unset).
 */
export function devServerUrl(env: Pick<Deno.Env, "get"> = Deno.env): string {
  const port = env.get("PORT")?.trim();
  return `http://127.0.0.1:${port || DEFAULT_PORT}`;
}

/** The one line a CLI prints when the dev server does not answer at `url`. */
export function unreachableHint(url: string): string {
  return `Cannot reach the dev server at ${url} — start it with \`deno task dev\`` +
    " (same PORT and EASYMO_DATA_DIR as this command)";
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

/** A shop, venue or vehicle of the seed and the number that answers for it (`dev_holdings.json`). */
export interface DevHolding {
  /** shop, venue (restaurant, cafe, bar) or vehicle. */
  kind: "shop" | "venue" | "vehicle";
  /** The business's name, or the vehicle's plate. */
  name: string;
  /** Category and area, or vehicle type and description. */
  detail: string;
  /** The org's slug. */
  org: string;
  /** The E.164 number that gets its WhatsApp messages (what `deno task chat --phone` plays). */
  phone: string | null;
  /** The owning user (business owner, driver), when there is one. */
  owner_user_id: string | null;
}

/** The seed's shops, venues and vehicles the dev server wrote; null before its first start. */
export async function readDevHoldings(): Promise<DevHolding[] | null> {
  try {
    return JSON.parse(await Deno.readTextFile(`${dataRoot()}dev_holdings.json`));
  } catch {
    return null;
  }
}
