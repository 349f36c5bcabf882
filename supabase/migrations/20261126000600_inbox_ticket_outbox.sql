-- A staff ticket that must not be lost is outbound work like any other (issue 23, item 9c).
--
-- A WhatsApp message given up after its retries owes staff a ticket. It used to be opened by
-- calling notify_staff after the message was marked failed; when that call failed (a rate
-- limit, a timeout) the ticket was gone. Now the request is a notification_outbox row on the
-- 'inbox' channel, written in the transaction that marks the message failed, and the
-- notification dispatcher opens the ticket (through notify_staff) with the outbox's leases,
-- backoff and attempts, like a Slack or SMS message.
--
-- ticket_request: for 'inbox' rows, the ticket to open:
--   {key, reason, summary, priority, convo_id?}; `key` is notify_staff's idempotency key, so a
--   retried row opens one ticket, and at most one row per key waits to be sent (a key staged
--   again after its row was sent replays the same ticket; after it failed, tries again).
-- ticket_id: set once the ticket is open (as for Slack/SMS rows, the ticket they are about).
alter table public.notification_outbox
  drop constraint notification_outbox_channel_check,
  add constraint notification_outbox_channel_check check (channel in ('slack', 'sms', 'inbox')),
  add column ticket_request jsonb,
  add constraint notification_outbox_ticket_request_check check (
    (channel = 'inbox') = (ticket_request is not null)
    and (ticket_request is null or (
      jsonb_typeof(ticket_request) = 'object'
      and length(ticket_request ->> 'key') between 1 and 255
    ))
  );

create unique index notification_outbox_ticket_request_key_idx
  on public.notification_outbox ((ticket_request ->> 'key'))
  where channel = 'inbox' and status = 'recorded';

-- Only the platform stages ticket requests: the dispatcher opens them as the service role,
-- so a customer's insert could name another conversation, or take a key first and so
-- silence the real request.
create policy notification_outbox_insert_not_inbox on public.notification_outbox
  as restrictive for insert to authenticated
  with check (channel <> 'inbox');
