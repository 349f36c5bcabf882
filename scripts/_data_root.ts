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
