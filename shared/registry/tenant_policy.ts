/**
 * Tenant policy: which tools a tenant has switched off (or the only ones it
 * allows), its rate limits per user and per tenant, and the tools it offers
 * to anonymous callers. Stored as `orgs.tool_policy`, cached here so
 * the invoke pipeline reads it without I/O.
 *
 * @module
 */
import { z } from "zod";
import type { Queryable } from "@shared/db/types.ts";

const LimitSchema = z.strictObject({
  limit: z.int().positive().max(1_000_000_000),
  window_sec: z.int().positive().max(86_400),
});

/** A limit: `limit` calls per `window_sec` seconds, bursts up to `limit`. */
export type PolicyLimit = z.output<typeof LimitSchema>;

/**
 * A tool's limits: `per_user` for each caller, `per_tenant` for everyone in
 * the tenant together; a call needs a token from both. The older shape
 * `{limit, window_sec}` still reads as `per_tenant`. Under the key `"*"`,
 * `per_tenant` is the tenant's ceiling for every tool.
 */
const ToolLimitsSchema = z.union([
  z.strictObject({ per_user: LimitSchema.optional(), per_tenant: LimitSchema.optional() }),
  LimitSchema.transform((limit) => ({ per_user: undefined, per_tenant: limit })),
]);

/** The shape of `orgs.tool_policy`. */
export const TenantPolicySchema = z.strictObject({
  disabled_tools: z.array(z.string()).default([]),
  enabled_tools: z.array(z.string()).nullable().default(null),
  rate_limits: z.record(z.string(), ToolLimitsSchema).default({}),
  /** Tools anonymous callers (the anon key) may list and call when they name this tenant. */
  public_tools: z.array(z.string()).default([]),
});

/** A tenant's parsed tool policy. */
export type TenantPolicy = z.output<typeof TenantPolicySchema>;

/** A tenant as the pipeline sees it. */
export interface Tenant {
  /** The org id. */
  id: string;
  /** The org slug, as `config/agent_configs.yaml` names it. */
  slug: string;
  /** The org's name as people read it (`orgs.name`). @default the slug */
  name?: string;
  /** Its tool policy; `null` when the stored policy is malformed (every tool is refused). */
  policy: TenantPolicy | null;
  /** Who it is to the people it serves (brand, country, currency, languages). @default none */
  profile?: TenantProfile;
}

/** What a tenant's agents speak as and where (`orgs` brand columns). */
export interface TenantProfile {
  /** The name its agents speak as (`orgs.brand_name`, else `orgs.name`). */
  brand: string;
  /** ISO 3166-1 alpha-2 country, when set. */
  country?: string;
  /** IANA time zone. */
  timeZone: string;
  /** ISO 4217 currency of its prices, when set. */
  currency?: string;
  /** The languages it serves, its default first. */
  languages: string[];
  /** Whether it is paid by MoMo (`orgs.momo_merchant_code` or `momo_merchant_phone` set). */
  takesMomo?: boolean;
}

/**
 * A business WhatsApp number (`public.tenant_whatsapp_numbers`): Meta's
 * phone-number id, its tenant and the names of the secrets (environment
 * variables) that hold its access token and app secret.
 */
export interface TenantNumber {
  /** Meta's phone-number id (not the phone number). */
  phoneNumberId: string;
  /** The org id of the tenant that owns it. */
  orgId: string;
  /** The number as people dial it, when recorded. */
  displayNumber?: string;
  /** The variable holding its Graph API access token. */
  tokenSecretName: string;
  /** The variable holding its Meta app's secret (signs webhooks). */
  appSecretName: string;
}

/** Parses a stored policy; `null` (fail closed) when it is malformed. */
export function parseTenantPolicy(raw: unknown): TenantPolicy | null {
  const parsed = TenantPolicySchema.safeParse(raw ?? {});
  return parsed.success ? parsed.data : null;
}

/** What {@link policyAllows} needs to know about the tool besides its name. */
export interface PolicyToolOptions {
  /**
   * The tool is the tenant's own (generated from an API its staff registered): `enabled_tools`
   * lists the platform's tools it uses, so its own are on unless `disabled_tools` names them.
   * @default false
   */
  ownTool?: boolean;
}

/**
 * Whether a policy lets the tenant use a tool: not in `disabled_tools`, and in
 * `enabled_tools` when the policy has that allowlist (a platform tool).
 */
export function policyAllows(
  policy: TenantPolicy | null,
  tool: string,
  options: PolicyToolOptions = {},
): boolean {
  if (!policy) return false;
  if (policy.disabled_tools.includes(tool)) return false;
  return policy.enabled_tools === null || options.ownTool === true ||
    policy.enabled_tools.includes(tool);
}

/** Whether a policy offers a tool to anonymous callers (never when the tool is off). */
export function policyIsPublic(
  policy: TenantPolicy | null,
  tool: string,
  options: PolicyToolOptions = {},
): boolean {
  return policy !== null && policyAllows(policy, tool, options) &&
    policy.public_tools.includes(tool);
}

/** Options for a {@link TenantDirectory} that keeps itself fresh. */
export interface TenantDirectoryOptions {
  /** Where tenants are read from (`orgs`, `tenant_whatsapp_numbers`). @default none: only `set` */
  source?: Queryable;
  /**
   * How old a load may be before {@link TenantDirectory.fresh} reads the
   * tenants again: a number or brand an operator changes serves within this
   * long, without a restart. @default 5000
   */
  maxAgeMs?: number;
  /** The clock ages are read on (the platform's). @default `Date.now` */
  now?: () => number;
  /** Hears the slug of each tenant whose stored policy is malformed (it fails closed). */
  onInvalid?: (slug: string) => void;
  /** Hears a reload that failed (the tenants loaded before stay). */
  onLoadFailed?: (error: unknown) => void;
}

/**
 * The tenants the process knows, by id and by slug, and their business
 * numbers. Built with a `source`, it is live: {@link fresh} reloads it when
 * the last load is older than `maxAgeMs`, so callers that await it before a
 * lookup see rows an operator added or changed seconds ago.
 */
export class TenantDirectory {
  #byId = new Map<string, Tenant>();
  #bySlug = new Map<string, Tenant>();
  #numbers = new Map<string, TenantNumber>();
  readonly #options: TenantDirectoryOptions;
  #loadedAt = -Infinity;
  #loading: Promise<void> | null = null;

  /** A directory; with `options.source`, one that {@link fresh} keeps current. */
  constructor(options: TenantDirectoryOptions = {}) {
    const maxAgeMs = options.maxAgeMs ?? 5_000;
    if (!(maxAgeMs >= 0)) {
      throw new RangeError(
        `Cannot create the tenant directory as maxAgeMs must be at least 0: current value is ${maxAgeMs}`,
      );
    }
    this.#options = { ...options, maxAgeMs };
  }

  /** Adds or replaces a tenant. */
  set(tenant: Tenant): void {
    const previous = this.#byId.get(tenant.id);
    if (previous) this.#bySlug.delete(previous.slug);
    this.#byId.set(tenant.id, tenant);
    this.#bySlug.set(tenant.slug, tenant);
  }

  /** The tenant with this org id. */
  get(id: string): Tenant | undefined {
    return this.#byId.get(id);
  }

  /** The tenant with this slug. */
  bySlug(slug: string): Tenant | undefined {
    return this.#bySlug.get(slug);
  }

  /** Every known tenant. */
  list(): Tenant[] {
    return [...this.#byId.values()];
  }

  /** Adds or replaces a business number. */
  setNumber(number: TenantNumber): void {
    this.#numbers.set(number.phoneNumberId, number);
  }

  /** The business number with this Meta phone-number id, and so its tenant. */
  byPhoneNumberId(phoneNumberId: string): TenantNumber | undefined {
    return this.#numbers.get(phoneNumberId);
  }

  /** Every known business number (of `orgId` only, when given). */
  numbers(orgId?: string): TenantNumber[] {
    const all = [...this.#numbers.values()];
    return orgId === undefined ? all : all.filter((number) => number.orgId === orgId);
  }

  /**
   * Reloads from the source when the last load is older than `maxAgeMs` (by
   * the directory's clock); at once otherwise. Concurrent callers share one
   * load. A failed reload is reported to `onLoadFailed` and the tenants
   * already loaded keep serving until the next try, `maxAgeMs` later.
   * Without a source it does nothing.
   */
  fresh(): Promise<void> {
    const source = this.#options.source;
    if (!source) return Promise.resolve();
    if (this.#loading) return this.#loading;
    const now = this.#now();
    if (now - this.#loadedAt < this.#options.maxAgeMs!) return Promise.resolve();
    this.#loading = this.load(source, this.#options.onInvalid)
      .catch((error) => {
        // Tried now: the next try waits a full age, so a database that is down is not hammered.
        this.#loadedAt = now;
        this.#options.onLoadFailed?.(error);
      })
      .finally(() => this.#loading = null);
    return this.#loading;
  }

  /**
   * Loads every org, its name and its policy, and every business number (as
   * the connecting role), replacing what the directory held: an org or a
   * number removed since is gone, a number moved to another tenant has its
   * new owner. Malformed policies are reported through `onInvalid` and fail
   * closed.
   */
  async load(
    db: Queryable,
    onInvalid: (slug: string) => void = () => {},
  ): Promise<void> {
    const startedAt = this.#now();
    const rows = await db.query<OrgRow>(
      `select id, slug, name, tool_policy, coalesce(brand_name, name) as brand, country,
              time_zone, currency, languages,
              (momo_merchant_code is not null or momo_merchant_phone is not null) as takes_momo
       from public.orgs`,
    );
    const numbers = await db.query<NumberRow>(
      `select phone_number_id, org_id, display_number, token_secret_name, app_secret_name
       from public.tenant_whatsapp_numbers`,
    );
    // Built aside and swapped in at once: a lookup never sees half a load.
    const byId = new Map<string, Tenant>();
    const bySlug = new Map<string, Tenant>();
    for (const row of rows) {
      const policy = parseTenantPolicy(row.tool_policy);
      if (!policy) onInvalid(row.slug);
      const tenant: Tenant = {
        id: row.id,
        slug: row.slug,
        name: row.name,
        policy,
        profile: {
          brand: row.brand,
          country: row.country ?? undefined,
          timeZone: row.time_zone,
          currency: row.currency ?? undefined,
          languages: row.languages,
          takesMomo: row.takes_momo,
        },
      };
      byId.set(tenant.id, tenant);
      bySlug.set(tenant.slug, tenant);
    }
    const numberMap = new Map<string, TenantNumber>();
    for (const row of numbers) {
      numberMap.set(row.phone_number_id, {
        phoneNumberId: row.phone_number_id,
        orgId: row.org_id,
        displayNumber: row.display_number ?? undefined,
        tokenSecretName: row.token_secret_name,
        appSecretName: row.app_secret_name,
      });
    }
    this.#byId = byId;
    this.#bySlug = bySlug;
    this.#numbers = numberMap;
    this.#loadedAt = Math.max(this.#loadedAt, startedAt);
  }

  #now(): number {
    return this.#options.now?.() ?? Date.now();
  }
}

interface OrgRow {
  id: string;
  slug: string;
  name: string;
  tool_policy: unknown;
  brand: string;
  country: string | null;
  time_zone: string;
  currency: string | null;
  languages: string[];
  takes_momo: boolean;
}

interface NumberRow {
  phone_number_id: string;
  org_id: string;
  display_number: string | null;
  token_secret_name: string;
  app_secret_name: string;
}
