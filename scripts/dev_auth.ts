/**
 * Supabase Auth's password grant, emulated by the dev server so the Admin
 * Inbox signs in locally exactly as it does against a Supabase project:
 * `POST /auth/v1/token?grant_type=password` with `{email|phone, password}`.
 * Passwords are checked against `auth.users.encrypted_password` (bcrypt),
 * as GoTrue stores them.
 *
 * @module
 */
import { signDevToken } from "@shared/auth/jwt.ts";
import type { Database } from "@shared/db/types.ts";

const TTL_SEC = 3600;

function invalid(): Response {
  return Response.json(
    { error: "invalid_grant", error_description: "Invalid login credentials" },
    { status: 400 },
  );
}

/** Answers a password grant with a locally signed access token. */
export async function passwordGrant(
  db: Database,
  jwtSecret: string,
  request: Request,
): Promise<Response> {
  if (new URL(request.url).searchParams.get("grant_type") !== "password") {
    return Response.json({ error: "unsupported_grant_type" }, { status: 400 });
  }
  let body: { email?: unknown; phone?: unknown; password?: unknown };
  try {
    body = await request.json();
  } catch {
    return invalid();
  }
  const email = typeof body.email === "string" ? body.email.trim().toLowerCase() : null;
  const phone = typeof body.phone === "string" ? body.phone.replace(/[^\d]/g, "") : null;
  const password = typeof body.password === "string" ? body.password : "";
  if ((!email && !phone) || !password || password.length > 200) return invalid();
  const [user] = await db.query<{ id: string; email: string | null; phone: string | null }>(
    `select id, email, phone from auth.users
     where (($1::text is not null and lower(email) = $1) or ($2::text is not null and phone = $2))
       and encrypted_password is not null
       and encrypted_password = crypt($3, encrypted_password)
     limit 1`,
    [email, phone, password],
  );
  if (!user) return invalid();
  const accessToken = await signDevToken(jwtSecret, {
    userId: user.id,
    claims: { email: user.email ?? undefined, phone: user.phone ?? undefined },
    ttlSec: TTL_SEC,
  });
  return Response.json({
    access_token: accessToken,
    token_type: "bearer",
    expires_in: TTL_SEC,
    user: { id: user.id, email: user.email, phone: user.phone },
  });
}
