import assert from "node:assert/strict";
import { loadCorpusFiles } from "./corpus_files.ts";

const CORPUS = { dir: "corpora", name: /^corpus\.([a-z]{2})\.txt$/, key: "agent" };

async function folderWith(files: Record<string, string>): Promise<URL> {
  const root = await Deno.makeTempDir();
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${root}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${root}/${path}`, text);
  }
  return new URL(`file://${root}/`);
}

Deno.test("corpus files are read from every sub-folder in path order, comments and blanks left out", async () => {
  const root = await folderWith({
    "corpora/rides/corpus.rw.txt": "# agent: rides\nmoto ijya Remera\n\n  ndashaka moto  \n",
    "corpora/food/corpus.en.txt": "# A comment\n# agent: waiter\na pizza please\n",
    "corpora/food/notes.en.txt": "# agent: waiter\nnot a corpus file\n",
  });
  try {
    const files = await loadCorpusFiles({ ...CORPUS, root });
    assert.deepEqual(files, [
      {
        path: "corpora/food/corpus.en.txt",
        label: "waiter",
        language: "en",
        messages: ["a pizza please"],
      },
      {
        path: "corpora/rides/corpus.rw.txt",
        label: "rides",
        language: "rw",
        messages: ["moto ijya Remera", "ndashaka moto"],
      },
    ]);
  } finally {
    await Deno.remove(new URL(root), { recursive: true });
  }
});

Deno.test("a corpus file that names no label is refused, naming the file and the key", async () => {
  const root = await folderWith({ "corpora/corpus.fr.txt": "# class: harm\nune moto svp\n" });
  try {
    await assert.rejects(loadCorpusFiles({ ...CORPUS, root }), (error: Error) => {
      assert.ok(error instanceof TypeError);
      assert.match(error.message, /corpora\/corpus\.fr\.txt.*# agent:/);
      return true;
    });
  } finally {
    await Deno.remove(new URL(root), { recursive: true });
  }
});
