import assert from "node:assert/strict";
import { loadRoutingCorpus } from "./routing_corpus.ts";

Deno.test("the routing corpus reads the hand-written files beside the generated ones, marked apart", async () => {
  const files = await loadRoutingCorpus();
  const written = files.filter((file) => file.handWritten);
  assert.ok(written.length > 0, "no corpus_written.<lang>.txt read");
  for (const file of files) {
    assert.equal(file.handWritten, file.path.includes("/corpus_written."), file.path);
  }
  // A pack's hand-written lines ask for the same agent, in the same language, as its generated ones.
  for (const file of written) {
    const generated = files.find((other) =>
      !other.handWritten && other.path === file.path.replace("corpus_written.", "corpus.")
    );
    assert.ok(generated, `${file.path} has no generated corpus beside it`);
    assert.equal(file.agent, generated.agent, file.path);
    assert.equal(file.language, generated.language, file.path);
  }
});

Deno.test("every customer agent and language has hand-written routing lines", async () => {
  const files = await loadRoutingCorpus();
  for (const file of files.filter((file) => !file.handWritten)) {
    const written = files.find((other) =>
      other.handWritten && other.agent === file.agent && other.language === file.language
    );
    assert.ok(written && written.messages.length >= 10, `${file.path}: too few hand-written lines`);
  }
});
