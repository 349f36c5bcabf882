-- Buy & sell without dead ends (issue 13): each vendor is asked in their own
-- language (what was sent is recorded, so their later messages follow it),
-- and the vendor a buyer picks is recorded: only then are the buyer's and
-- the vendor's contacts shared, once per pick.

alter table public.market_vendor_inquiry_messages
  -- The vendor's language: the owner's profile locale, else the profile of the
  -- shop's WhatsApp number, else Kinyarwanda (docs/whatsapp.md).
  add column vendor_language text not null default 'rw'
    check (vendor_language in ('en', 'rw', 'fr')),
  -- When the buyer chose this vendor (contacts shared); null until then.
  add column chosen_at timestamptz;

-- A buyer's choices, newest first, for the Admin Inbox and metrics.
create index market_vendor_inquiry_messages_chosen_idx
  on public.market_vendor_inquiry_messages (inquiry_id, chosen_at)
  where chosen_at is not null;
