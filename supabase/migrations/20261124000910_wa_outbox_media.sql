-- Outbound WhatsApp media (issue 14): the outbox also queues image and
-- document messages (`messages.ts`: imageMessage, documentMessage), sent by
-- a link Meta fetches (a signed Storage URL) or an uploaded media id.
alter table public.wa_outbox drop constraint wa_outbox_kind_check;
alter table public.wa_outbox add constraint wa_outbox_kind_check
  check (kind in ('text', 'buttons', 'list', 'template', 'image', 'document'));
