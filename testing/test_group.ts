/**
 * Runs several test files in one isolate (CI's grouped entries,
 * scripts/ci/split_tests.ts): `deno test` gives every file an isolate of its
 * own, and a database test file's first PGlite database costs ~3–4 CPU-s
 * there (the WebAssembly Postgres warming up: its first opens and queries),
 * where the next one costs ~0.5. A group entry imports its files one after
 * another through {@link importTestFile}, so they share that warm-up and the
 * leased databases of testing/db.ts.
 *
 * Every test a file registers is named after the file (`path > name`): the
 * report names the group's entry, and a `dbTest`'s location is testing/db.ts,
 * so the prefix is what names the file a failure comes from.
 *
 * @module
 */

type TestFn = (t: Deno.TestContext) => void | Promise<void>;
type Register = (...args: unknown[]) => void;

/** The separator between a file's path and its test's name in a group. */
export const GROUPED_NAME_SEPARATOR = " > ";

/**
 * One `Deno.test` call's arguments, in whichever of its forms, as a single
 * definition named `prefix` + its name.
 */
export function renamedDefinition(prefix: string, args: readonly unknown[]): Deno.TestDefinition {
  const [first, second, third] = args;
  let definition: Deno.TestDefinition;
  if (typeof first === "function") {
    definition = { name: first.name, fn: first as TestFn };
  } else if (typeof first === "string") {
    definition = typeof second === "function"
      ? { name: first, fn: second as TestFn }
      : { ...(second as object), name: first, fn: third as TestFn };
  } else {
    const options = first as Partial<Deno.TestDefinition>;
    definition = typeof second === "function"
      ? { ...options, name: options.name ?? second.name, fn: second as TestFn }
      : options as Deno.TestDefinition;
  }
  if (!definition.name) throw new TypeError("a test in a grouped file has no name");
  return { ...definition, name: `${prefix}${definition.name}` };
}

/**
 * Imports the test file at `path` (relative to the repository, used in the
 * tests' names) with `load`, every `Deno.test` (and `.only`, `.ignore`) it
 * calls while it loads renamed `path > name`. `Deno.test` is put back after,
 * even when the import fails (the failure then fails the group).
 */
export async function importTestFile(path: string, load: () => Promise<unknown>): Promise<void> {
  const original = Deno.test;
  const prefix = `${path}${GROUPED_NAME_SEPARATOR}`;
  const wrap = (register: Register) => (...args: unknown[]) =>
    register(renamedDefinition(prefix, args));
  const renaming = Object.assign(wrap(original as Register), {
    only: wrap(original.only as Register),
    ignore: wrap(original.ignore as Register),
  });
  // `Deno.test` is typed read-only; the runtime's property is writable, and put back below.
  const deno = Deno as { test: unknown };
  deno.test = renaming;
  try {
    await load();
  } finally {
    deno.test = original;
  }
}
