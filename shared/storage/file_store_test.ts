import assert from "node:assert/strict";
import { sendChunked } from "@testing/raw_http.ts";
import { ToolFailure } from "@shared/contract/mod.ts";
import { dbTest } from "@testing/db.ts";
import { ORG, USER } from "@testing/seed.ts";
import { startTestStorage } from "@testing/storage.ts";
import { storageErrorCode, unconfiguredFileStore } from "./file_store.ts";
import { sweepExpiredFiles } from "./retention_sweep.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

async function conversationOf(
  db: { query<T>(sql: string, params?: unknown[]): Promise<T[]> },
  org: string,
  user: string,
): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    "insert into public.conversations (org_id, user_id) values ($1, $2) returning id",
    [org, user],
  );
  return row.id;
}

async function failsWith(promise: Promise<unknown>, code: string): Promise<ToolFailure> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ToolFailure, String(error));
    assert.equal(error.code, code, error.message);
    return error;
  }
  throw new assert.AssertionError({ message: `expected ${code}, but it succeeded` });
}

dbTest("file store: upload, download, sign, fetch, remove through storage-js", async (db) => {
  const storage = await startTestStorage(db);
  try {
    const convo = await conversationOf(db, ORG.easymo, USER.aline);
    const path = `${ORG.easymo}/${convo}/wamid.HBgM1=.png`;
    await storage.files.upload({ bucket: "media", path, bytes: PNG, contentType: "image/png" });

    const got = await storage.files.download({ bucket: "media", path });
    assert.deepEqual(got.bytes, PNG);
    assert.deepEqual(got.contentType, "image/png");
    const [row] = await db.query<{ size: string; mimetype: string }>(
      `select metadata->>'size' as size, metadata->>'mimetype' as mimetype
       from storage.objects where bucket_id = 'media' and name = $1`,
      [path],
    );
    assert.deepEqual(row, { size: String(PNG.byteLength), mimetype: "image/png" });

    const { url, expiresAt } = await storage.files.signedUrl({
      bucket: "media",
      path,
      expiresInSeconds: 60,
    });
    assert.ok(expiresAt.getTime() > Date.now() + 55_000);
    const response = await fetch(url);
    assert.deepEqual(response.status, 200);
    assert.deepEqual(new Uint8Array(await response.arrayBuffer()), PNG);

    // The same path again is a conflict unless upserted.
    await failsWith(
      storage.files.upload({ bucket: "media", path, bytes: PNG, contentType: "image/png" }),
      "CONFLICT",
    );
    const replaced = new Uint8Array([9, 9, 9]);
    await storage.files.upload({
      bucket: "media",
      path,
      bytes: replaced,
      contentType: "image/png",
      upsert: true,
    });
    assert.deepEqual((await storage.files.download({ bucket: "media", path })).bytes, replaced);

    await storage.files.remove({ bucket: "media", paths: [path] });
    await failsWith(storage.files.download({ bucket: "media", path }), "NOT_FOUND");
    assert.deepEqual((await fetch(url)).status, 404);
    const left = await db.query("select 1 from storage.objects where name = $1", [path]);
    assert.deepEqual(left.length, 0);
    // Removing what is gone is no error.
    await storage.files.remove({ bucket: "media", paths: [path] });
  } finally {
    await storage.close();
  }
});

dbTest(
  "file store: RLS keeps each org's files and each customer's conversation apart",
  async (db) => {
    const storage = await startTestStorage(db);
    try {
      const alineConvo = await conversationOf(db, ORG.easymo, USER.aline);
      const path = `${ORG.easymo}/${alineConvo}/registration.png`;
      await storage.files.upload({ bucket: "media", path, bytes: PNG, contentType: "image/png" });

      // Allowed: the customer of the conversation and the org's staff.
      const aline = await storage.filesAs(USER.aline);
      assert.deepEqual((await aline.download({ bucket: "media", path })).bytes, PNG);
      const jean = await storage.filesAs(USER.jean);
      assert.deepEqual((await jean.download({ bucket: "media", path })).bytes, PNG);

      // Refused, and told nothing more than "not found": another org's staff and customer,
      // another member of the same org, for download and for a signed URL.
      for (const user of [USER.paul, USER.nina, USER.eric]) {
        const other = await storage.filesAs(user);
        await failsWith(other.download({ bucket: "media", path }), "NOT_FOUND");
        await failsWith(
          other.signedUrl({ bucket: "media", path, expiresInSeconds: 60 }),
          "NOT_FOUND",
        );
        await other.remove({ bucket: "media", paths: [path] });
      }
      assert.deepEqual((await storage.files.download({ bucket: "media", path })).bytes, PNG);

      // A customer cannot write; another org's staff cannot write into this org's folder.
      await failsWith(
        aline.upload({ bucket: "media", path: `${path}.2`, bytes: PNG, contentType: "image/png" }),
        "AUTH_ERROR",
      );
      const paul = await storage.filesAs(USER.paul);
      await failsWith(
        paul.upload({
          bucket: "media",
          path: `${ORG.easymo}/x/y.png`,
          bytes: PNG,
          contentType: "image/png",
        }),
        "AUTH_ERROR",
      );
      // Staff write into their own org's folder.
      await paul.upload({
        bucket: "media",
        path: `${ORG.beaver}/x/y.png`,
        bytes: PNG,
        contentType: "image/png",
      });

      // No token, or an anonymous one, reaches nothing.
      const bare = await fetch(`${storage.url}/storage/v1/object/media/${path}`);
      assert.deepEqual(bare.status, 401);
      await bare.body?.cancel();
    } finally {
      await storage.close();
    }
  },
);

dbTest("file store: expired and tampered signed URLs are refused", async (db) => {
  let clock = Date.now();
  const storage = await startTestStorage(db, { now: () => new Date(clock) });
  try {
    const path = `${ORG.easymo}/docs/quote.pdf`;
    await storage.files.upload({
      bucket: "documents",
      path,
      bytes: new TextEncoder().encode("%PDF-1.7"),
      contentType: "application/pdf",
    });
    const { url } = await storage.files.signedUrl({
      bucket: "documents",
      path,
      expiresInSeconds: 60,
    });
    assert.deepEqual(await (await fetch(url)).text(), "%PDF-1.7");

    const token = new URL(url).searchParams.get("token")!;
    const [payload, mac] = token.split(".");
    const flipped = mac.slice(0, -2) + (mac.at(-2) === "A" ? "B" : "A") + mac.at(-1);
    for (
      const bad of [
        url.replace(token, `${payload}.${flipped}`),
        url.replace(token, `${btoa('{"url":"documents/x","exp":9999999999}')}.${mac}`),
        url.replace("quote.pdf", "other.pdf"),
        url.replace(/token=.*/, "token="),
      ]
    ) {
      const response = await fetch(bad);
      assert.deepEqual(response.status, 400, bad);
      await response.body?.cancel();
    }

    clock += 61_000;
    const expired = await fetch(url);
    assert.deepEqual(expired.status, 400);
    assert.deepEqual((await expired.json()).message, "jwt expired");
  } finally {
    await storage.close();
  }
});

dbTest("file store: limits: size while streaming, type, bad paths, bad expiry", async (db) => {
  const storage = await startTestStorage(db, { maxUploadBytes: 1024 });
  try {
    const big = new Uint8Array(4096);
    await failsWith(
      storage.files.upload({
        bucket: "media",
        path: `${ORG.easymo}/c/big.png`,
        bytes: big,
        contentType: "image/png",
      }),
      "VALIDATION_ERROR",
    );
    // A chunked body with no length is cut off once it passes the limit, never read whole.
    const exchange = await sendChunked({
      path: `/storage/v1/object/media/${ORG.easymo}/c/s.png`,
      port: Number(new URL(storage.url).port),
      totalBytes: 64 * 1024 * 1024,
      headers: { authorization: `Bearer ${await serviceToken()}` },
    });
    assert.equal(exchange.status, 413);
    assert.equal(exchange.sentAll, false);

    // The documents bucket takes PDFs only.
    await failsWith(
      storage.files.upload({
        bucket: "documents",
        path: `${ORG.easymo}/c/x.html`,
        bytes: PNG,
        contentType: "text/html",
      }),
      "VALIDATION_ERROR",
    );
    const rows = await db.query("select 1 from storage.objects");
    assert.deepEqual(rows.length, 0);

    for (const path of ["", "../etc/passwd", `${ORG.easymo}//x`, "/abs"]) {
      await failsWith(
        storage.files.upload({ bucket: "media", path, bytes: PNG, contentType: "image/png" }),
        "VALIDATION_ERROR",
      );
    }
    await failsWith(
      storage.files.signedUrl({ bucket: "media", path: "a/b", expiresInSeconds: 0 }),
      "VALIDATION_ERROR",
    );
    await failsWith(
      storage.files.download({ bucket: "nope", path: "a/b" }),
      "NOT_FOUND",
    );
  } finally {
    await storage.close();
  }
});

async function serviceToken(): Promise<string> {
  const { signDevToken } = await import("@shared/auth/jwt.ts");
  const { devJwtSecret } = await import("@shared/runtime/secrets.ts");
  const { TEST_SECRET } = await import("@testing/runtime.ts");
  return await signDevToken(devJwtSecret(TEST_SECRET), { role: "service_role" });
}

Deno.test("file store: Storage errors map to contract codes; unconfigured says so", async () => {
  assert.deepEqual(storageErrorCode(400, "404"), "NOT_FOUND");
  assert.deepEqual(storageErrorCode(413), "VALIDATION_ERROR");
  assert.deepEqual(storageErrorCode(400, "409"), "CONFLICT");
  assert.deepEqual(storageErrorCode(502), "SERVICE_UNAVAILABLE");
  assert.deepEqual(storageErrorCode(500, "internal"), "SERVICE_UNAVAILABLE");
  const error = await failsWith(
    unconfiguredFileStore().download({ bucket: "media", path: "a/b" }),
    "SERVICE_UNAVAILABLE",
  );
  assert.ok(error.message.includes("not configured"));
});

Deno.test("file store: an unreachable Storage is SERVICE_UNAVAILABLE and the key stays out", async () => {
  const { createSupabaseFileStore } = await import("./file_store.ts");
  const key = "service-role-key-that-must-not-leak";
  const files = createSupabaseFileStore({ url: "http://127.0.0.1:9", key });
  const error = await failsWith(
    files.download({ bucket: "media", path: "a/b" }),
    "SERVICE_UNAVAILABLE",
  );
  assert.ok(!error.message.includes(key));
});

dbTest(
  "retention sweep removes files past their bucket's retention, bytes included",
  async (db) => {
    const storage = await startTestStorage(db);
    try {
      const old = `${ORG.easymo}/c/old.png`;
      const fresh = `${ORG.easymo}/c/fresh.png`;
      for (const path of [old, fresh]) {
        await storage.files.upload({ bucket: "media", path, bytes: PNG, contentType: "image/png" });
      }
      await db.query(
        "update storage.objects set created_at = now() - interval '31 days' where name = $1",
        [old],
      );
      assert.equal(await sweepExpiredFiles({ db, files: storage.files }), 1);
      await failsWith(storage.files.download({ bucket: "media", path: old }), "NOT_FOUND");
      await assert.rejects(Deno.stat(`${storage.root}/media/${old}`), Deno.errors.NotFound);
      assert.deepEqual((await storage.files.download({ bucket: "media", path: fresh })).bytes, PNG);
      assert.equal(await sweepExpiredFiles({ db, files: storage.files }), 0);
    } finally {
      await storage.close();
    }
  },
);
