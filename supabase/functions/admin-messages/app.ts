/**
 * `admin-messages`: the Admin Inbox's API. Staff (or admins) of an org list
 * and filter its tickets, read the conversation, claim, assign, release,
 * resolve and reopen, add internal notes and reply to the user on WhatsApp,
 * and approve or reject the rental listings landlords sent (with their photos).
 * Identity comes from the verified JWT; what a staff member can see and
 * change is decided by RLS.
 *
 * @module
 */
import { Hono } from "hono";
import { cors } from "hono/cors";
import type { Context } from "hono";
import { z } from "zod";
import { type CallerResolver, type ResolvedCaller, SIGN_IN_REQUIRED } from "@shared/auth/caller.ts";
import {
  fail,
  ok,
  text as textField,
  ToolFailure,
  type ToolResult,
  validationFailure,
} from "@shared/contract/mod.ts";
import { classifyDbError } from "@shared/db/errors.ts";
import { contractResponse, readJsonBody } from "@shared/http/respond.ts";
import { type BodyLimits, BodyRefused, refusalResponse } from "@shared/http/body.ts";
import type { Platform } from "@shared/platform/platform.ts";
import { createStaffAssistant, type StaffAssistant } from "@shared/platform/staff_assistant.ts";
import { findMessageFile, signCase, signMessageFile } from "./media.ts";
import { replyToUser } from "./reply.ts";
import {
  actOnTicket,
  addNote,
  assignTicket,
  getTicket,
  listTickets,
  queueCounts,
  type TicketAction,
  ticketCase,
  ticketThread,
  type TicketView,
} from "./tickets.ts";

/** What the app needs. */
export interface AdminAppOptions {
  /** The platform. */
  platform: Platform;
  /** Resolves bearer tokens. */
  resolveCaller: CallerResolver;
  /** Origins of the deployed Admin Inbox page allowed to call (CORS). @default none */
  allowedOrigins?: string[];
  /** Body limits of a write (notes, replies, assignments). @default 64 KiB within 10 s */
  body?: Partial<BodyLimits>;
  /** The assistant panel's staff desk. @default one over the platform (the agents' flows answer) */
  assistant?: StaffAssistant;
}

const STAFF_ROLES = ["staff", "admin"] as const;

const ListQuery = z.object({
  status: z.enum(["open", "claimed", "resolved", "active", "all"]).default("active"),
  priority: z.enum(["low", "medium", "high", "urgent"]).optional(),
  channel: z.enum(["inbox", "slack", "sms"]).optional(),
  mine: z.enum(["1", "true", "0", "false"]).optional(),
  updated_since: z.iso.datetime({ offset: true }).optional(),
});

const TicketId = z.uuid();
// What staff write reaches a jsonb column and WhatsApp: no NUL or other control characters.
const Text = z.object({ text: textField({ min: 1, max: 4000, multiline: true }) });
const Assign = z.object({ staff_id: z.uuid() });
// A message to a staff agent: words, or a tapped option (its id, with its title as the words).
const AssistantMessage = z.object({
  text: textField({ max: 4000, multiline: true }).default(""),
  choice: z.string().regex(/^[A-Za-z0-9_:.-]{1,150}$/).optional(),
});
const Review = z.object({
  decision: z.enum(["approve", "reject"]),
  reason: textField({ min: 3, max: 300 }).optional(),
});

interface StaffCaller extends ResolvedCaller {
  org_id: string;
}

/** Builds the app, mounted at `/admin-messages`. */
export function createAdminApp(options: AdminAppOptions): Hono {
  const { platform, resolveCaller } = options;
  const assistant = options.assistant ?? createStaffAssistant(platform);
  const app = new Hono().basePath("/admin-messages");
  // The page is hosted elsewhere (Storage, a static host): let exactly its origins call.
  if (options.allowedOrigins?.length) {
    app.use(
      "*",
      cors({
        origin: options.allowedOrigins,
        allowHeaders: [
          "authorization",
          "apikey",
          "content-type",
          "idempotency-key",
          "x-org-id",
          "x-client-info",
        ],
        allowMethods: ["GET", "POST", "OPTIONS"],
        maxAge: 600,
      }),
    );
  }

  app.onError((error, c) => {
    platform.log.error("admin_messages_failed", { error: String(error), path: c.req.path });
    return contractResponse(fail("INTERNAL_ERROR"));
  });

  /** The staff caller, or the response refusing them. */
  async function staff(c: Context): Promise<StaffCaller | Response> {
    const caller = await resolveCaller(c.req.header("authorization"), c.req.header("x-org-id"), {
      roles: STAFF_ROLES,
      refusal: "Staff access only",
    });
    if (!("ok" in caller)) return caller as StaffCaller;
    if (caller.error.msg === SIGN_IN_REQUIRED) {
      return Response.json(caller, {
        status: 401,
        headers: { "www-authenticate": 'Bearer realm="easymo"' },
      });
    }
    return contractResponse(caller);
  }

  /** Runs `work` as the staff member and answers with the contract. */
  async function asStaff<T>(
    c: Context,
    work: (caller: StaffCaller) => Promise<T>,
  ): Promise<Response> {
    const caller = await staff(c);
    if (caller instanceof Response) return caller;
    let result: ToolResult;
    try {
      result = ok(await work(caller));
    } catch (error) {
      if (error instanceof BodyRefused) return refusalResponse(error.refusal);
      if (error instanceof ToolFailure) {
        result = fail(error.code, error.userMessage, error.fields ? { fields: error.fields } : {});
      } else if (classifyDbError(error)) result = fail(classifyDbError(error)!);
      else throw error;
    }
    return contractResponse(result);
  }

  function ticketId(c: Context): string {
    const parsed = TicketId.safeParse(c.req.param("id"));
    if (!parsed.success) throw new ToolFailure("NOT_FOUND", "No such ticket");
    return parsed.data;
  }

  async function body<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
    const read = await readJsonBody(c.req.raw, { maxBytes: 64 * 1024, ...options.body });
    if (!read.ok) throw new BodyRefused(read);
    const parsed = schema.safeParse(read.body);
    if (!parsed.success) {
      const { error } = validationFailure(parsed.error);
      throw new ToolFailure("VALIDATION_ERROR", error.msg, { fields: error.fields });
    }
    return parsed.data;
  }

  app.get("/me", (c) =>
    asStaff(c, async (caller) => {
      const [me] = await platform.db.asCaller(caller.claims, (tx) =>
        tx.query<{ id: string; name: string | null; phone: string | null }>(
          "select id, display_name as name, phone from public.profiles where id = (select auth.uid())",
        ));
      return {
        user: me,
        orgs: caller.memberships.filter((m) =>
          (STAFF_ROLES as readonly string[]).includes(m.role)
        ).map((m) => ({
          id: m.org_id,
          slug: platform.tenants.get(m.org_id)?.slug,
          role: m.role,
        })),
      };
    }));

  // Agent names live in the packs (as the org's agent file enables them), not the database.
  const withAgentName = (orgId: string) => (ticket: TicketView): TicketView => {
    const tenant = platform.tenants.get(orgId)?.slug ?? "";
    const agent = ticket.agent_id ? platform.agents.get(tenant, ticket.agent_id) : undefined;
    return { ...ticket, agent_name: agent?.name ?? ticket.agent_id };
  };

  app.get("/tickets", (c) =>
    asStaff(c, async (caller) => {
      const query = ListQuery.safeParse(c.req.query());
      if (!query.success) {
        // The parameter at fault, by name: "Invalid filter" alone leaves the caller guessing.
        const { fields } = validationFailure(query.error).error;
        throw new ToolFailure("VALIDATION_ERROR", "Invalid filter", { fields });
      }
      const { status, priority, channel, mine, updated_since } = query.data;
      return await platform.db.asCaller(caller.claims, async (tx) => {
        const [server] = await tx.query<{ now: string }>("select to_jsonb(now()) #>> '{}' as now");
        return {
          tickets: (await listTickets(tx, caller.org_id, {
            status,
            priority,
            channel,
            mine: mine === "1" || mine === "true",
            updatedSince: updated_since,
          })).map(withAgentName(caller.org_id)),
          queue: await queueCounts(tx, caller.org_id),
          server_time: server.now,
        };
      });
    }));

  app.get(
    "/tickets/:id",
    (c) =>
      asStaff(c, (caller) =>
        platform.db.asCaller(caller.claims, async (tx) => {
          const ticket = withAgentName(caller.org_id)(
            await getTicket(tx, caller.org_id, ticketId(c)),
          );
          return {
            ticket,
            ...(await ticketThread(tx, ticket)),
            case: await ticketCase(tx, ticket.id),
          };
        }).then(async ({ case: found, ...detail }) => ({
          ...detail,
          // Signed after the transaction (signing may reach the database), as message files are.
          legal_case: found && await signCase(platform.files, found),
        }))),
  );

  for (const action of ["claim", "release", "resolve", "reopen"] as TicketAction[]) {
    app.post(`/tickets/:id/${action}`, (c) =>
      asStaff(c, async (caller) => ({
        ticket: await platform.db.asCaller(
          caller.claims,
          (tx) => actOnTicket(tx, caller.org_id, ticketId(c), action),
        ),
      })));
  }

  // A message's image or document: a short-lived signed link, for staff who may see it.
  app.get("/messages/:id/media", (c) =>
    asStaff(c, (caller) => {
      const id = TicketId.safeParse(c.req.param("id"));
      if (!id.success) throw new ToolFailure("NOT_FOUND", "No such file");
      return platform.db.asCaller(
        caller.claims,
        (tx) => findMessageFile(tx, { orgId: caller.org_id, messageId: id.data }),
      ).then((file) => signMessageFile(platform.files, file));
    }));

  app.post("/tickets/:id/assign", (c) =>
    asStaff(c, async (caller) => {
      const { staff_id } = await body(c, Assign);
      return {
        ticket: await platform.db.asCaller(
          caller.claims,
          (tx) => assignTicket(tx, caller.org_id, ticketId(c), staff_id),
        ),
      };
    }));

  app.post("/tickets/:id/notes", (c) =>
    asStaff(c, async (caller) => {
      const { text } = await body(c, Text);
      return {
        ticket: await platform.db.asCaller(
          caller.claims,
          (tx) => addNote(tx, caller.org_id, ticketId(c), text),
        ),
      };
    }));

  app.post("/tickets/:id/reply", (c) =>
    asStaff(c, async (caller) => {
      const key = c.req.header("idempotency-key");
      if (!key || key.length > 200 || !/^[\x21-\x7e]+$/.test(key)) {
        throw new ToolFailure("VALIDATION_ERROR", "An Idempotency-Key header is required");
      }
      const { text } = await body(c, Text);
      return await replyToUser(platform.db, {
        claims: caller.claims,
        orgId: caller.org_id,
        ticketId: ticketId(c),
        text,
        idempotencyKey: key,
      });
    }));

  // The assistant panel: the staff agents' menu, and one message to the desk or the agent picked.
  app.get(
    "/assistant",
    (c) => asStaff(c, (caller) => assistant.menu({ claims: caller.claims, orgId: caller.org_id })),
  );

  app.post("/assistant", (c) =>
    asStaff(c, async (caller) => {
      const key = c.req.header("idempotency-key");
      if (!key || key.length > 200 || !/^[\x21-\x7e]+$/.test(key)) {
        throw new ToolFailure("VALIDATION_ERROR", "An Idempotency-Key header is required");
      }
      const message = await body(c, AssistantMessage);
      return await assistant.turn({
        claims: caller.claims,
        orgId: caller.org_id,
        key,
        text: message.text,
        ...(message.choice ? { choice: message.choice } : {}),
      });
    }));

  // A payment ticket's "Confirm payment": the payments pack's tool, as the staff member.
  app.post("/payments/:ref/confirm", async (c) => {
    const caller = await staff(c);
    if (caller instanceof Response) return caller;
    const ref = c.req.param("ref");
    const result = await platform.call({
      tool: "payment_confirm_by_staff",
      args: { momo_ref: ref },
      caller,
      idempotencyKey: `staff-confirm:${caller.claims.sub}:${ref}`.slice(0, 255),
    });
    // The reference is the path: one that cannot exist is no such payment, not a bad body.
    if (!result.ok && result.error.code === "VALIDATION_ERROR") {
      return contractResponse(fail("NOT_FOUND", "No such payment"));
    }
    return contractResponse(result.ok ? ok({ payment: result.data }) : result);
  });

  // Rental listings waiting for approval: the property pack's tools, called by name as the
  // staff member (RLS and the agent file decide, as for any call). Photos come signed.
  async function callAsStaff(
    caller: StaffCaller,
    tool: string,
    args: unknown,
    idempotencyKey?: string,
  ): Promise<unknown> {
    const result = await platform.call({ tool, args, caller, idempotencyKey });
    if (!result.ok) {
      throw new ToolFailure(
        result.error.code,
        result.error.msg,
        result.error.fields ? { fields: result.error.fields } : {},
      );
    }
    return result.data;
  }

  app.get(
    "/listings",
    (c) =>
      asStaff(c, (caller) =>
        callAsStaff(caller, "property_listings_queue", {
          status: c.req.query("status") ?? "pending",
        })),
  );

  app.post("/listings/:id/review", (c) =>
    asStaff(c, async (caller) =>
      callAsStaff(
        caller,
        "property_listing_review",
        { listing_id: c.req.param("id"), ...await body(c, Review) },
        c.req.header("idempotency-key"),
      )));

  return app;
}
