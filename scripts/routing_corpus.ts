/**
 * The routing corpus: per pack and language, `shared/packs/<pack>/corpus.<lang>.txt`, one
 * first message a line, `#` lines are comments and one `# agent: <id>` line names the agent
 * (or `unclear`) every message of the file asks for. It is the broad training data of the
 * routing model (`deno task train:routing`); the packs' `intents.ts` stay the curated set.
 *
 * `corpus.<lang>.txt` is mostly template output (by a script that was not kept);
 * `corpus_written.<lang>.txt`, in the same format, holds messages written by hand, as many
 * different people would put them. They are kept apart so the cross-writer check
 * (`scripts/routing_cross_writer.ts`) can train on one and read the other.
 *
 * @module
 */
/** One corpus file's messages. */
export interface CorpusFile {
  /** The file's path, from the repository's root. */
  path: string;
  /** The agent id (or `unclear`) its messages ask for. */
  agent: string;
  /** Its language code (en, rw, fr). */
  language: string;
  /** Whether it is a `corpus_written` file: messages written by hand, not from templates. */
  handWritten: boolean;
  /** Its messages, in file order. */
  messages: string[];
}

const PACKS_DIR = `${import.meta.dirname}/../shared/packs/`;

/**
 * Every corpus file, sorted by path so a retrain reads them in one order.
 *
 * @throws {TypeError} when a file names no agent.
 */
export async function loadRoutingCorpus(): Promise<CorpusFile[]> {
  const files: CorpusFile[] = [];
  for await (const pack of Deno.readDir(PACKS_DIR)) {
    if (!pack.isDirectory) continue;
    for await (const entry of Deno.readDir(`${PACKS_DIR}${pack.name}`)) {
      const match = /^corpus(_written)?\.([a-z]{2})\.txt$/.exec(entry.name);
      if (!match) continue;
      const path = `shared/packs/${pack.name}/${entry.name}`;
      const text = await Deno.readTextFile(`${PACKS_DIR}${pack.name}/${entry.name}`);
      const lines = text.split("\n").map((line) => line.trim()).filter(Boolean);
      const agent = lines.map((line) => /^#\s*agent:\s*(\S+)/.exec(line)?.[1]).find(Boolean);
      if (agent === undefined) {
        throw new TypeError(`Cannot read ${path} as it must name its agent in a "# agent:" line`);
      }
      files.push({
        path,
        agent,
        language: match[2],
        handWritten: match[1] !== undefined,
        messages: lines.filter((line) => !line.startsWith("#")),
      });
    }
  }
  return files.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}
