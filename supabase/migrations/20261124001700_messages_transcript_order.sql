-- The Admin Inbox shows a conversation's messages in the order they happened.
-- A turn's replies are stored in one transaction, where `now()` is the same
-- for every row, so `order by created_at, id` left them to their random ids:
-- staff read "Pick an insurer" before the quotes it refers to. A sequence
-- number increases with every insert and breaks the tie in insert order.
alter table public.messages add column seq bigint generated always as identity;

drop index public.messages_conversation_id_idx;
create index messages_conversation_order_idx on public.messages (conversation_id, created_at, seq);
