/**
 * Caller identity from a verified JWT: Supabase's when deployed (JWKS or the
 * project's HS256 secret), a locally signed one in development. Never from
 * a request body.
 *
 * @module
 */
import { createLocalJWKSet, createRemoteJWKSet, type JWTPayload, jwtVerify, SignJWT } from "jose";
import type { DbRole, JwtClaims } from "@shared/db/types.ts";
import { isUuid } from "@shared/contract/uuid.ts";

/** Verifies a bearer token and returns its claims, or null when it is not valid. */
export type TokenVerifier = (token: string) => Promise<JwtClaims | null>;

/** Where verification keys come from. */
export interface VerifierOptions {
  /** HS256 secret (local development, or Supabase's legacy JWT secret). */
  hs256Secret?: string;
  /** A JWKS document (Supabase's `SUPABASE_JWKS`). */
  jwks?: { keys: unknown[] };
  /** A JWKS URL (`<SUPABASE_URL>/auth/v1/.well-known/jwks.json`). */
  jwksUrl?: string;
  /** Expected `aud`, when set. */
  audience?: string;
}

const ROLES: ReadonlySet<string> = new Set(["anon", "authenticated", "service_role"]);

/** Turns the JWT payload into claims for the database, or null when its role is unknown. */
export function toClaims(payload: JWTPayload): JwtClaims | null {
  const role = typeof payload.role === "string" ? payload.role : "";
  if (!ROLES.has(role)) return null;
  if (role === "authenticated" && typeof payload.sub !== "string") return null;
  // auth.uid() casts the subject to uuid: any other subject would fail every fenced statement.
  if (typeof payload.sub === "string" && payload.sub !== "" && !isUuid(payload.sub)) return null;
  return { ...payload, role: role as DbRole } as JwtClaims;
}

/**
 * Builds a verifier from the keys given; tokens signed by none of them fail.
 *
 * @throws {TypeError} when no key source is given.
 */
export function createTokenVerifier(options: VerifierOptions): TokenVerifier {
  const verifiers: Array<(token: string) => Promise<JWTPayload>> = [];
  const audience = options.audience;
  if (options.hs256Secret) {
    const key = new TextEncoder().encode(options.hs256Secret);
    verifiers.push(async (token) =>
      (await jwtVerify(token, key, { algorithms: ["HS256"], audience })).payload
    );
  }
  if (options.jwks) {
    const set = createLocalJWKSet(options.jwks as Parameters<typeof createLocalJWKSet>[0]);
    verifiers.push(async (token) => (await jwtVerify(token, set, { audience })).payload);
  }
  if (options.jwksUrl) {
    const set = createRemoteJWKSet(new URL(options.jwksUrl));
    verifiers.push(async (token) => (await jwtVerify(token, set, { audience })).payload);
  }
  if (!verifiers.length) {
    throw new TypeError("Cannot create token verifier as no key source is configured");
  }
  return async (token) => {
    for (const verify of verifiers) {
      try {
        return toClaims(await verify(token));
      } catch {
        // Try the next key source.
      }
    }
    return null;
  };
}

/** Options for {@link signDevToken}. */
export interface DevTokenOptions {
  /** The user id (`sub`). Omit with role `service_role`. */
  userId?: string;
  /** @default "authenticated" */
  role?: DbRole;
  /** Extra claims (phone, email). */
  claims?: Record<string, unknown>;
  /** Lifetime in seconds. @default 3600 */
  ttlSec?: number;
}

/** Signs an HS256 token the way Supabase Auth shapes them (local development). */
export async function signDevToken(secret: string, options: DevTokenOptions): Promise<string> {
  const jwt = new SignJWT({ role: options.role ?? "authenticated", ...options.claims })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt()
    .setIssuer("easymo-dev")
    .setAudience("authenticated")
    .setExpirationTime(`${options.ttlSec ?? 3600}s`);
  if (options.userId) jwt.setSubject(options.userId);
  return await jwt.sign(new TextEncoder().encode(secret));
}
