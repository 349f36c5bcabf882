/**
 * Training corpora as plain text, one reader for all: a file holds one
 * message a line, `#` lines are comments, and one `# <key>: <label>` line
 * names the label every message of the file has (the routing corpus's
 * `# agent: rides`, the harm corpus's `# class: harm`). The file's name ends
 * in `.<lang>.txt`. Only training scripts and tests read them, never a
 * function: what ships is the weights trained from them.
 *
 * @module
 */

/** One corpus file's messages. */
export interface CorpusFile {
  /** The file's path, from the repository's root. */
  path: string;
  /** The label its `# <key>:` line names (an agent id, a class). */
  label: string;
  /** Its language code (en, rw, fr). */
  language: string;
  /** Its messages, in file order. */
  messages: string[];
}

/** Options for {@linkcode loadCorpusFiles}. */
export interface CorpusFilesOptions {
  /** The folder to read, from the repository's root ("shared/packs"); its sub-folders too. */
  dir: string;
  /** The file names to read; the first group is the language ("corpus.en.txt": `/^corpus\.([a-z]{2})\.txt$/`). */
  name: RegExp;
  /** The header key that names the label ("agent", "class"). */
  key: string;
  /** The folder `dir` and the paths are read from. @default the repository's root */
  root?: URL;
}

const ROOT = new URL("../../", import.meta.url);

/**
 * Every corpus file under `dir` whose name matches, sorted by path so a
 * retrain reads them in one order.
 *
 * @throws {TypeError} when a file names no label.
 *
 * @example
 * ```ts
 * import { loadCorpusFiles } from "@shared/agent/corpus_files.ts";
 * const files = await loadCorpusFiles({
 *   dir: "shared/packs",
 *   name: /^corpus\.([a-z]{2})\.txt$/,
 *   key: "agent",
 * });
 * files[0].label; // an agent id
 * ```
 */
export async function loadCorpusFiles(options: CorpusFilesOptions): Promise<CorpusFile[]> {
  const { dir, name, key, root = ROOT } = options;
  const header = new RegExp(`^#\\s*${key}:\\s*(\\S+)`);
  const files: CorpusFile[] = [];
  for (const path of await filesUnder(root, dir.replace(/\/+$/, ""))) {
    const language = name.exec(path.slice(path.lastIndexOf("/") + 1))?.[1];
    if (language === undefined) continue;
    const text = await Deno.readTextFile(new URL(path, root));
    const lines = text.split("\n").map((line) => line.trim()).filter(Boolean);
    const label = lines.map((line) => header.exec(line)?.[1]).find(Boolean);
    if (label === undefined) {
      throw new TypeError(`Cannot read ${path} as it must name its label in a "# ${key}:" line`);
    }
    files.push({
      path,
      label,
      language,
      messages: lines.filter((line) => !line.startsWith("#")),
    });
  }
  return files.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

// The paths of the files under `dir` and its sub-folders, from `root`.
async function filesUnder(root: URL, dir: string): Promise<string[]> {
  const paths: string[] = [];
  for await (const entry of Deno.readDir(new URL(`${dir}/`, root))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) paths.push(...await filesUnder(root, path));
    else if (entry.isFile) paths.push(path);
  }
  return paths;
}
