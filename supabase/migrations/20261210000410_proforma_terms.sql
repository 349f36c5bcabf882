-- A proforma's terms are the tenant's: how many days its prices hold (`orgs.proforma_valid_days`,
-- 14 unless the tenant says otherwise), and, for a school or company that files it, the buyer's
-- TIN (Rwanda's taxpayer number: 9 digits) printed under its name when given.

alter table public.orgs
  add column proforma_valid_days int not null default 14
    constraint orgs_proforma_valid_days_check check (proforma_valid_days between 1 and 365);

comment on column public.orgs.proforma_valid_days is
  'Days a proforma''s prices hold from its issue (proforma_issue).';

alter table public.proformas
  add column customer_tin text
    constraint proformas_customer_tin_check check (customer_tin ~ '^[0-9]{9}$');

comment on column public.proformas.customer_tin is
  'The buyer''s taxpayer identification number (TIN, 9 digits), when the proforma names one.';
