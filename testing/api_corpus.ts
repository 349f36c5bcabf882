/**
 * A corpus of API documents unlike the pet store, for the generated tools'
 * tests: Swagger 2.0, OpenAPI 3.0 in YAML and 3.1 in JSON with path-level and
 * `$ref`'d parameters, bodies and responses, `oneOf`/`anyOf`/`allOf`,
 * `nullable` and `type: [x, "null"]`, enums, form-urlencoded bodies, api
 * keys in a header, query and cookie, HTTP bearer and basic, servers with
 * variables, operations without `operationId` and with non-ASCII ones, and a
 * GraphQL schema with unions, interfaces, custom scalars, input objects and
 * lists of lists. {@link startEchoApi} serves all of them on loopback: it
 * answers what it was sent, so a test sees exactly how a call went out.
 *
 * @module
 */
import { buildSchema, graphql } from "graphql";
import type { SeenRequest } from "./tenant_api_server.ts";

/** A loopback API that answers every request with what it saw. */
export interface EchoApi {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Every request, in order. */
  requests: SeenRequest[];
  /** Stops it. */
  close(): Promise<void>;
}

/** The GraphQL schema the echo API serves at `/graphql`. */
export const SHOP_SDL = `
scalar DateTime
enum Status { OPEN PAID }
interface Node { id: ID! }
type Product implements Node { id: ID! title: String! }
type Order implements Node { id: ID! status: Status! placedAt: DateTime grid: [[Int!]!]! }
union SearchResult = Product | Order
input LineInput { productId: ID! quantity: Int! }
type Query { search(text: String!): [SearchResult!]! node(id: ID!): Node }
type Mutation { placeOrder(lines: [LineInput!]!, note: String): Order! }
`;

/** What the echo API serves at `/files/<anything>`: a PNG signature, not text. */
export const FILE_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255]);

/** Starts the echo API on a free loopback port. */
export function startEchoApi(): EchoApi {
  const schema = buildSchema(SHOP_SDL);
  const product = { __typename: "Product", id: "p1", title: "Mug" };
  const order = {
    __typename: "Order",
    id: "o1",
    status: "PAID",
    placedAt: "2026-01-01T00:00:00Z",
    grid: [[1, 2], [3]],
  };
  const root = {
    search: () => [product, order],
    node: ({ id }: { id: string }) => id === "o1" ? order : product,
    placeOrder: () => order,
  };
  const requests: SeenRequest[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const target = new URL(request.url);
    const bytes = new Uint8Array(await request.arrayBuffer());
    const body = new TextDecoder().decode(bytes);
    const seen = {
      method: request.method,
      path: target.pathname,
      query: target.search,
      headers: Object.fromEntries(request.headers),
      body,
      bytes,
    };
    if (target.pathname.startsWith("/files/")) {
      // A file to be read by address: bytes that are not text.
      return new Response(FILE_BYTES, { headers: { "content-type": "image/png" } });
    }
    requests.push(seen);
    if (target.pathname.endsWith("/graphql")) {
      const { query, variables } = JSON.parse(body || "{}");
      return Response.json(
        await graphql({ schema, source: query, rootValue: root, variableValues: variables }),
      );
    }
    return Response.json({
      method: seen.method,
      path: seen.path,
      query: seen.query,
      body: seen.body,
    });
  });
  const { port } = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => server.shutdown(),
  };
}

/** Swagger 2.0 (upgraded to 3.1 at registration): host and basePath, a body parameter, api key. */
export function swagger2Document(apiUrl: string): Record<string, unknown> {
  const { host } = new URL(apiUrl);
  return {
    swagger: "2.0",
    info: { title: "Legacy inventory", version: "1.0" },
    host,
    basePath: "/v1",
    schemes: ["http"],
    consumes: ["application/json"],
    produces: ["application/json"],
    securityDefinitions: { key: { type: "apiKey", in: "header", name: "X-Inventory-Key" } },
    security: [{ key: [] }],
    paths: {
      "/items/{sku}": {
        parameters: [{ name: "sku", in: "path", required: true, type: "string" }],
        get: {
          operationId: "getItem",
          "x-agent": { action: true },
          parameters: [{ name: "warehouse", in: "query", type: "string", enum: ["kgl", "hye"] }],
          responses: { 200: { description: "ok", schema: { $ref: "#/definitions/Item" } } },
        },
        put: {
          operationId: "putItem",
          "x-agent": { action: true },
          parameters: [{
            name: "item",
            in: "body",
            required: true,
            schema: { $ref: "#/definitions/Item" },
          }],
          responses: { 200: { description: "ok" } },
        },
      },
    },
    definitions: {
      Item: {
        type: "object",
        required: ["name"],
        properties: { name: { type: "string" }, count: { type: "integer", minimum: 0 } },
      },
    },
  };
}

/**
 * OpenAPI 3.0 in YAML: a server with variables, `$ref`'d parameters, request
 * bodies and responses, `nullable`, `allOf`, a form-urlencoded body, a
 * bearer token, an operation without operationId.
 */
export function openapi30Yaml(apiUrl: string): string {
  const { port } = new URL(apiUrl);
  return `openapi: 3.0.3
info:
  title: Bookings
  version: "2"
servers:
  - url: "http://{host}:{port}/{base}"
    variables:
      host: { default: 127.0.0.1 }
      port: { default: "${port}" }
      base: { default: api }
components:
  securitySchemes:
    token: { type: http, scheme: bearer }
  parameters:
    BookingId: { name: bookingId, in: path, required: true, schema: { type: string, format: uuid } }
    Page: { name: page, in: query, schema: { type: integer, minimum: 1, default: 1 } }
  schemas:
    Base:
      type: object
      required: [guest]
      properties:
        guest: { type: string, minLength: 1 }
        note: { type: string, nullable: true }
    Booking:
      allOf:
        - $ref: "#/components/schemas/Base"
        - type: object
          required: [nights]
          properties:
            nights: { type: integer, minimum: 1, maximum: 30 }
            room: { type: string, enum: [single, double, suite] }
  requestBodies:
    NewBooking:
      required: true
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Booking" }
  responses:
    BookingOut:
      description: A booking
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Booking" }
security:
  - token: []
paths:
  /bookings:
    get:
      x-agent: { action: true }
      parameters:
        - $ref: "#/components/parameters/Page"
      responses:
        "200": { $ref: "#/components/responses/BookingOut" }
    post:
      operationId: createBooking
      x-agent: { action: true }
      requestBody: { $ref: "#/components/requestBodies/NewBooking" }
      responses:
        "201": { $ref: "#/components/responses/BookingOut" }
  /bookings/{bookingId}/cancel:
    parameters:
      - $ref: "#/components/parameters/BookingId"
    post:
      operationId: cancelBooking
      x-agent: { action: true }
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [reason]
              properties:
                reason: { type: string, enum: [guest, overbooked] }
                refund: { type: boolean }
      responses:
        "200": { description: ok }
`;
}

/**
 * OpenAPI 3.1 in JSON: `oneOf`/`anyOf` bodies, `type: [x, "null"]`, a header
 * and a query api key (both required together), a cookie key, HTTP basic,
 * a non-ASCII operationId and a header parameter; a multipart upload with a
 * file, a body that is an image's bytes and a text/plain one.
 */
export function openapi31Document(apiUrl: string): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: { title: "Payments", version: "3" },
    servers: [{ url: `${apiUrl}/pay` }],
    components: {
      securitySchemes: {
        appKey: { type: "apiKey", in: "header", name: "X-App-Key" },
        tenantKey: { type: "apiKey", in: "query", name: "tenant_key" },
        session: { type: "apiKey", in: "cookie", name: "sid" },
        basic: { type: "http", scheme: "basic" },
      },
    },
    paths: {
      "/charges": {
        post: {
          operationId: "créerPaiement",
          "x-agent": { action: true },
          security: [{ appKey: [], tenantKey: [] }],
          parameters: [{ name: "X-Request-Source", in: "header", schema: { type: "string" } }],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  oneOf: [
                    {
                      type: "object",
                      required: ["momo"],
                      properties: { momo: { type: "string", pattern: "^2507\\d{8}$" } },
                      additionalProperties: false,
                    },
                    {
                      type: "object",
                      required: ["card"],
                      properties: { card: { type: "string", minLength: 12 } },
                      additionalProperties: false,
                    },
                  ],
                },
              },
            },
          },
          responses: { 201: { description: "created" } },
        },
      },
      "/charges/{id}": {
        get: {
          operationId: "getCharge",
          "x-agent": { action: true },
          security: [{ session: [] }, { basic: [] }],
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: {
            200: {
              description: "ok",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      amount: { type: ["number", "null"] },
                      memo: { anyOf: [{ type: "string" }, { type: "null" }] },
                    },
                  },
                },
              },
            },
          },
        },
      },
      "/uploads": {
        post: {
          operationId: "upload",
          requestBody: {
            content: {
              "multipart/form-data": {
                schema: {
                  type: "object",
                  properties: {
                    receipt: { type: "string", contentMediaType: "image/png" },
                    note: { type: "string" },
                  },
                },
              },
            },
          },
          responses: { 200: { description: "ok" } },
        },
      },
      "/receipts/{id}/scan": {
        put: {
          operationId: "putScan",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          requestBody: {
            required: true,
            content: { "image/png": {}, "image/jpeg": {} },
          },
          responses: { 200: { description: "ok" } },
        },
      },
      "/memos": {
        post: {
          operationId: "postMemo",
          requestBody: { content: { "text/plain": { schema: { type: "string" } } } },
          responses: { 200: { description: "ok" } },
        },
      },
      "/notes": {
        post: {
          operationId: "attachNote",
          requestBody: {
            required: true,
            content: {
              "multipart/form-data": {
                schema: {
                  type: "object",
                  required: ["text"],
                  properties: {
                    text: { type: "string", maxLength: 200 },
                    urgent: { type: "boolean" },
                    tags: { type: "array", items: { type: "string" } },
                  },
                },
              },
            },
          },
          responses: { 200: { description: "ok" } },
        },
      },
    },
  };
}
