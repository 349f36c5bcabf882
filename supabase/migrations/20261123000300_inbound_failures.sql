-- One bad inbound message never blocks the others (issue 10, item 2).
--
-- flags: what the webhook had to repair before storing, e.g. 'text_sanitised'
--   (NUL or lone surrogates replaced by U+FFFD) or 'timestamp_replaced' (a
--   timestamp Postgres cannot hold, or from the future: the receive time is used).
-- raw_payload: the message as Meta sent it, as escaped JSON text, when it was repaired.
-- next_attempt_at: a failed or rate-limited attempt waits until then (backoff);
--   null means due now.
-- deferrals: attempts put off because a tool was rate limited; they do not count
--   as failures but are bounded too.
-- A message that used up its attempts is 'failed' with last_error as its reason,
-- and staff get a ticket for it.
alter table private.wa_inbound
  add column flags text[] not null default '{}',
  add column raw_payload text,
  add column next_attempt_at timestamptz,
  add column deferrals int not null default 0;
