-- A user's messages go out in the order they were queued, which `created_at`
-- cannot tell: `clock_timestamp()` ticks in milliseconds on PGlite, and two
-- messages queued in one millisecond (a certificate's PDF, then its link) were
-- ordered by their random ids, so half the time the link went first. A
-- sequence number increases with every insert, inside a transaction too.
alter table public.wa_outbox add column seq bigint generated always as identity;

drop index public.wa_outbox_to_idx;
create index wa_outbox_to_seq_idx on public.wa_outbox (to_wa_id, seq);
