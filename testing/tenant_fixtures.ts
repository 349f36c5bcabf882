/**
 * Two tenants with a row of every kind: the seeded EasyMO and Beaver orgs
 * each get a conversation, a ticket with a note, an order with a payment, a
 * ride with a driver, a booking, an inquiry with a reply and feedback, an
 * insurance quote, a document and a file, so a test can point anything a
 * function takes at the other tenant's rows. Beaver also gets the roles the
 * seed gives only EasyMO (an admin, a vendor owning its warehouse, a driver),
 * and one signed-up person belongs to no org.
 *
 * Vendor metrics are left stale on purpose (a reply and feedback are stored
 * without recomputing them), so a function that recomputes another tenant's
 * metrics changes a row someone can see.
 *
 * @module
 */
import type { Database } from "@shared/db/types.ts";
import { ORG, USER } from "./seed.ts";

/** The people and rows of one tenant. */
export interface TenantFixture {
  /** The org id. */
  org: string;
  /** Members by role. */
  customer: string;
  staff: string;
  admin: string;
  vendor: string;
  /** A member (vendor) who drives for the org. */
  driverUser: string;
  /** A shop the vendor owns, with a product, an order and an inquiry. */
  business: string;
  /** A venue that takes bookings. */
  venue: string;
  conversation: string;
  ticket: string;
  order: string;
  payment: string;
  momoRef: string;
  driver: string;
  tariff: string;
  /** Matched to the driver. */
  ride: string;
  /** Open, offered to the driver. */
  openRide: string;
  reservation: string;
  inquiry: string;
  insurer: string;
  insuranceTariff: string;
}

// Fixture ids: one hex digit per kind, the tenant's letter in the last group.
function id(kind: number, tenant: "a" | "b"): string {
  return `7${kind.toString(16)}000000-0000-4000-8000-0000000000${tenant}1`;
}

/** EasyMO (org A) with its seeded people. */
export const TENANT_A: TenantFixture = {
  org: ORG.easymo,
  customer: USER.aline,
  staff: USER.jean,
  admin: USER.grace,
  vendor: USER.eric,
  driverUser: "00000000-0000-4000-8000-0000000000d0",
  business: "c0000000-0000-4000-8000-000000000001",
  venue: "c0000000-0000-4000-8000-000000000002",
  conversation: id(0, "a"),
  ticket: id(1, "a"),
  order: id(2, "a"),
  payment: id(3, "a"),
  momoRef: "PROBE-A1",
  driver: id(4, "a"),
  tariff: id(5, "a"),
  ride: id(6, "a"),
  openRide: id(7, "a"),
  reservation: id(8, "a"),
  inquiry: id(9, "a"),
  insurer: id(10, "a"),
  insuranceTariff: id(11, "a"),
};

/** Beaver (org B): its seeded staff and customer, and the roles added here. */
export const TENANT_B: TenantFixture = {
  org: ORG.beaver,
  customer: USER.nina,
  staff: USER.paul,
  admin: "00000000-0000-4000-8000-000000000012",
  vendor: "00000000-0000-4000-8000-000000000013",
  driverUser: "00000000-0000-4000-8000-000000000014",
  business: "d0000000-0000-4000-8000-000000000001",
  venue: "d0000000-0000-4000-8000-000000000001",
  conversation: id(0, "b"),
  ticket: id(1, "b"),
  order: id(2, "b"),
  payment: id(3, "b"),
  momoRef: "PROBE-B1",
  driver: id(4, "b"),
  tariff: id(5, "b"),
  ride: id(6, "b"),
  openRide: id(7, "b"),
  reservation: id(8, "b"),
  inquiry: id(9, "b"),
  insurer: id(10, "b"),
  insuranceTariff: id(11, "b"),
};

/** A signed-up person who belongs to no org. */
export const STRANGER = "00000000-0000-4000-8000-000000000098";

// People the seed lacks: Beaver's admin, vendor and driver, and the stranger.
const NEW_PEOPLE: [string, string, string, string | null, string][] = [
  [TENANT_B.admin, "+250788000012", "Beatrice Admin", ORG.beaver, "admin"],
  [TENANT_B.vendor, "+250788000013", "Ben Vendor", ORG.beaver, "vendor"],
  [TENANT_B.driverUser, "+250788000014", "Bruno Driver", ORG.beaver, "vendor"],
  [STRANGER, "+250788000098", "Sam Stranger", null, ""],
];

/** Adds the people and rows of both tenants, as the connecting role. */
export async function seedTenantFixtures(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    for (const [user, phone, name, org, role] of NEW_PEOPLE) {
      await tx.query("insert into auth.users (id, phone) values ($1, $2)", [user, phone.slice(1)]);
      await tx.query(
        "insert into public.profiles (id, phone, display_name) values ($1, $2, $3)",
        [user, phone, name],
      );
      if (org) {
        await tx.query(
          "insert into public.org_members (org_id, user_id, role) values ($1, $2, $3)",
          [org, user, role],
        );
      }
    }
    await tx.query("update public.businesses set owner_user_id = $2 where id = $1", [
      TENANT_B.business,
      TENANT_B.vendor,
    ]);
    // Beaver's warehouse takes bookings too (EasyMO's café has hours and seats from the seed),
    // every day 08:00-22:00 in these tests, in place of the seed's shop hours.
    await tx.query("delete from public.venue_hours where business_id = $1", [TENANT_B.venue]);
    await tx.query(
      `insert into public.venue_hours (org_id, business_id, weekday, opens, closes)
       select $1, $2, d, '08:00', '22:00' from generate_series(1, 7) d`,
      [TENANT_B.org, TENANT_B.venue],
    );
    await tx.query(
      `insert into public.venue_capacity (org_id, business_id, seats_per_slot, slot_minutes, max_party)
       values ($1, $2, 10, 30, 8)`,
      [TENANT_B.org, TENANT_B.venue],
    );
    for (const [t, tag] of [[TENANT_A, "a"], [TENANT_B, "b"]] as const) {
      await tx.exec(tenantRows(t, tag));
      await tx.exec(broadcastRows(t, tag));
    }
  });
}

// A broadcast of each tenant: a template, its customer's opt-in and opt-out, a campaign staff
// scheduled and its send to the customer; an API its staff registered and an automation they
// deployed (rows that name a person, for the person-reference checks).
function broadcastRows(t: TenantFixture, tag: "a" | "b"): string {
  const org = `'${t.org}'`, customer = `'${t.customer}'`, staff = `'${t.staff}'`;
  const template = `'${id(15, tag)}'`, campaign = `'7f000000-0000-4000-8000-0000000000${tag}2'`;
  return `
    insert into public.broadcast_templates (id, org_id, name, language, meta_status)
    values (${template}, ${org}, 'probe_offer', 'en', 'approved');
    insert into public.marketing_opt_ins
      (org_id, user_id, opted_in_at, channel, agreed_text, recorded_by)
    values (${org}, ${customer}, now(), 'paper', 'Yes to offers', ${staff})
    on conflict (org_id, user_id) do update set recorded_by = excluded.recorded_by;
    insert into public.marketing_opt_outs (org_id, user_id, opted_out_at, channel, said)
    values (${org}, ${customer}, now(), 'whatsapp', 'STOP');
    insert into public.broadcast_campaigns
      (id, org_id, template_id, requested_at, send_at, estimated_reach, created_by)
    values (${campaign}, ${org}, ${template}, now(), now(), 1, ${staff});
    insert into public.broadcast_sends (campaign_id, org_id, user_id, status)
    values (${campaign}, ${org}, ${customer}, 'sent');
    insert into public.api_sources (org_id, name, kind, document, document_hash, base_url, created_by)
    values (${org}, 'probeapi', 'openapi', '{}', repeat('0', 64), 'https://api.example.com', ${staff});
    insert into public.automations (org_id, name, trigger, event, actions, created_by)
    values (${org}, 'probe automation', '{"event": "message_received"}', 'message_received',
      '[]', ${staff});`;
}

// Every value is a fixture constant (uuids, digits), so the script is built as text.
function tenantRows(t: TenantFixture, tag: "a" | "b"): string {
  const q = (value: string) => `'${value}'`;
  const org = q(t.org), customer = q(t.customer), staff = q(t.staff);
  const product = q(id(12, tag)), outbox = q(id(13, tag)), openPayment = q(id(14, tag));
  const phone = (user: string) => `(select phone from public.profiles where id = '${user}')`;
  const plate = tag === "a" ? "RZ 901 A" : "RZ 902 B";
  return `
    insert into public.conversations (id, org_id, user_id, channel, status, assigned_staff_id)
    values (${q(t.conversation)}, ${org}, ${customer}, 'web', 'handoff', ${staff});
    insert into public.messages (org_id, conversation_id, user_id, direction, sender, body)
    values (${org}, ${q(t.conversation)}, ${customer}, 'inbound', 'user', 'hello');
    insert into public.staff_tickets
      (id, org_id, convo_id, requester_user_id, channel, reason, summary, status, assigned_to)
    values (${q(t.ticket)}, ${org}, ${q(t.conversation)}, ${customer}, 'inbox', 'help', 'help',
            'claimed', ${staff});
    insert into public.ticket_notes (ticket_id, org_id, author_id, body)
    values (${q(t.ticket)}, ${org}, ${staff}, 'called back');
    insert into public.notification_outbox (org_id, ticket_id, channel, target, body, created_by)
    values (${org}, ${q(t.ticket)}, 'sms', '+250788000000', 'new ticket', ${customer});
    insert into public.analytics_events (org_id, event, user_id, convo_id)
    values (${org}, 'probe.fixture', ${customer}, ${q(t.conversation)});
    insert into public.products (id, org_id, business_id, sku, name, price, qty)
    values (${product}, ${org}, ${q(t.business)}, 'PROBE-${tag}', 'Probe item', 1000, 10);
    insert into public.orders (id, org_id, business_id, customer_id, total)
    values (${q(t.order)}, ${org}, ${q(t.business)}, ${customer}, 1000);
    insert into public.order_items (order_id, org_id, product_id, sku, name, qty, unit_price, line_total)
    values (${q(t.order)}, ${org}, ${product}, 'PROBE-${tag}', 'Probe item', 1, 1000, 1000);
    insert into public.proformas (org_id, business_id, customer_id, customer_name, lines, total,
                                  currency, valid_until)
    values (${org}, ${q(t.business)}, ${customer}, 'Probe School',
            '[{"sku": "PROBE-${tag}", "name": "Probe item", "qty": 1, "unit_price": 1000}]', 1000,
            'RWF', now() + interval '14 days');
    insert into public.payments (id, org_id, created_by, payer_id, payer_phone, payee_phone, amount,
                                 momo_ref, expires_at, order_id)
    values (${q(t.payment)}, ${org}, ${customer}, ${customer}, '+250788000001', '+250788000004',
            1000, ${q(t.momoRef)}, '2100-01-01T00:00:00Z', ${q(t.order)});
    insert into public.staff_tickets (org_id, requester_user_id, channel, reason, summary, payment_id)
    values (${org}, ${customer}, 'inbox', 'payment', 'confirm payment', ${q(t.payment)});
    insert into public.payment_events (org_id, payment_id, source, dedupe_key, momo_ref,
                                       reported_status, amount)
    values (${org}, ${q(t.payment)}, 'callback', 'probe-${tag}', ${
    q(t.momoRef)
  }, 'unmatched', 1000);
    insert into public.sms_forwarders (device_id, org_id, label, created_by)
    values ('probe-device-${tag}', ${org}, 'till', ${staff});
    insert into public.sms_inbox (org_id, device_id, raw_text, text_sha256, match_status, amount)
    values (${org}, 'probe-device-${tag}', 'You have received 1000 RWF',
            encode(sha256('probe-${tag}'::bytea), 'hex'), 'unmatched', 1000);
    insert into public.wa_contacts (wa_id, org_id, last_inbound_at)
    values (substr(${phone(t.customer)}, 2), ${org}, '2026-01-01T00:00:00Z');
    insert into public.wa_outbox (id, org_id, to_wa_id, kind, body, idempotency_key, conversation_id)
    values (${outbox}, ${org}, substr(${phone(t.vendor)}, 2), 'text', '{}', 'probe-${tag}',
            ${q(t.conversation)});
    insert into public.market_vendor_inquiries (id, org_id, user_id, user_phone, request_type,
                                                request_summary, expires_at)
    values (${q(t.inquiry)}, ${org}, ${customer}, ${phone(t.customer)}, 'product', 'paper',
            '2100-01-01T00:00:00Z');
    insert into public.market_vendor_inquiry_messages (inquiry_id, org_id, business_id, vendor_wa_id,
      outbox_id, sent_at, reply_status, replied_at)
    values (${q(t.inquiry)}, ${org}, ${q(t.business)}, substr(${phone(t.vendor)}, 2), ${outbox},
            '2026-01-01T10:00:00Z', 'yes', '2026-01-01T10:05:00Z');
    insert into public.market_vendor_feedback (org_id, business_id, inquiry_id, user_id,
                                               feedback_type, rating)
    values (${org}, ${q(t.business)}, ${q(t.inquiry)}, ${customer}, 'accurate', 5);
    insert into public.drivers (id, org_id, user_id, display_name, phone, vehicle_type, plate,
                                available_until)
    values (${q(t.driver)}, ${org}, ${q(t.driverUser)}, 'Probe Driver', ${phone(t.driverUser)},
            'moto', '${plate}', '2100-01-01T00:00:00Z');
    insert into private.driver_locations (driver_id, lat, lng) values (${
    q(t.driver)
  }, -1.95, 30.06);
    insert into public.tariffs (id, org_id, vehicle_type, version, base_fare, per_km, per_minute,
      minimum_fare, speed_kmh, peak_speed_kmh, night_speed_kmh, effective_from)
    values (${q(t.tariff)}, ${org}, 'moto', 9, 100, 100, 10, 100, 30, 20, 40,
            '2026-01-01T00:00:00Z');
    insert into public.ride_requests (id, org_id, rider_id, vehicle_type, pickup_lat, pickup_lng,
      dest_lat, dest_lng, tariff_id, status, matched_driver_id, matched_at, expires_at)
    values (${q(t.ride)}, ${org}, ${customer}, 'moto', -1.95, 30.06, -1.96, 30.1, ${q(t.tariff)},
            'matched', ${q(t.driver)}, '2026-01-01T00:00:00Z', '2100-01-01T00:00:00Z'),
           (${q(t.openRide)}, ${org}, ${customer}, 'moto', -1.95, 30.06, -1.96, 30.1,
            ${q(t.tariff)}, 'open', null, null, '2100-01-01T00:00:00Z');
    insert into public.ride_offers (org_id, request_id, driver_id, expires_at)
    values (${org}, ${q(t.openRide)}, ${q(t.driver)}, '2100-01-01T00:00:00Z');
    insert into public.payments (id, org_id, created_by, payer_id, payer_phone, payee_phone, amount,
                                 momo_ref, expires_at, ride_request_id)
    values (${openPayment}, ${org}, ${customer}, ${customer}, '+250788000001', '+250788000004',
            1500, '${t.momoRef}R', '2100-01-01T00:00:00Z', ${q(t.ride)});
    -- Monday 4 January 2100, 12:00 in Kigali: open, on a slot, and in the future for a while.
    insert into public.reservations (id, org_id, business_id, customer_id, name, phone, party_size,
                                     slot_start)
    values (${q(t.reservation)}, ${org}, ${q(t.venue)}, ${customer}, 'Probe', ${phone(t.customer)},
            2, '2100-01-04T10:00:00Z');
    insert into public.insurers (id, org_id, name) values (${
    q(t.insurer)
  }, ${org}, 'Probe Insurer');
    insert into public.insurance_tariffs (id, org_id, insurer_id, product, category, usage, cover,
      version, rate_basis, base_rate_rwf, period_days, effective_from)
    values (${q(t.insuranceTariff)}, ${org}, ${q(t.insurer)}, 'travel', 'regional', 'private',
            'standard', 1, 'fixed', 1000, 1, '2026-01-01T00:00:00Z');
    insert into public.insurance_quotes (org_id, customer_id, request_id, insurer_id, tariff_id,
      tariff_version, product, category, usage, cover, coverage_days, base_rwf, tax_rwf, fees_rwf,
      premium_rwf, priced_at, valid_until)
    values (${org}, ${customer}, gen_random_uuid(), ${q(t.insurer)}, ${q(t.insuranceTariff)}, 1,
            'travel', 'regional', 'private', 'standard', 1, 1000, 180, 0, 1180,
            '2026-06-01T00:00:00Z', '2026-06-08T00:00:00Z');
    insert into public.document_extractions (org_id, user_id, conversation_id, document_type,
      provider, fields, field_confidence, confidence, source_bucket, source_path)
    values (${org}, ${customer}, ${q(t.conversation)}, 'id_card', 'tesseract', '{}', '{}', 0.9,
            'media', ${org} || '/' || ${q(t.conversation)} || '/id.jpg');
    insert into storage.objects (bucket_id, name)
    values ('media', ${org} || '/' || ${q(t.conversation)} || '/id.jpg');
    insert into public.legal_cases (org_id, client_id, category, summary, client_name,
      client_phone)
    values (${org}, ${customer}, 'other', 'A probe case, filed by the fixtures.', 'Probe',
            ${phone(t.customer)});
    with kit as (
      insert into public.brand_kits (org_id, name, palette)
      values (${org}, 'Probe kit', '{#FFFFFF}') returning id
    )
    insert into public.video_jobs (org_id, requester_id, model, size, seconds, prompt, prompt_text,
                                   brand_kit_id)
    select ${org}, ${staff}, 'sora-2', '1280x720', 4, '{}', 'Probe clip', id from kit;
  `;
}
