import assert from "node:assert/strict";
import { startTenantApi } from "@testing/tenant_api_server.ts";
import { startHangingEndpoint } from "@testing/hanging_endpoint.ts";
import { REBIND_TEST_CERT, REBIND_TEST_KEY } from "@testing/tls_fixture.ts";
import { isBlockedAddress, safeFetch, SafeFetchError } from "./safe_fetch.ts";

async function refusal(promise: Promise<unknown>): Promise<SafeFetchError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof SafeFetchError, String(error));
    return error;
  }
  assert.fail("expected a refusal");
}

Deno.test("isBlockedAddress() refuses loopback, private, link-local, CGNAT, multicast and their IPv6 forms", () => {
  for (
    const address of [
      "127.0.0.1",
      "127.255.0.9",
      "10.0.0.1",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:169.254.169.254",
      "64:ff9b::a00:1",
      "fd00::1",
      "fc00::1",
      "fe80::1",
      "ff02::1",
      "2002:7f00:1::",
      "not an address",
    ]
  ) assert.equal(isBlockedAddress(address), true, address);
  for (
    const address of ["8.8.8.8", "172.32.0.1", "192.169.0.1", "100.128.0.1", "2606:4700::1111"]
  ) {
    assert.equal(isBlockedAddress(address), false, address);
  }
});

Deno.test("safeFetch() refuses loopback and private targets, by literal or by name", async () => {
  const api = startTenantApi();
  try {
    const port = new URL(api.url).port;
    for (
      const url of [
        `${api.url}/pets`,
        `http://[::1]:${port}/pets`,
        "http://10.1.2.3/",
        "http://172.16.9.9/",
        "http://192.168.0.10/",
        "http://169.254.169.254/latest/meta-data/",
        `http://localhost:${port}/pets`,
        "http://0x7f.1/", // another spelling of 127.0.0.1
      ]
    ) {
      const error = await refusal(safeFetch(url));
      assert.equal(error.kind, "blocked_address", url);
    }
    // A name whose DNS answer is loopback (the resolver stands in for a hostile zone).
    const error = await refusal(
      safeFetch(`http://internal.example.test:${port}/pets`, {}, {
        resolve: () => Promise.resolve(["127.0.0.1"]),
      }),
    );
    assert.equal(error.kind, "blocked_address");
    assert.match(error.message, /internal\.example\.test.*127\.0\.0\.1/);
    assert.equal(api.requests.length, 0, "nothing reached the server");
  } finally {
    await api.close();
  }
});

Deno.test("safeFetch() checks every redirect: a public name that redirects to loopback is refused", async () => {
  const api = startTenantApi();
  try {
    // The transport reaches the test server for the public name; the checks are the real ones.
    const transport: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      return fetch(`${api.url}${url.pathname}${url.search}`, init);
    };
    const error = await refusal(
      safeFetch(
        `http://public.example.test/redirect?to=${encodeURIComponent(`${api.url}/openapi.json`)}`,
        {},
        { resolve: () => Promise.resolve(["93.184.216.34"]), fetch: transport },
      ),
    );
    assert.equal(error.kind, "blocked_address");
    assert.deepEqual(api.requests.map((request) => request.path), ["/redirect"]);
  } finally {
    await api.close();
  }
});

Deno.test("safeFetch() with the private-network setting reaches loopback, caps size while streaming and wants JSON", async () => {
  const api = startTenantApi();
  try {
    const open = { allowPrivateNetwork: true };
    const ok = await safeFetch(`${api.url}/openapi.json`, {}, open);
    assert.equal(ok.status, 200);
    assert.equal(JSON.parse(ok.text).openapi, "3.1.0");
    const big = await refusal(safeFetch(`${api.url}/big`, {}, { ...open, maxBytes: 100_000 }));
    assert.equal(big.kind, "too_large");
    const html = await refusal(safeFetch(`${api.url}/html`, {}, open));
    assert.equal(html.kind, "not_json");
    const redirected = await safeFetch(`${api.url}/redirect?to=/openapi.json`, {}, open);
    assert.equal(redirected.url, `${api.url}/openapi.json`);
    const scheme = await refusal(safeFetch("file:///etc/passwd", {}, open));
    assert.equal(scheme.kind, "bad_url");
  } finally {
    await api.close();
  }
});

Deno.test("safeFetch() gives up on an API that never answers as a timeout, not a network error", async () => {
  const hanging = startHangingEndpoint();
  try {
    const error = await refusal(
      safeFetch(`${new URL(hanging.baseURL).origin}/pets`, {}, {
        allowPrivateNetwork: true,
        timeoutMs: 200,
      }),
    );
    assert.equal(error.kind, "timeout");
  } finally {
    await hanging.close();
  }
});

/**
 * Two servers on one port: the "public" API on 127.0.0.2 and an "internal" one on 127.0.0.1.
 * Tests treat 127.0.0.2 as a public address (`isBlocked`), so the real checks and the real
 * connection run without reaching the internet.
 */
function rebindPair(tls = false) {
  const seen: string[] = [];
  const answer = (who: string) => (request: Request) => {
    seen.push(`${who} ${request.headers.get("host")}`);
    return Response.json({ who });
  };
  const publicApi = Deno.serve(
    {
      hostname: "127.0.0.2",
      port: 0,
      onListen() {},
      ...(tls ? { cert: REBIND_TEST_CERT, key: REBIND_TEST_KEY } : {}),
    },
    answer("public"),
  );
  const internal = Deno.serve(
    { hostname: "127.0.0.1", port: publicApi.addr.port, onListen() {} },
    answer("internal"),
  );
  // A hostile zone: the check is told the public address, any later question loopback.
  const questions: string[] = [];
  const resolve = (host: string) => {
    questions.push(host);
    return Promise.resolve([questions.length === 1 ? "127.0.0.2" : "127.0.0.1"]);
  };
  return {
    port: publicApi.addr.port,
    seen,
    questions,
    options: {
      resolve,
      isBlocked: (address: string) => address !== "127.0.0.2" && isBlockedAddress(address),
    },
    async close() {
      await publicApi.shutdown();
      await internal.shutdown();
    },
  };
}

Deno.test("safeFetch() connects to the address it checked: a name that answers loopback the second time still reaches the public API", async () => {
  const pair = rebindPair();
  try {
    const response = await safeFetch(`http://rebind.test:${pair.port}/pets`, {}, pair.options);
    assert.deepEqual(JSON.parse(response.text), { who: "public" });
    assert.deepEqual(pair.questions, ["rebind.test"], "the name was resolved once, for the check");
    // The request carried the name, not the address; the internal server saw nothing.
    assert.deepEqual(pair.seen, [`public rebind.test:${pair.port}`]);
    // Had the connection asked again, the answer would have been refused, not followed.
    const again = await refusal(
      safeFetch(`http://rebind.test:${pair.port}/pets`, {}, pair.options),
    );
    assert.equal(again.kind, "blocked_address");
    assert.equal(pair.seen.length, 1);
  } finally {
    await pair.close();
  }
});

Deno.test("safeFetch() over https to the checked address verifies the certificate against the host name", async () => {
  const pair = rebindPair(true);
  try {
    const options = { ...pair.options, caCerts: [REBIND_TEST_CERT] };
    const response = await safeFetch(`https://api.rebind.test:${pair.port}/pets`, {}, options);
    assert.deepEqual(JSON.parse(response.text), { who: "public" });
    assert.deepEqual(pair.seen, [`public api.rebind.test:${pair.port}`]);
    // Same address, another name: the certificate does not name it, so nothing is sent.
    const wrong = await refusal(
      safeFetch(`https://other.rebind.test:${pair.port}/pets`, {}, {
        ...options,
        resolve: () => Promise.resolve(["127.0.0.2"]),
      }),
    );
    assert.equal(wrong.kind, "network");
    assert.equal(pair.seen.length, 1);
  } finally {
    await pair.close();
  }
});

Deno.test("safeFetch() through the pinned connection keeps its limits: size while streaming, JSON only, redirects checked, deadline", async () => {
  const api = startTenantApi();
  const hanging = startHangingEndpoint();
  // Loopback stands in for a public API here: the name resolves to it and the policy allows it.
  const pinned = {
    resolve: () => Promise.resolve(["127.0.0.1"]),
    isBlocked: (address: string) => address !== "127.0.0.1" && isBlockedAddress(address),
  };
  const port = new URL(api.url).port;
  try {
    const ok = await safeFetch(`http://api.pinned.test:${port}/openapi.json`, {}, pinned);
    assert.equal(JSON.parse(ok.text).openapi, "3.1.0");
    assert.equal(api.requests.at(-1)!.headers.host, `api.pinned.test:${port}`);
    const big = await refusal(
      safeFetch(`http://api.pinned.test:${port}/big`, {}, { ...pinned, maxBytes: 100_000 }),
    );
    assert.equal(big.kind, "too_large");
    const html = await refusal(safeFetch(`http://api.pinned.test:${port}/html`, {}, pinned));
    assert.equal(html.kind, "not_json");
    const redirected = await safeFetch(
      `http://api.pinned.test:${port}/redirect?to=/openapi.json`,
      {},
      pinned,
    );
    assert.equal(redirected.url, `http://api.pinned.test:${port}/openapi.json`);
    const posted = await safeFetch(`http://api.pinned.test:${port}/pets`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "k" },
      body: JSON.stringify({ name: "Kit" }),
    }, pinned);
    assert.ok(posted.status >= 200 && posted.status < 500, String(posted.status));
    assert.equal(api.requests.at(-1)!.method, "POST");
    const slow = await refusal(
      safeFetch(`http://api.pinned.test:${new URL(hanging.baseURL).port}/pets`, {}, {
        ...pinned,
        timeoutMs: 200,
      }),
    );
    assert.equal(slow.kind, "timeout");
  } finally {
    await api.close();
    await hanging.close();
  }
});
