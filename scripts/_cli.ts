/**
 * What every command-line script shares: reading its options (one parser,
 * `node:util`'s `parseArgs` in strict mode, so an option nobody declared is
 * an error rather than silently ignored), the usage error it answers with,
 * and how `main` becomes an exit code.
 *
 * @module
 */
import { parseArgs } from "node:util";

/** A usage error: the script prints it with its usage and exits 2. */
export class UsageError extends Error {}

/** One option a script takes. */
export interface CliOption {
  /** A string takes a value (`--url BASE`); a boolean is a switch (`--service`). */
  type: "string" | "boolean";
  /** Its value when absent. */
  default?: string | boolean;
  /** A one-letter alias (`-h`). */
  short?: string;
}

/** Options for {@link parseCli}. */
export interface ParseCliOptions<T extends Record<string, CliOption>> {
  /** The options the script takes, by long name. */
  options: T;
  /** Whether bare words (a command, a tool's name) are allowed. @default false */
  positionals?: boolean;
}

type CliValue<O extends CliOption> = O["type"] extends "boolean" ? boolean : string;

/** The parsed values by option name: present when given or defaulted, else optional. */
export type CliValues<T extends Record<string, CliOption>> =
  & { [K in keyof T as T[K] extends { default: unknown } ? K : never]: CliValue<T[K]> }
  & { [K in keyof T as T[K] extends { default: unknown } ? never : K]?: CliValue<T[K]> };

/**
 * Reads `argv` against the options a script declares.
 *
 * @throws {UsageError} for an unknown option (naming it and the known ones), an option missing
 *   its value, a value given to a switch, or a bare word where none is taken.
 *
 * @example
 * ```ts
 * import { parseCli } from "./_cli.ts";
 * const { values } = parseCli(["--url", "http://127.0.0.1:54321"], {
 *   options: { url: { type: "string" }, help: { type: "boolean", short: "h" } },
 * });
 * values.url; // "http://127.0.0.1:54321"
 * ```
 */
export function parseCli<T extends Record<string, CliOption>>(
  argv: readonly string[],
  options: ParseCliOptions<T>,
): { values: CliValues<T>; positionals: string[] } {
  try {
    const parsed = parseArgs({
      args: [...argv],
      options: options.options,
      allowPositionals: options.positionals ?? false,
      strict: true,
    });
    // The declared types are what strict parsing gave: a string for a string, a switch's boolean.
    const values: Record<string, string | boolean | undefined> = { ...parsed.values };
    return { values: values as CliValues<T>, positionals: parsed.positionals };
  } catch (error) {
    throw new UsageError(usageMessage(error, Object.keys(options.options)));
  }
}

// node:util's own words, made short: what was wrong and what the script does take.
function usageMessage(error: unknown, known: string[]): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const option = /'([^']*)'/.exec(message)?.[1] ?? "";
  const takes = `options: ${known.map((name) => `--${name}`).join(", ")}`;
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option ${option} (${takes})`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return /argument missing/.test(message)
        ? `${option.split(" ")[0]} needs a value`
        : `${option.split(" ")[0]} takes no value`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument ${option} (${takes})`;
    default:
      return message;
  }
}

/** Options for {@link runCli}. */
export interface RunCliOptions {
  /** The script's name, the start of each error line (`chat: …`). */
  name: string;
  /** The usage text printed after a usage error. */
  usage: string;
  /** Errors that are the script's own answer (the server is down): one line, exit 1. */
  // deno-lint-ignore no-explicit-any
  expected?: ReadonlyArray<new (...args: any[]) => Error>;
}

/**
 * Runs a script's `main` and exits with its code: 2 after a {@link UsageError}
 * (its message and the usage), 1 after an expected error (its message);
 * anything else is a fault and is thrown.
 */
export async function runCli(
  main: (argv: string[]) => Promise<number>,
  options: RunCliOptions,
): Promise<never> {
  try {
    Deno.exit(await main(Deno.args));
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${options.name}: ${error.message}\n\n${options.usage}`);
      Deno.exit(2);
    }
    if (options.expected?.some((kind) => error instanceof kind)) {
      console.error(`${options.name}: ${(error as Error).message}`);
      Deno.exit(1);
    }
    throw error;
  }
}

/** What a top-level script names itself and prints after a usage error ({@link cliOrExit}). */
export interface CliIdentity {
  /** The script's name, the start of the error line. */
  name: string;
  /** The usage text. */
  usage: string;
}

/**
 * Reads a top-level script's options (scripts that do not run through
 * {@link runCli}'s `main`): `read` answers them, and a {@link UsageError} it
 * throws is printed with the usage and exits 2, as under {@link runCli}.
 */
export function cliOrExit<T>(identity: CliIdentity, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${identity.name}: ${error.message}\n\n${identity.usage}`);
    Deno.exit(2);
  }
}

/**
 * A numeric option's value, or undefined when absent.
 *
 * @throws {UsageError} when it is given and is not a finite number.
 */
export function numberOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === "" || !Number.isFinite(number)) {
    throw new UsageError(`--${name} needs a number: current value is ${JSON.stringify(value)}`);
  }
  return number;
}
