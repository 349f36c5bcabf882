/**
 * One source's life in fresh processes, for `generated_tools_bench.ts` (not a
 * bench itself):
 *
 * - `deno run -A --v8-flags=--expose-gc [--config <tree>/deno.json]
 *   bench/generated_tools_cold_child.ts register <document> <ids> <plans out> [graphql]`
 *   runs `generateChecked` (what `api_source_register` runs: validate, map,
 *   store the plans, check every export dialect) cold, then again (the
 *   instance's cache), and writes the signed plans as the row holds them;
 * - `… sync <document> <ids> <plans in>` is another instance: it decodes the
 *   row as the driver hands it over (UTF-8 bytes: the plans' text column, or
 *   the whole jsonb parsed for a tree that reads it so), checks the plans'
 *   signature, reads and binds them (cold), lists them once in the MCP
 *   dialect and checks one call's input.
 *
 * Each prints its figures as JSON: wall and CPU milliseconds, heap held after
 * a GC. With another tree's `deno.json` the import map points at that tree's
 * code, so the bench times an older checkout side by side (`--before <dir>`).
 *
 * @module
 */
import process from "node:process";

const [mode, documentFile, idsFile, plansFile] = Deno.args;
// The document's language: OpenAPI unless named (`graphql`: an introspection result, the fields as ids).
const kind = (Deno.args[4] ?? "openapi") as "openapi" | "graphql";
const expose = JSON.parse(await Deno.readTextFile(idsFile)) as string[];
/**
 * The heap after garbage collection, in MB. A turn of the event loop first (V8 keeps what a
 * `WeakRef` points at until the task that made it ends) and two full GCs: one GC, in the same
 * task, left 0.8–1.6 MB more in about one run of three (the sync's figure swung 1.8 ↔ 3.4 MB).
 */
const heap = async () => {
  await new Promise((resolve) => setTimeout(resolve, 0));
  for (let round = 0; round < 2; round++) {
    // deno-lint-ignore no-explicit-any
    (globalThis as any).gc?.();
  }
  return Deno.memoryUsage().heapUsed / 1024 / 1024;
};
const cpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const figures: Record<string, number> = {};
/** Times one step: wall and CPU milliseconds. */
async function timed<T>(name: string, step: () => T | Promise<T>): Promise<T> {
  const cpuBefore = cpu();
  const started = performance.now();
  const value = await step();
  figures[`${name}_ms`] = performance.now() - started;
  figures[`${name}_cpu_ms`] = cpu() - cpuBefore;
  return value;
}

// Module loading, timed apart from the work (every mode imports registration's modules too).
const loadCpu = cpu();
const loadStarted = performance.now();
const { generateChecked } = await import("@shared/generated_tools/source_tools.ts");
const { GENERATED_TOOLS_ENGINE } = await import("@shared/generated_tools/engine.ts");
const { bindPlan } = await import("@shared/generated_tools/bind.ts");
const { loadPlans, openSignedPlans, signPlans } = await import(
  "@shared/generated_tools/stored_plan.ts"
);
const { createCredentialBox } = await import("@shared/generated_tools/credential_box.ts");
const { exportTools } = await import("@shared/export/export_tools.ts");
figures.module_load_ms = performance.now() - loadStarted;
figures.module_load_cpu_ms = cpu() - loadCpu;
const box = await createCredentialBox("bench-key-".repeat(4));
const scope = (documentHash: string) => ({
  orgId: "cold",
  name: "gh",
  kind,
  documentHash,
  baseUrl: "https://api.github.com",
  expose,
});

/**
 * A warm instance: before the timed step, the process has registered other
 * documents (`<warm document>,<warm ids>` in the plans slot: another
 * tenant's, of the same kind) and listed and called their tools, as an
 * instance that has served requests has.
 */
async function warmUp(spec: string): Promise<void> {
  const [warmDocument, warmIds] = spec.split(",");
  const warmText = await Deno.readTextFile(warmDocument);
  const warmExpose = JSON.parse(await Deno.readTextFile(warmIds)) as string[];
  for (const orgId of ["warm-1", "warm-2"]) {
    const made = await generateChecked(
      { orgId, name: "gh", kind, expose: warmExpose },
      // A second tenant's copy differs by a byte, so it is generated again, not a cache hit.
      orgId === "warm-1" ? warmText : `${warmText}\n`,
      GENERATED_TOOLS_ENGINE,
    );
    const tools = loadPlans(made.stored, "gh")!.map((plan) =>
      bindPlan(plan, {
        orgId,
        source: "gh",
        baseUrl: "https://api.github.com",
        allowPrivateNetwork: false,
        credential: () => Promise.resolve(null),
      })
    );
    exportTools(tools, "mcp");
    for (const tool of tools.slice(0, 20)) tool.input.safeParse(tool.examples[0]?.input ?? {});
  }
}

if (mode === "warm-register") {
  await warmUp(plansFile);
  const text = await Deno.readTextFile(documentFile);
  const key = { orgId: "cold", name: "gh", kind, expose };
  const heapBefore = await heap();
  const generated = await timed("cold", () => generateChecked(key, text, GENERATED_TOOLS_ENGINE));
  figures.held_mb = (await heap()) - heapBefore;
  figures.tools = generated.plans.length;
} else if (mode === "register") {
  const text = await Deno.readTextFile(documentFile);
  const key = { orgId: "cold", name: "gh", kind, expose };
  const heapBefore = await heap();
  const generated = await timed("cold", () => generateChecked(key, text, GENERATED_TOOLS_ENGINE));
  figures.held_mb = (await heap()) - heapBefore;
  await timed("warm", () => generateChecked(key, text, GENERATED_TOOLS_ENGINE));
  figures.tools = generated.plans.length;
  const signed = await signPlans(generated.stored, scope(generated.hash), box);
  await Deno.writeTextFile(plansFile, JSON.stringify({ hash: generated.hash, row: signed }));
} else if (mode === "phases" || mode === "warm-phases") {
  if (mode === "warm-phases") await warmUp(plansFile);
  // generateChecked's steps one by one (as source_tools.ts runs them), each timed: where a cold
  // registration's time goes.
  const { documentHash } = await import("@shared/generated_tools/operation.ts");
  const { storeAndLoadPlans } = await import("@shared/generated_tools/stored_plan.ts");
  const { exampleFromSchema } = await import("@shared/generated_tools/json_schema_zod.ts");
  const { EXPORT_FORMATS } = await import("@shared/export/export_tools.ts");
  const text = await Deno.readTextFile(documentFile);
  const engine = GENERATED_TOOLS_ENGINE;
  const textHash = await timed("hash", () => documentHash(text));
  let document: string;
  let options;
  if (kind === "graphql") {
    const read = await timed("validation", () => engine.readers!.graphqlRead!(text));
    document = read.document;
    options = { graphqlSchema: read.schema };
  } else {
    const read = await timed("validation", () => engine.readers!.openapiRead!(text));
    document = read.json;
    options = { parsed: read.document };
  }
  const hash = document === text
    ? textHash
    : await timed("hash_again", () => documentHash(document));
  const plans = await timed(
    "mapping",
    () =>
      engine.plan({
        orgId: "cold",
        name: "gh",
        kind,
        document,
        documentHash: hash,
        expose,
      }, options),
  );
  const both = await timed(
    "storing",
    () =>
      storeAndLoadPlans(
        plans,
        (plan, input) => plan.example ?? exampleFromSchema(input, input) as Record<string, unknown>,
        "gh",
      ),
  );
  const bound = await timed("binding", () =>
    both.loaded.map((plan) =>
      bindPlan(plan, {
        orgId: "cold",
        source: "gh",
        baseUrl: "https://api.invalid",
        allowPrivateNetwork: false,
        credential: () => Promise.resolve(null),
      })
    ));
  for (const format of EXPORT_FORMATS) {
    await timed(`export_${format}`, () => exportTools(bound, format));
  }
  await timed("plans_json", () => JSON.stringify(both.stored));
} else {
  const { hash, row } = JSON.parse(await Deno.readTextFile(plansFile));
  const heapBefore = await heap();
  const { planExportKey } = await import("@shared/generated_tools/bind.ts");
  const stored = await import("@shared/generated_tools/stored_plan.ts");
  const { STORED_PLAN_VERSION } = stored;
  // What the driver hands the sync, as bytes off the wire: a tree that selects the signed parts as
  // columns (`signedPlansColumns`) gets the plans' text as a text column, decoded from UTF-8; an
  // older one the whole jsonb, decoded and parsed. The row is made by this tree's registration (a
  // tree that writes ASCII text, `asciiJson`, hands over ASCII bytes).
  const encoder = new TextEncoder();
  const asColumns = "signedPlansOf" in stored;
  const wire = asColumns ? encoder.encode(row.text) : encoder.encode(JSON.stringify(row));
  const tools = await timed("sync", async () => {
    const decoded = new TextDecoder().decode(wire);
    const signed = asColumns
      ? { signed: row.signed, text: decoded, sig: row.sig, key_id: row.key_id }
      : JSON.parse(decoded);
    const opened = await openSignedPlans(signed, scope(hash), box);
    return loadPlans(JSON.parse(opened), "gh")!.map((plan) =>
      bindPlan(plan, {
        orgId: "other",
        source: "gh",
        baseUrl: "https://api.github.com",
        allowPrivateNetwork: false,
        credential: () => Promise.resolve(null),
        // As the platform's sync binds them: exports kept by content (`export_cache.ts`).
        exportKey: planExportKey(kind, hash, STORED_PLAN_VERSION),
      })
    );
  });
  await timed("listing", () => exportTools(tools, "mcp"));
  await timed("first_call", () => tools[0].input.safeParse(tools[0].examples[0]?.input ?? {}));
  figures.held_mb = (await heap()) - heapBefore;
  figures.tools = tools.length;
  // A new instance ready to serve the tenant: its tools synced, listed once and one call checked.
  figures.ready_cpu_ms = figures.sync_cpu_ms + figures.listing_cpu_ms + figures.first_call_cpu_ms;
  figures.ready_ms = figures.sync_ms + figures.listing_ms + figures.first_call_ms;
}
console.log(JSON.stringify(figures));
