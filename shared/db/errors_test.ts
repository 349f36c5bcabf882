import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { classifyDbError, dbRetryAfterMs } from "./errors.ts";

async function raised(db: { query(text: string): Promise<unknown> }, sqlstate: string) {
  try {
    await db.query(`do $$ begin raise exception 'refused' using errcode = '${sqlstate}'; end $$`);
  } catch (error) {
    return classifyDbError(error);
  }
  assert.fail(`expected ${sqlstate} to be raised`);
}

dbTest("classifyDbError maps the states our functions raise to contract codes", async (db) => {
  assert.equal(await raised(db, "P0409"), "CONFLICT");
  assert.equal(await raised(db, "P0402"), "CONFLICT");
  assert.equal(await raised(db, "P0002"), "NOT_FOUND");
  assert.equal(await raised(db, "PT429"), "RATE_LIMIT");
  assert.equal(await raised(db, "42501"), "AUTH_ERROR");
  assert.equal(await raised(db, "P0001"), undefined);
});

Deno.test("dbRetryAfterMs reads the wait a PT429 refusal asks for, and nothing else's", () => {
  assert.equal(dbRetryAfterMs({ code: "PT429", hint: "retry in 6 s" }), 6000);
  assert.equal(dbRetryAfterMs({ code: "PT429", hint: "later" }), undefined);
  assert.equal(dbRetryAfterMs({ code: "P0001", hint: "retry in 6 s" }), undefined);
  assert.equal(dbRetryAfterMs(null), undefined);
});
