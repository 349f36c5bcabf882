-- Replies leave from the number the person wrote to. A tenant may own several WhatsApp numbers;
-- `wa_contacts.phone_number_id` records the business number (Meta's phone-number id) a person
-- last wrote to in this tenant, moved with their newest message as the window is, and the
-- dispatcher sends their messages (replies, notices) from it. Null for a person who never wrote
-- (the tenant's first number sends). Not a key to `tenant_whatsapp_numbers`: a number removed
-- later must not refuse the person's row; the sender checks the number is still the tenant's.

alter table public.wa_contacts
  add column phone_number_id text
    constraint wa_contacts_phone_number_id_check check (phone_number_id ~ '^[0-9]{1,32}$');

comment on column public.wa_contacts.phone_number_id is
  'The tenant''s business number (Meta phone_number_id) the person last wrote to; replies leave from it.';

-- Contacts stored before: the number of their newest stored message, when it is still known.
update public.wa_contacts c set phone_number_id = latest.phone_number_id
  from (select distinct on (org_id, from_wa_id) org_id, from_wa_id, phone_number_id
          from private.wa_inbound
         where org_id is not null
         order by org_id, from_wa_id, sent_at desc) latest
 where latest.org_id = c.org_id and latest.from_wa_id = c.wa_id;
