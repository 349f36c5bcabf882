/**
 * The routing corpus: per pack and language, `shared/packs/<pack>/corpus.<lang>.txt`, one
 * first message a line, `#` lines are comments and one `# agent: <id>` line names the agent
 * (or `unclear`) every message of the file asks for. It is the broad training data of the
 * routing model (`deno task train:routing`); the packs' `intents.ts` stay the curated set.
 * Read by the one corpus reader (shared/agent/corpus_files.ts), as the harm corpus is.
 *
 * `corpus.<lang>.txt` is mostly template output (by a script that was not kept);
 * `corpus_written.<lang>.txt`, in the same format, holds messages written by hand, as many
 * different people would put them. They are kept apart so the cross-writer check
 * (`scripts/routing_cross_writer.ts`) can train on one and read the other.
 *
 * @module
 */
import { loadCorpusFiles } from "@shared/agent/corpus_files.ts";

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

/**
 * Every corpus file, sorted by path so a retrain reads them in one order.
 *
 * @throws {TypeError} when a file names no agent.
 */
export async function loadRoutingCorpus(): Promise<CorpusFile[]> {
  const files = await loadCorpusFiles({
    dir: "shared/packs",
    name: /^corpus(?:_written)?\.([a-z]{2})\.txt$/,
    key: "agent",
  });
  return files.map(({ label, ...file }) => ({
    ...file,
    agent: label,
    handWritten: file.path.slice(file.path.lastIndexOf("/") + 1).startsWith("corpus_written."),
  }));
}
