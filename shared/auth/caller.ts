/**
 * Resolves who is calling: verifies the bearer token, then checks that the
 * user belongs to the org they act in, reading their memberships as
 * themselves (so RLS, not this code, decides what they can see).
 *
 * Anonymous callers (the anon key, or no user in the token) get nothing
 * unless they name a tenant that made some tools public; an unknown tenant
 * and one without public tools give the same answer, so tenant slugs cannot
 * be enumerated. Likewise a user naming an org they do not belong to gets
 * the answer of an org that does not exist.
 *
 * The one place a bearer token becomes a caller and a caller's standing is
 * checked: endpoints that need more than a signed-in member (the Admin
 * Inbox's staff, a sweep's service role) say so with a
 * {@link CallerRequirement} rather than checking claims or memberships
 * themselves.
 *
 * @module
 */
import { fail, type ToolFail } from "@shared/contract/mod.ts";
import type { Database, JwtClaims } from "@shared/db/types.ts";
import {
  policyIsPublic,
  type Tenant,
  type TenantDirectory,
} from "@shared/registry/tenant_policy.ts";
import type { TokenVerifier } from "./jwt.ts";

/** The message of the AUTH_ERROR for a missing or invalid token (answered with 401). */
export const SIGN_IN_REQUIRED = "Sign in required";

/** The membership roles that make a user the org's staff (`auth: "staff"` tools, staff routes). */
export const STAFF_ROLES: readonly string[] = ["staff", "admin"];

/** A user's membership of one org. */
export interface Membership {
  /** The org id. */
  org_id: string;
  /** customer, vendor, staff or admin. */
  role: string;
}

/** Options for {@link createCallerResolver}. */
export interface CallerResolverOptions {
  /** The database (memberships are read as the caller). */
  db: Database;
  /** Verifies bearer tokens. */
  verify: TokenVerifier;
  /** Known tenants; reloaded once when an org is not found. */
  tenants: TenantDirectory;
  /** How long memberships are cached. @default 30000 */
  cacheMs?: number;
  /**
   * Least time between two reloads of the tenants for an org nobody knows,
   * so requests naming made-up orgs cannot make every call reload. @default 5000
   */
  reloadIntervalMs?: number;
}

/** The verified identity behind a call (from a JWT, never from a request body). */
export interface Caller {
  /** Claims applied to the transaction: `sub` and `role` at least. */
  claims: JwtClaims;
  /** The org the call acts in; membership is checked where the caller is resolved. */
  org_id: string | null;
  /**
   * The user's memberships, when the caller was resolved from a token (the
   * resolver read them as the user); absent for callers made in process.
   */
  memberships?: readonly Membership[];
}

/** A resolved caller with their memberships. */
export interface ResolvedCaller extends Caller {
  /** Every org the user belongs to (empty for service callers). */
  memberships: Membership[];
}

/**
 * Whether `caller` may see the org's staff tools: the service role, or a
 * user whose memberships (as resolved) make them staff of the org they act
 * in. A caller whose memberships were never read is not.
 */
export function seesStaffTools(caller: Caller): boolean {
  if (caller.claims.role === "service_role") return true;
  return caller.claims.role === "authenticated" && !!caller.claims.sub &&
    (caller.memberships ?? []).some((m) =>
      m.org_id === caller.org_id && STAFF_ROLES.includes(m.role)
    );
}

/** What an endpoint requires of its caller beyond a valid token. */
export type CallerRequirement =
  /** The service role only (webhook sweeps, wake-ups); anyone else is asked to sign in. */
  | { service: true }
  /**
   * A user holding one of `roles` in the org they act in (named by id or
   * slug, else the one org where they hold such a role); anyone else gets
   * AUTH_ERROR with `refusal`.
   */
  | { roles: readonly string[]; refusal: string };

/**
 * Resolves callers from an `Authorization` header and a requested org (id
 * or slug), optionally requiring a standing.
 */
export type CallerResolver = (
  authorization: string | null | undefined,
  requestedOrg: string | null | undefined,
  requirement?: CallerRequirement,
) => Promise<ResolvedCaller | ToolFail>;

/** Builds a resolver. */
export function createCallerResolver(options: CallerResolverOptions): CallerResolver {
  const { db, verify, tenants } = options;
  const cacheMs = options.cacheMs ?? 30_000;
  const reloadIntervalMs = options.reloadIntervalMs ?? 5_000;
  let lastReload = -Infinity;
  let reloading: Promise<void> | null = null;
  const cache = new Map<string, { at: number; memberships: Membership[] }>();

  async function membershipsOf(claims: JwtClaims): Promise<Membership[]> {
    const cached = cache.get(claims.sub!);
    if (cached && Date.now() - cached.at < cacheMs) return cached.memberships;
    const memberships = await db.asCaller(claims, (tx) =>
      tx.query<Membership>(
        "select org_id, role from public.org_members where user_id = (select auth.uid())",
      ));
    cache.set(claims.sub!, { at: Date.now(), memberships });
    return memberships;
  }

  async function findTenant(ref: string): Promise<Tenant | null> {
    // A live directory reloads when its last load is old: a policy changed a moment ago holds.
    await tenants.fresh();
    const lookup = () => tenants.get(ref) ?? tenants.bySlug(ref) ?? null;
    const found = lookup();
    if (found) return found;
    if (!reloading && performance.now() - lastReload >= reloadIntervalMs) {
      lastReload = performance.now();
      reloading = tenants.load(db).finally(() => reloading = null);
    }
    if (reloading) await reloading;
    return lookup();
  }

  async function findOrg(ref: string): Promise<string | null> {
    return (await findTenant(ref))?.id ?? null;
  }

  // Only a tenant named explicitly, with at least one public tool, serves anonymous callers.
  async function anonymousCaller(
    claims: JwtClaims,
    requestedOrg: string | null | undefined,
  ): Promise<ResolvedCaller | ToolFail> {
    const tenant = requestedOrg ? await findTenant(requestedOrg) : null;
    const opensAny = tenant?.policy?.public_tools.some((tool) =>
      policyIsPublic(tenant.policy, tool)
    );
    if (!tenant || !opensAny) return fail("AUTH_ERROR", SIGN_IN_REQUIRED);
    return {
      claims: { ...claims, role: "anon", sub: undefined },
      org_id: tenant.id,
      memberships: [],
    };
  }

  // Staff endpoints: the org must be one where the user holds a required role.
  async function withRole(
    caller: ResolvedCaller,
    requestedOrg: string | null | undefined,
    required: { roles: readonly string[]; refusal: string },
  ): Promise<ResolvedCaller | ToolFail> {
    const held = caller.memberships.filter((m) => required.roles.includes(m.role));
    const orgId = requestedOrg
      ? await findOrg(requestedOrg)
      : held.length === 1
      ? held[0].org_id
      : null;
    if (!orgId || !held.some((m) => m.org_id === orgId)) {
      return fail("AUTH_ERROR", required.refusal);
    }
    return { ...caller, org_id: orgId };
  }

  async function resolve(
    authorization: string | null | undefined,
    requestedOrg: string | null | undefined,
  ): Promise<ResolvedCaller | ToolFail> {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
    if (!match) return fail("AUTH_ERROR", SIGN_IN_REQUIRED);
    const claims = await verify(match[1]);
    if (!claims) return fail("AUTH_ERROR", SIGN_IN_REQUIRED);
    if (claims.role === "anon" || (claims.role === "authenticated" && !claims.sub)) {
      return await anonymousCaller(claims, requestedOrg);
    }
    const orgId = requestedOrg ? await findOrg(requestedOrg) : null;
    if (requestedOrg && !orgId) return fail("AUTH_ERROR");

    if (claims.role === "service_role") {
      return { claims, org_id: orgId, memberships: [] };
    }
    const memberships = await membershipsOf(claims);
    if (orgId) {
      if (!memberships.some((m) => m.org_id === orgId)) return fail("AUTH_ERROR");
      return { claims, org_id: orgId, memberships };
    }
    // Without an org named, a member of exactly one org acts in it.
    return { claims, org_id: memberships.length === 1 ? memberships[0].org_id : null, memberships };
  }

  return async (authorization, requestedOrg, requirement) => {
    if (!requirement) return await resolve(authorization, requestedOrg);
    if ("service" in requirement) {
      const caller = await resolve(authorization, requestedOrg);
      if ("ok" in caller || caller.claims.role !== "service_role") {
        return fail("AUTH_ERROR", SIGN_IN_REQUIRED);
      }
      return caller;
    }
    // Memberships first, the org after: a requested org the user is not staff of is refused
    // alike whether it exists or not.
    const caller = await resolve(authorization, null);
    if ("ok" in caller) return caller;
    return await withRole(caller, requestedOrg, requirement);
  };
}
