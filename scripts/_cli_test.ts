import assert from "node:assert/strict";
import { parseCli, UsageError } from "./_cli.ts";

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
