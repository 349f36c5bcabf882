/**
 * The library desk's tools: a customer asks to borrow a book, staff list
 * the open requests, and the schedule expires those left waiting.
 *
 * @module
 */
import { z } from "zod";
import { text } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";

/** How long a request waits before the schedule expires it. */
export const REQUEST_HOLD_MS = 2 * 24 * 60 * 60 * 1000;

const Request = z.object({
  id: z.uuid(),
  title: z.string(),
  status: z.enum(["requested", "expired"]),
  requested_at: z.string(),
});

/** `library_request_book`: the caller asks to borrow a book, in their org. */
export const libraryRequestBook = defineTool({
  name: "library_request_book",
  title: "Request a book",
  description: "Ask the library to hold a book for the caller, by title; answers a reference.",
  category: "library",
  input: z.object({ title: text({ min: 1, max: 120 }) }),
  output: z.object({ request_id: z.uuid(), reference: z.string() }),
  examples: [{ input: { title: "Things Fall Apart" } }],
  sideEffects: "writes.example_book_requests",
  auth: "user",
  async execute(args, ctx) {
    // The clock is the platform's, so tests (and the schedule) see the time they inject.
    const [row] = await ctx.db.query<{ id: string }>(
      `insert into public.example_book_requests (org_id, user_id, title, requested_at)
       values ($1, $2, $3, $4) returning id`,
      [ctx.org_id, ctx.user_id, args.title, ctx.services.now().toISOString()],
    );
    return { request_id: row.id, reference: row.id.slice(0, 8).toUpperCase() };
  },
});

/** `library_open_requests`: the org's requests, as the caller may see them (staff: all). */
export const libraryOpenRequests = defineTool({
  name: "library_open_requests",
  title: "Open book requests",
  description: "List the organisation's book requests still waiting, oldest first.",
  category: "library",
  input: z.object({}),
  output: z.object({ requests: z.array(Request) }),
  examples: [{ input: {} }],
  sideEffects: "none",
  auth: "user",
  async execute(_args, ctx) {
    const requests = await ctx.db.query<z.output<typeof Request>>(
      `select id, title, status, to_jsonb(requested_at) #>> '{}' as requested_at
         from public.example_book_requests
        where org_id = $1 and status = 'requested'
        order by requested_at, id`,
      [ctx.org_id],
    );
    return { requests };
  },
});

/** `library_expire_requests`: the schedule's tool, expiring the org's stale requests. */
export const libraryExpireRequests = defineTool({
  name: "library_expire_requests",
  title: "Expire stale book requests",
  description: "Expire the organisation's book requests waiting longer than two days.",
  category: "library",
  input: z.object({}),
  output: z.object({ expired: z.number().int() }),
  examples: [{ input: {} }],
  sideEffects: "writes.example_book_requests",
  auth: "service",
  internal: true,
  async execute(_args, ctx) {
    // As the service: the org filter is this tool's own fence.
    const cutoff = new Date(ctx.services.now().getTime() - REQUEST_HOLD_MS).toISOString();
    const rows = await ctx.db.query(
      `update public.example_book_requests set status = 'expired'
        where org_id = $1 and status = 'requested' and requested_at < $2 returning id`,
      [ctx.org_id, cutoff],
    );
    return { expired: rows.length };
  },
});
