/**
 * `POST /tools/documents/render` over real HTTP on 127.0.0.1, and the
 * agent function's `remotePdfRenderer` talking to it: the same bytes as a
 * local render, the service role only, bad content refused with its field,
 * and an unreachable or refusing renderer answered as SERVICE_UNAVAILABLE.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { USER } from "@testing/seed.ts";
import { ToolFailure } from "@shared/contract/mod.ts";
import { renderPdf } from "@shared/capabilities/documents/pdf_render.ts";
import type { DocumentContent } from "@shared/capabilities/documents/template.ts";
import { remotePdfRenderer } from "@shared/capabilities/documents/remote_renderer.ts";
import { createToolsApp } from "./app.ts";
import { serveFunction } from "@testing/serve_function.ts";

const CONTENT: DocumentContent = {
  title: "Attestation d'assurance automobile",
  subtitle: "N° SON-2026-000123",
  sections: [{
    heading: "Véhicule",
    fields: [{ label: "Plaque", value: "RAD 123 A" }, { label: "Marque", value: "TOYOTA" }],
  }],
  table: {
    columns: [{ header: "Poste", width: 300 }, { header: "RWF", numeric: true, width: 195 }],
    rows: [["Prime nette", "76,771"], ["TVA 18 %", "13,819"]],
    total: ["Total", "90,590"],
  },
  notes: ["Valable du 23/11/2026 au 22/11/2027."],
  date: new Date("2026-11-23T08:00:00Z"),
};
const OPTIONS = { id: "0123456789abcdef0123456789abcdef", language: "fr" as const };

async function serve(db: Parameters<typeof createTestRuntime>[0]) {
  const rt = await createTestRuntime(db);
  const app = createToolsApp({ ...rt, renderPdf });
  const server = serveFunction("tools", (request) => app.fetch(request));
  const url = `${server.url}/documents/render`;
  return { rt, url, close: () => server.close() };
}

dbTest("remote render: the same PDF as a local render, for the service role only", async (db) => {
  const { rt, url, close } = await serve(db);
  try {
    const remote = remotePdfRenderer({ url, key: await rt.tokenFor(null) });
    const bytes = await remote(CONTENT, OPTIONS);
    assert.deepEqual(bytes, await renderPdf(CONTENT, OPTIONS));

    // A user's token, or none: refused, and the renderer says the service is unavailable.
    const asUser = remotePdfRenderer({ url, key: await rt.tokenFor(USER.aline) });
    await assert.rejects(
      asUser(CONTENT, OPTIONS),
      (error) => error instanceof ToolFailure && error.code === "SERVICE_UNAVAILABLE",
    );
    const anonymous = await fetch(url, { method: "POST", body: "{}" });
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
  } finally {
    await close();
  }
});

dbTest("remote render: bad content is a validation error with its field", async (db) => {
  const { rt, url, close } = await serve(db);
  try {
    const key = await rt.tokenFor(null);
    const post = (body: unknown) =>
      fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const wire = { ...CONTENT, date: CONTENT.date.toISOString() };
    const badId = await post({ content: wire, options: { ...OPTIONS, id: "nope" } });
    assert.equal(badId.status, 400);
    const answer = await badId.json();
    assert.equal(answer.error.code, "VALIDATION_ERROR");
    assert.deepEqual(answer.error.fields.map((f: { path: string }) => f.path), ["options.id"]);
    const badDate = await post({ content: { ...wire, date: "yesterday" }, options: OPTIONS });
    assert.equal(badDate.status, 400);
    assert.deepEqual(
      (await badDate.json()).error.fields.map((f: { path: string }) => f.path),
      ["content.date"],
    );
    // Over 256 KiB: refused while streaming, before anything is parsed.
    const huge = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        content: { ...wire, notes: ["x".repeat(300 * 1024)] },
        options: OPTIONS,
      }),
    });
    assert.equal(huge.status, 413);
    assert.equal((await huge.json()).error.code, "VALIDATION_ERROR");
    const notJson = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: "{",
    });
    assert.equal(notJson.status, 400);
    await notJson.body?.cancel();

    // Through the renderer: the same refusal, as the tool's validation error.
    const remote = remotePdfRenderer({ url, key });
    await assert.rejects(
      remote({ ...CONTENT, title: "" }, OPTIONS),
      (error) => error instanceof ToolFailure && error.code === "VALIDATION_ERROR",
    );
    // Too long to send at all: refused before any request.
    let requests = 0;
    const counted = remotePdfRenderer({
      url,
      key,
      fetch: (input, init) => (requests++, fetch(input, init)),
    });
    const rows = Array.from({ length: 200 }, () => ["x".repeat(1500), "1"]);
    await assert.rejects(
      counted({ ...CONTENT, table: { ...CONTENT.table!, rows } }, OPTIONS),
      (error) => error instanceof ToolFailure && error.code === "VALIDATION_ERROR",
    );
    assert.equal(requests, 0);
  } finally {
    await close();
  }
});

Deno.test("remote render: an unreachable tools function is SERVICE_UNAVAILABLE, quickly", async () => {
  // A port nobody listens on: bound, then closed.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const remote = remotePdfRenderer({
    url: `http://127.0.0.1:${port}/functions/v1/tools/documents/render`,
    key: "service-key",
  });
  await assert.rejects(
    remote(CONTENT, OPTIONS),
    (error) =>
      error instanceof ToolFailure && error.code === "SERVICE_UNAVAILABLE" &&
      !error.message.includes("service-key"),
  );
});
