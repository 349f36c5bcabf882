/**
 * `deno task tools forwarder …`: the operator's side of the SMS-forwarder
 * registry, over the payments function's `/payments/forwarders` (the dev
 * server's, or a deployed project's with `--url` and `--token`).
 *
 * @module
 */

/** What the forwarder command does. */
export type ForwarderAction =
  | { action: "add"; org: string; name: string }
  | { action: "list"; org: string }
  | { action: "rotate"; deviceId: string }
  | { action: "revoke"; deviceId: string };

/** Options for {@link runForwarderCommand}. */
export interface ForwarderCommandOptions {
  /** Base URL, e.g. `http://127.0.0.1:54321` or `https://<project>.supabase.co`. */
  url: string;
  /** A service-role key or a staff member's token. */
  token: string;
  /** Where lines go. @default console.log */
  print?: (line: string) => void;
}

/** The payments function answered something that is not its contract (a wrong URL). */
export class NotPaymentsError extends Error {}

interface Forwarder {
  device_id: string;
  org_id: string;
  label: string | null;
  created_at: string;
  key_issued_at: string | null;
  revoked_at: string | null;
  secret?: string;
}

/**
 * Runs one forwarder command; returns the exit code (0 done, 1 refused).
 *
 * @throws {NotPaymentsError} When the URL does not answer as the payments function.
 * @throws {TypeError} When nothing answers at the URL (fetch's error).
 */
export async function runForwarderCommand(
  command: ForwarderAction,
  options: ForwarderCommandOptions,
): Promise<number> {
  const print = options.print ?? console.log;
  const base = `${options.url.replace(/\/+$/, "")}/functions/v1/payments/forwarders`;
  const request: [string, RequestInit] = command.action === "list"
    ? [`${base}?${new URLSearchParams({ org: command.org })}`, { method: "GET" }]
    : command.action === "add"
    ? [base, { method: "POST", body: JSON.stringify({ org: command.org, label: command.name }) }]
    : [`${base}/${encodeURIComponent(command.deviceId)}/${command.action}`, {
      method: "POST",
      body: "{}",
    }];
  const response = await fetch(request[0], {
    ...request[1],
    headers: { authorization: `Bearer ${options.token}`, "content-type": "application/json" },
  });
  const result = await response.json().catch(() => null);
  if (!result || typeof result !== "object" || !("ok" in result)) {
    throw new NotPaymentsError(
      `${options.url} answered HTTP ${response.status} without a result: is it the payments function's host?`,
    );
  }
  if (!result.ok) {
    print(`✗ ${result.error.code} (HTTP ${response.status}): ${result.error.msg}`);
    return 1;
  }
  if (command.action === "list") {
    for (const device of result.data as Forwarder[]) print(describe(device));
    if (result.data.length === 0) print(`no forwarders registered for ${command.org}`);
    return 0;
  }
  const device = result.data as Forwarder;
  if (command.action === "revoke") {
    print(`revoked ${device.device_id} at ${device.revoked_at}: nothing it signs is accepted now`);
    return 0;
  }
  print(`device_id: ${device.device_id}`);
  print(`secret:    ${device.secret}`);
  print(
    `${command.action === "add" ? "Registered" : "Rotated (the old secret no longer works)"}: ${
      describe(device)
    }`,
  );
  print(
    "Enter both in the forwarder app now: the secret is not shown again (rotate it if lost). " +
      "It signs each POST /functions/v1/payments/sms with X-EasyMO-Device: <device_id> and " +
      'X-EasyMO-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>.',
  );
  return 0;
}

function describe(device: Forwarder): string {
  const state = device.revoked_at
    ? `revoked ${device.revoked_at}`
    : device.key_issued_at
    ? `key issued ${device.key_issued_at}`
    : "no key (rotate to issue one)";
  return `${device.device_id}  ${
    JSON.stringify(device.label ?? "")
  }  org ${device.org_id}  ${state}`;
}
