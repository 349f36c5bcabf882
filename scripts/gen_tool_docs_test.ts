import assert from "node:assert/strict";
import { renderToolDocs, TOOL_DOCS_URL } from "./gen_tool_docs.ts";

Deno.test("docs/tools.md matches the registry (run `deno task docs:tools` to refresh)", async () => {
  assert.equal(await Deno.readTextFile(TOOL_DOCS_URL), await renderToolDocs());
});
