/**
 * `deno task tools …`: list and export the tools, issue a local development
 * token for a seeded user, and call a tool on the running dev server.
 *
 * ```
 * deno task tools list [--agent ID]
 * deno task tools export --format jsonschema|openai|anthropic|gemini|mcp [--agent ID]
 * deno task tools users        # who answers for which shop, venue and vehicle
 * deno task tools token --phone +250788000001 | --user UUID | --service
 * deno task tools call TOOL --args '{…}' --phone +250788000001 [--org SLUG] [--agent ID]
 *                          [--key KEY] [--confirm TOKEN] [--url http://127.0.0.1:54321]
 * deno task tools forwarder add --org SLUG --name LABEL | list --org SLUG
 *                          | rotate DEVICE_ID | revoke DEVICE_ID
 *                          [--token KEY | --phone E164] [--url BASE]
 * ```
 *
 * `forwarder` manages the SMS forwarders of an org (docs/payments.md): `add`
 * and `rotate` print the device's secret, once. Locally it acts as the service
 * role of the dev server; deployed, pass `--url https://<project>.supabase.co`
 * and `--token` with the service-role key (or a staff member's token).
 *
 * The CLI reads the same environment as the dev server: `PORT` (the default
 * `--url` is `http://127.0.0.1:$PORT`), `EASYMO_DATA_DIR` and `EASYMO_SECRET`.
 *
 * @module
 */
import { parseCli, runCli, UsageError } from "./_cli.ts";
import { signDevToken } from "@shared/auth/jwt.ts";
import {
  EXPORT_FORMATS,
  type ExportFormat,
  exportTools,
  ToolExportError,
} from "@shared/export/mod.ts";
import { loadAgentConfig } from "@shared/registry/agent_config_file.ts";
import { ToolRegistry } from "@shared/registry/registry.ts";
import { AGENT_CONFIG_URL, PACKS, platformTools } from "@shared/platform/platform.ts";
import { packAgents } from "@shared/registry/pack.ts";
import { devJwtSecret } from "@shared/runtime/secrets.ts";
import { type ForwarderAction, NotPaymentsError, runForwarderCommand } from "./_forwarder_cli.ts";
import {
  type DevHolding,
  devServerUrl,
  type DevUser,
  readDevHoldings,
  readDevSecret,
  readDevUsers,
  unreachableHint,
} from "./_data_root.ts";

const USAGE = `usage:
  deno task tools list [--agent ID]
  deno task tools export --format ${EXPORT_FORMATS.join("|")} [--agent ID]
  deno task tools users          (each user's orgs, shops, venues and vehicles)
  deno task tools token (--phone E164 | --user UUID | --service)
  deno task tools call TOOL [--args JSON] (--phone E164 | --token JWT) [--org SLUG] [--agent ID]
                            [--key KEY] [--confirm TOKEN] [--url BASE]
  deno task tools forwarder (add --org SLUG --name LABEL | list --org SLUG
                             | rotate DEVICE_ID | revoke DEVICE_ID)
                            [--token KEY | --phone E164] [--url BASE]
    add and rotate print the device's secret once; without --token or --phone the
    dev server's service role acts (deployed: --token <service-role key>)
  --url defaults to http://127.0.0.1:$PORT (54321 when PORT is unset), as deno task dev listens`;

/** The dev server did not answer: exit code 1 with a one-line hint. */
class UnreachableError extends Error {}

async function registryAndAgents() {
  const registry = new ToolRegistry();
  for (const tool of platformTools()) registry.register(tool);
  const agents = await loadAgentConfig(AGENT_CONFIG_URL, {
    knownTools: registry.list().map((tool) => tool.name),
    declared: packAgents(PACKS),
  });
  return { registry, agents };
}

async function toolsFor(agentId: string | undefined) {
  const { registry, agents } = await registryAndAgents();
  // The CLI speaks for the first tenant of the agent file (the dev server's).
  const tenant = agents.tenants()[0];
  if (agentId && !agents.get(tenant, agentId)) throw new UsageError(`unknown agent "${agentId}"`);
  return {
    tools: registry.list().filter((tool) => !agentId || agents.allows(tenant, agentId, tool.name)),
    agents,
  };
}

async function devUsers(): Promise<DevUser[]> {
  const users = await readDevUsers();
  if (!users) {
    throw new UsageError("no seeded users found: start the dev server once (deno task dev)");
  }
  return users;
}

/** `shop    Pharmacie Kacyiru (pharmacy, Kacyiru) · easymo`; a vehicle is named by its plate. */
function holdingLine(holding: DevHolding): string {
  return `${holding.kind.padEnd(7)} ${holding.name} (${holding.detail}) · ${holding.org}`;
}

/**
 * What `tools users` prints: each seeded user (number, id, name, org roles)
 * with the shops, venues and vehicles they answer for, then the businesses
 * whose WhatsApp number belongs to no user (still playable with
 * `deno task chat --phone`).
 */
export function usersListing(users: readonly DevUser[], holdings: readonly DevHolding[]): string {
  const mine = (user: DevUser) =>
    holdings.filter((h) => h.owner_user_id === user.id || (h.phone && h.phone === user.phone));
  const lines = [
    "Play one: deno task chat --phone NUMBER   (a token: deno task tools token --phone NUMBER)",
  ];
  const width = Math.max(16, ...users.map((user) => user.display_name.length));
  for (const user of users) {
    const orgs = user.orgs.map((o) => `${o.org}:${o.role}`).join(", ");
    lines.push(`${user.phone}  ${user.id}  ${user.display_name.padEnd(width)}  ${orgs}`);
    for (const holding of mine(user)) lines.push(`    ${holdingLine(holding)}`);
  }
  const owned = new Set(users.flatMap(mine));
  const others = holdings.filter((holding) => !owned.has(holding));
  if (others.length) {
    lines.push("", "Businesses with no user account (play their number, if any):");
    for (const holding of others) {
      lines.push(`${(holding.phone ?? "(no number)").padEnd(14)} ${holdingLine(holding)}`);
    }
  }
  return lines.join("\n");
}

async function devSecret(): Promise<string> {
  const secret = await readDevSecret();
  if (!secret) {
    throw new UsageError("no dev secret found: start the dev server once (deno task dev)");
  }
  return secret;
}

async function tokenFor(flags: { phone?: string; user?: string; service?: boolean }) {
  const secret = devJwtSecret(await devSecret());
  if (flags.service) return await signDevToken(secret, { role: "service_role" });
  const users = await devUsers();
  const user = users.find((u) => u.phone === flags.phone || u.id === flags.user);
  if (!user) throw new UsageError(`no seeded user ${flags.phone ?? flags.user ?? ""}`);
  return await signDevToken(secret, { userId: user.id, claims: { phone: user.phone } });
}

function forwarderAction(
  action: string | undefined,
  deviceId: string | undefined,
  flags: { org?: string; name?: string },
): ForwarderAction {
  switch (action) {
    case "add":
      if (!flags.org || !flags.name?.trim()) {
        throw new UsageError("forwarder add needs --org SLUG and --name LABEL");
      }
      return { action, org: flags.org, name: flags.name };
    case "list":
      if (!flags.org) throw new UsageError("forwarder list needs --org SLUG");
      return { action, org: flags.org };
    case "rotate":
    case "revoke":
      if (!deviceId) throw new UsageError(`forwarder ${action} needs the DEVICE_ID`);
      return { action, deviceId };
    default:
      throw new UsageError(`forwarder needs add, list, rotate or revoke, not "${action ?? ""}"`);
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseCli(argv, {
    positionals: true,
    options: {
      agent: { type: "string" },
      format: { type: "string" },
      phone: { type: "string" },
      user: { type: "string" },
      service: { type: "boolean" },
      token: { type: "string" },
      org: { type: "string" },
      args: { type: "string" },
      key: { type: "string" },
      confirm: { type: "string" },
      name: { type: "string" },
      url: { type: "string", default: devServerUrl() },
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, toolName] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return 0;
  }
  switch (command) {
    case "list": {
      const { tools, agents } = await toolsFor(values.agent);
      for (const tool of tools) {
        const users = agents.list().filter((a) => agents.allows(a.tenant, a.id, tool.name))
          .map((a) => a.tenant === agents.tenants()[0] ? a.id : `${a.tenant}/${a.id}`);
        console.log(
          `${tool.name.padEnd(18)} ${tool.category.padEnd(10)} ${tool.sideEffects.padEnd(17)} ` +
            `auth=${tool.auth.padEnd(7)} agents: ${users.join(", ")}`,
        );
      }
      for (const planned of agents.plannedTools) {
        console.log(`${planned.name} (planned) — ${planned.description}`);
      }
      return 0;
    }
    case "export": {
      const format = (values.format ?? "jsonschema") as ExportFormat;
      if (!EXPORT_FORMATS.includes(format)) throw new UsageError(`unknown format "${format}"`);
      const { tools } = await toolsFor(values.agent);
      // Every tool or none: a tool the format cannot carry fails the command, by name.
      const exported = exportTools(tools, format);
      console.log(JSON.stringify(exported.tools, null, 2));
      return 0;
    }
    case "users": {
      console.log(usersListing(await devUsers(), await readDevHoldings() ?? []));
      return 0;
    }
    case "token": {
      console.log(await tokenFor(values));
      return 0;
    }
    case "call": {
      if (!toolName) throw new UsageError("name the tool to call");
      const token = values.token ?? await tokenFor(values);
      let args: unknown = {};
      try {
        args = values.args ? JSON.parse(values.args) : {};
      } catch {
        throw new UsageError("--args is not valid JSON");
      }
      const base = values.url.replace(/\/+$/, "");
      if (!/^https?:\/\/[^/]+$/.test(base)) throw new UsageError(`not a base URL: ${values.url}`);
      const response = await fetch(`${base}/functions/v1/tools`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          ...(values.org ? { "x-org-id": values.org } : {}),
          ...(values.key ? { "idempotency-key": values.key } : {}),
        },
        body: JSON.stringify({
          tool: toolName,
          args,
          agent_id: values.agent,
          confirmation: values.confirm,
        }),
      }).catch(() => {
        throw new UnreachableError(unreachableHint(base));
      });
      const result = await response.json().catch(() => null);
      if (!result || typeof result !== "object" || !("ok" in result)) {
        throw new UnreachableError(
          `${base} answered HTTP ${response.status} without a tool result: is it the dev server?`,
        );
      }
      console.log(JSON.stringify(result, null, 2));
      return result.ok ? 0 : 1;
    }
    case "forwarder": {
      const action = forwarderAction(toolName, positionals[2], values);
      const token = values.token ??
        await tokenFor(values.phone || values.user ? values : { service: true });
      const base = values.url.replace(/\/+$/, "");
      if (!/^https?:\/\/[^/]+$/.test(base)) throw new UsageError(`not a base URL: ${values.url}`);
      try {
        return await runForwarderCommand(action, { url: base, token });
      } catch (error) {
        if (error instanceof NotPaymentsError) throw new UnreachableError(error.message);
        if (error instanceof TypeError) throw new UnreachableError(unreachableHint(base));
        throw error;
      }
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

if (import.meta.main) {
  await runCli(main, {
    name: "tools",
    usage: USAGE,
    expected: [UnreachableError, ToolExportError],
  });
}
