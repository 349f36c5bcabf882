-- Ordering agents (issue 13, item 4): medicines that need a prescription are
-- flagged on the product, so Pharmacy marks them (℞) and the order notes it;
-- a pharmacist checks the prescription before the order is prepared.
alter table public.products
  add column requires_prescription boolean not null default false;

comment on column public.products.requires_prescription is
  'Sold only against a prescription a pharmacist has checked (Pharmacy marks it ℞).';
