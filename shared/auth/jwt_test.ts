import assert from "node:assert/strict";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { createTokenVerifier, signDevToken } from "./jwt.ts";

const SECRET = "a-development-secret-of-at-least-32-chars";

Deno.test("createTokenVerifier() accepts its own HS256 tokens and refuses others", async () => {
  const verify = createTokenVerifier({ hs256Secret: SECRET });
  const token = await signDevToken(SECRET, { userId: "00000000-0000-4000-8000-000000000001" });
  assert.deepEqual(
    { sub: (await verify(token))?.sub, role: (await verify(token))?.role },
    { sub: "00000000-0000-4000-8000-000000000001", role: "authenticated" },
  );
  assert.equal(await verify(await signDevToken(`${SECRET}x`, { userId: "u" })), null);
  assert.equal(await verify("not-a-token"), null);
  const expired = await signDevToken(SECRET, { userId: "u", ttlSec: -10 });
  assert.equal(await verify(expired), null);
});

Deno.test("createTokenVerifier() refuses unknown roles and users without a subject", async () => {
  const verify = createTokenVerifier({ hs256Secret: SECRET });
  const key = new TextEncoder().encode(SECRET);
  const sign = (claims: Record<string, unknown>) =>
    new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setExpirationTime("1h").sign(key);
  assert.equal(await verify(await sign({ role: "postgres", sub: "u" })), null);
  assert.equal(await verify(await sign({ role: "authenticated" })), null);
  assert.equal((await verify(await sign({ role: "service_role" })))?.role, "service_role");
  // A subject the database cannot take as a user id (auth.uid() casts it) is no caller.
  for (const sub of ["u", "a\u0000b", "00000000-0000-4000-8000-000000000001\u0000", "x'--"]) {
    assert.equal(await verify(await sign({ role: "authenticated", sub })), null, sub);
  }
});

Deno.test("createTokenVerifier() verifies asymmetric tokens against a JWKS, as Supabase signs them", async () => {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256", use: "sig" };
  const verify = createTokenVerifier({ jwks: { keys: [jwk] } });
  const token = await new SignJWT({ role: "authenticated" })
    .setProtectedHeader({ alg: "ES256", kid: "k1" })
    .setSubject("00000000-0000-4000-8000-000000000002")
    .setExpirationTime("1h")
    .sign(privateKey);
  assert.equal((await verify(token))?.sub, "00000000-0000-4000-8000-000000000002");
  // An HS256 token is not accepted by a JWKS-only verifier.
  assert.equal(await verify(await signDevToken(SECRET, { userId: "u" })), null);
});
