/**
 * One cold registration in a fresh process, for `generated_tools_bench.ts`
 * (not a bench itself): `deno run -A bench/generated_tools_cold_child.ts
 * <before|now> <document file> <operationIds file>` prints
 * `{import_ms, register_ms, held_mb}` as JSON (`now` also times its cold
 * validation and mapping first, so its `register_ms` is what follows them). `before` is registration as it
 * was (`@scalar/openapi-parser`'s `validate()`, then the same mapping, storing
 * and export checks); `now` is `generateChecked` (precompiled meta-schema
 * validators).
 *
 * @module
 */
const [mode, documentFile, idsFile] = Deno.args;
const text = await Deno.readTextFile(documentFile);
const expose = JSON.parse(await Deno.readTextFile(idsFile)) as string[];
const heap = () => Deno.memoryUsage().heapUsed / 1024 / 1024;

let started = performance.now();
const { generateChecked } = await import("@shared/generated_tools/source_tools.ts");
const { GENERATED_TOOLS_ENGINE } = await import("@shared/generated_tools/engine.ts");
const { validate } = mode === "before"
  ? await import("@scalar/openapi-parser")
  : { validate: undefined };
const importMs = performance.now() - started;
const heapBefore = heap();
const engine = mode === "before"
  ? {
    ...GENERATED_TOOLS_ENGINE,
    readers: {
      ...GENERATED_TOOLS_ENGINE.readers!,
      async openapiJson(document: string) {
        const result = await validate!(document);
        if (!result.valid) throw new Error("invalid");
        return JSON.stringify(result.specification);
      },
    },
  }
  : GENERATED_TOOLS_ENGINE;
// The phases, cold: validation, then mapping; generateChecked then finds both warm (the plans
// cached), so what it adds is storing the plans, binding and the export checks.
const phases: Record<string, number> = {};
if (mode === "now") {
  started = performance.now();
  const stored = await engine.readers!.openapiJson(text);
  phases.validate_ms = performance.now() - started;
  started = performance.now();
  const { documentHash } = await import("@shared/generated_tools/operation.ts");
  await engine.plan({
    orgId: "cold",
    name: "gh",
    kind: "openapi",
    document: stored,
    documentHash: await documentHash(stored),
    expose,
  });
  phases.map_ms = performance.now() - started;
}
started = performance.now();
const generated = await generateChecked(
  { orgId: "cold", name: "gh", kind: "openapi", expose },
  text,
  engine,
);
const registerMs = performance.now() - started;
console.log(JSON.stringify({
  import_ms: importMs,
  register_ms: registerMs,
  held_mb: heap() - heapBefore,
  tools: generated.plans.length,
  ...phases,
}));
