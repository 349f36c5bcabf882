/**
 * Reading production code for the literal checks (`tenant_literals_test.ts`,
 * `agent_literals_test.ts`): the source files of a folder, tests aside, and
 * their code without comments.
 *
 * @module
 */

/** The repository root. */
export const ROOT: URL = new URL("../", import.meta.url);

/**
 * The source without comments (block, line and trailing), strings kept, and
 * every line where it was (a finding's line number is the file's).
 */
export function withoutComments(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ""))
    .replace(/^[ \t]*\/\/.*$/gm, "")
    // A trailing comment starts at " // "; "https://" in a string has no space before it.
    .replace(/[ \t]\/\/\s.*$/gm, "");
}

/** The production `.ts` files under `dir` (relative to the root), tests aside. */
export async function* sourceFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* sourceFiles(path);
    else if (path.endsWith(".ts") && !path.endsWith("_test.ts")) yield path;
  }
}
