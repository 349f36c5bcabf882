import assert from "node:assert/strict";
import type { Pack, PackEndpoint, PackRoute } from "@shared/registry/pack.ts";
import { checkPackSurfaces } from "./pack_surfaces.ts";

const route = (path: string): PackRoute => ({
  method: "GET",
  path,
  handle: () => Promise.resolve({ status: 200, body: {} }),
});
const pack = (more: Partial<Pack>): Pack => ({
  id: "library",
  tools: [],
  agents: [],
  tables: {},
  texts: {},
  services: [],
  ...more,
});

Deno.test("checkPackSurfaces() refuses at start a schedule or route that could not run", () => {
  const tool = "library_expire_requests";
  checkPackSurfaces([pack({ schedules: [{ id: "expire", tool, everyMinutes: 60 }] })], [tool]);
  assert.throws(
    () =>
      checkPackSurfaces([pack({ schedules: [{ id: "expire", tool, everyMinutes: 0 }] })], [tool]),
    /pack "library" as schedule "expire" must run every 1 to 1440 whole minutes: current value is 0/,
  );
  assert.throws(
    () => checkPackSurfaces([pack({ schedules: [{ id: "expire", tool, everyMinutes: 5 }] })], []),
    /schedule "expire" names unknown tool "library_expire_requests"/,
  );
  assert.throws(
    () => checkPackSurfaces([pack({ routes: [route("/requests"), route("/requests")] })], []),
    /route "GET \/requests" is repeated/,
  );
  assert.throws(() => checkPackSurfaces([pack({ routes: [route("requests")] })], []), TypeError);
});

Deno.test("checkPackSurfaces() refuses at start an endpoint that could not be served", () => {
  const endpoint = (path: string, maxBytes = 1024): PackEndpoint => ({
    method: "POST",
    path,
    auth: "signed",
    maxBytes,
    handle: () => Promise.resolve({ status: 200, body: {} }),
  });
  checkPackSurfaces(
    [pack({ endpoints: [endpoint("/callback"), endpoint("/devices/:id/revoke")] })],
    [],
  );
  assert.throws(
    () =>
      checkPackSurfaces([pack({ endpoints: [endpoint("/callback"), endpoint("/callback")] })], []),
    /endpoint "POST \/callback" is repeated/,
  );
  assert.throws(
    () => checkPackSurfaces([pack({ endpoints: [endpoint("callback")] })], []),
    TypeError,
  );
  assert.throws(
    () => checkPackSurfaces([pack({ endpoints: [endpoint("/callback", 0)] })], []),
    /its maxBytes is not 1 to 1048576: current value is 0/,
  );
});
