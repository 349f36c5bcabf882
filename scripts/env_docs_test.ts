import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);
const SKIP = new Set(["node_modules", ".data", ".git", ".deno"]);

/** Repository files with one of these extensions, as paths relative to the root. */
async function files(extensions: string[], dir = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(new URL(dir || ".", ROOT))) {
    if (SKIP.has(entry.name)) continue;
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory) found.push(...await files(extensions, `${path}/`));
    else if (extensions.some((extension) => path.endsWith(extension))) found.push(path);
  }
  return found;
}

/**
 * Every environment variable the code reads: `Deno.env.get("X")`,
 * `env.get("X")`, the `read("X")` / `required("X")` helpers the entry points
 * use, `*_ENV = [...]` name lists in TypeScript, and `${X:-default}` inputs of
 * the CI shell scripts.
 */
async function variablesInCode(): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const add = (name: string, path: string) => found.has(name) || found.set(name, path);
  for (const path of await files([".ts"])) {
    // This file names the patterns it looks for.
    if (path === "scripts/env_docs_test.ts") continue;
    const source = await Deno.readTextFile(new URL(path, ROOT));
    const calls = /\b(?:env\.get|env\?\.get|read|required|requireEnv)\(\s*"([A-Z][A-Z0-9_]*)"/g;
    for (const match of source.matchAll(calls)) add(match[1], path);
    for (const list of source.matchAll(/\b[A-Z_]*_ENV\s*=\s*\[([^\]]*)\]/g)) {
      for (const name of list[1].matchAll(/"([A-Z][A-Z0-9_]*)"/g)) add(name[1], path);
    }
  }
  // The secrets a business number names (`tenant_whatsapp_numbers`) are read by those names.
  const seed = await Deno.readTextFile(new URL("supabase/seed.sql", ROOT));
  const numbers = seed.match(/insert into public\.tenant_whatsapp_numbers[\s\S]*?;/)?.[0] ?? "";
  for (const match of numbers.matchAll(/'([A-Z][A-Z0-9_]*)'/g)) add(match[1], "supabase/seed.sql");
  const shell = [
    ".ci/run",
    ...(await files([".sh"])).filter((path) => path.startsWith("scripts/")),
  ];
  for (const path of shell) {
    const source = await Deno.readTextFile(new URL(path, ROOT));
    for (const match of source.matchAll(/\$\{([A-Z][A-Z0-9_]*):-/g)) add(match[1], path);
  }
  return found;
}

/** The variables named in the first column of docs/environment.md's tables. */
async function variablesInDocs(): Promise<Set<string>> {
  const doc = await Deno.readTextFile(new URL("docs/environment.md", ROOT));
  return new Set([...doc.matchAll(/^\|\s*`([A-Z][A-Z0-9_]*)`/gm)].map((match) => match[1]));
}

Deno.test("docs/environment.md lists every environment variable the code reads, and no other", async () => {
  const code = await variablesInCode();
  const docs = await variablesInDocs();
  // The scan itself must work: these are read in known places.
  for (
    const name of [
      "PORT",
      "ADMIN_INBOX_ORIGINS",
      "SMS_ENDPOINT",
      "OPENAI_API_KEY",
      "WHATSAPP_TOKEN",
    ]
  ) {
    assert.ok(code.has(name), `the scan missed ${name}`);
  }
  const undocumented = [...code].filter(([name]) => !docs.has(name))
    .map(([name, path]) => `${name} (read in ${path})`);
  assert.deepEqual(undocumented, [], "read by the code but missing from docs/environment.md");
  const stale = [...docs].filter((name) => !code.has(name));
  assert.deepEqual(stale, [], "in docs/environment.md but read nowhere");
});
