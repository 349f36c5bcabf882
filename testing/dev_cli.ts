/**
 * The dev server on a seeded PGlite in a fresh data directory, and the
 * `deno task tools` CLI run as a child process against it: what the CLI and
 * chat tests drive, shared so each test does not carry its own copy.
 */
import { openTestDatabase } from "@testing/db.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { type DevServer, startDevServer } from "../scripts/dev_server.ts";

const TOOLS_CLI = new URL("../scripts/tools_cli.ts", import.meta.url).pathname;

/** What a CLI child process printed and how it exited. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `scripts/tools_cli.ts` with `args` and only `env` as extra environment. */
export async function runToolsCli(
  args: string[],
  env: Record<string, string>,
): Promise<CliResult> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", TOOLS_CLI, ...args],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
}

/** A dev server over a seeded test database in its own temporary data root. */
export interface TestDevServer extends DevServer {
  /** The data root (dev secret, files) the server and the CLI share. */
  root: string;
  /** Environment for CLI child processes: this data root, no colour. */
  env: Record<string, string>;
  /** Stops the server and removes the data root. */
  close(): Promise<void>;
}

/** Options for {@linkcode startTestDevServer}. */
export interface StartTestDevServerOptions {
  /** Prefix of the temporary data root's name. */
  prefix: string;
}

/** Starts the dev server on an ephemeral port over a seeded PGlite. */
export async function startTestDevServer(
  options: StartTestDevServerOptions,
): Promise<TestDevServer> {
  const root = await Deno.makeTempDir({ prefix: options.prefix });
  const server = await startDevServer({
    port: 0,
    root,
    database: await openTestDatabase(),
    log: memoryLogger(),
  });
  return {
    ...server,
    root,
    env: { EASYMO_DATA_DIR: root, NO_COLOR: "1" },
    async close() {
      await server.close();
      await Deno.remove(root, { recursive: true }).catch(() => {});
    },
  };
}
