/**
 * Structured logs: one JSON object per line on stderr, so details (stack
 * traces, SQL errors) reach operators and never a caller.
 *
 * @module
 */

/** Fields attached to a log line. */
export type LogFields = Record<string, unknown>;

/** A structured logger. */
export interface Logger {
  /** Routine events. */
  info(event: string, fields?: LogFields): void;
  /** Something a caller did wrong or a degraded dependency. */
  warn(event: string, fields?: LogFields): void;
  /** Our failure. */
  error(event: string, fields?: LogFields): void;
}

/** Options for {@link createLogger}. */
export interface LoggerOptions {
  /** Where lines go. @default console.error */
  write?: (line: string) => void;
  /** Drop `info` lines. @default false */
  quiet?: boolean;
}

/** A logger writing JSON lines. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const write = options.write ?? ((line: string) => console.error(line));
  const emit = (level: string) => (event: string, fields: LogFields = {}) =>
    write(JSON.stringify({ level, event, time: new Date().toISOString(), ...fields }));
  return {
    info: options.quiet ? () => {} : emit("info"),
    warn: emit("warn"),
    error: emit("error"),
  };
}

/** A logger that keeps lines in memory (tests read them). */
export function memoryLogger(): Logger & {
  lines: Array<LogFields & { level: string; event: string }>;
} {
  const lines: Array<LogFields & { level: string; event: string }> = [];
  const push = (level: string) => (event: string, fields: LogFields = {}) =>
    lines.push({ level, event, ...fields });
  return { lines, info: push("info"), warn: push("warn"), error: push("error") };
}
