import assert from "node:assert/strict";
import { numberOption, parseCli, UsageError } from "./_cli.ts";

const options = {
  url: { type: "string", default: "http://127.0.0.1:54321" },
  phone: { type: "string" },
  service: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

function usage(argv: string[], positionals = false): string {
  try {
    parseCli(argv, { options, positionals });
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    return error.message;
  }
  throw new Error(`no usage error for ${argv.join(" ")}`);
}

Deno.test("parseCli() reads declared options, their defaults and bare words when taken", () => {
  assert.deepEqual(parseCli(["--phone", "+250788000001", "-h"], { options }), {
    values: { url: "http://127.0.0.1:54321", phone: "+250788000001", help: true },
    positionals: [],
  });
  assert.deepEqual(
    parseCli(["call", "notify_staff", "--service", "--url=http://x"], {
      options,
      positionals: true,
    }),
    { values: { url: "http://x", service: true }, positionals: ["call", "notify_staff"] },
  );
});

Deno.test("parseCli() answers a usage error naming what was wrong and the options taken", () => {
  const taken = "options: --url, --phone, --service, --help";
  assert.equal(usage(["--phnoe", "+250788000001"]), `unknown option --phnoe (${taken})`);
  assert.equal(usage(["-x"]), `unknown option -x (${taken})`);
  assert.equal(usage(["--phone"]), "--phone needs a value");
  assert.equal(usage(["--service=yes"]), "--service takes no value");
  assert.equal(usage(["call"]), `unexpected argument call (${taken})`);
});

Deno.test("numberOption() reads a number and refuses anything else as a usage error", () => {
  assert.equal(numberOption(undefined, "min"), undefined);
  assert.equal(numberOption("90", "min"), 90);
  assert.equal(numberOption("0.5", "smoothing"), 0.5);
  for (const bad of ["", "ninety", "90%", "Infinity"]) {
    assert.throws(
      () => numberOption(bad, "min"),
      (error: Error) =>
        error instanceof UsageError && error.message.startsWith("--min needs a number"),
      bad,
    );
  }
});

// The routing scripts read their options through the one parser: a misspelt option stops them
// with exit 2 before anything is scored (no clock, no network: they fail at the first line).
for (
  const [script, flag] of [["eval_routing.ts", "--verbsoe"], ["tune_routing.ts", "--temprature"]]
) {
  Deno.test(`${script} refuses an unknown option with exit 2 and its usage`, async () => {
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL(script, import.meta.url).pathname, flag, "2"],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(run.stderr);
    assert.equal(run.code, 2, stderr);
    assert.match(
      stderr,
      new RegExp(`^${script.replace(".ts", "")}: unknown option ${flag} \\(options: `),
    );
    assert.match(stderr, /Usage: /);
  });
}
