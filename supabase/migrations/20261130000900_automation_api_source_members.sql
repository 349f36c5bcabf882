-- The person who registered a tenant's API or deployed an automation is a
-- member of that row's org, as every other person a row names
-- (20261126000210_person_refs_same_org.sql): the database refuses a row that
-- names another org's member. A member who leaves keeps the row; it then
-- names nobody (set null), as the rows' own keys to profiles do.

alter table public.api_sources
  add constraint api_sources_created_by_member_fkey
  foreign key (org_id, created_by) references public.org_members (org_id, user_id)
  on delete set null (created_by);
create index api_sources_org_created_by_idx on public.api_sources (org_id, created_by);

alter table public.automations
  add constraint automations_created_by_member_fkey
  foreign key (org_id, created_by) references public.org_members (org_id, user_id)
  on delete set null (created_by);
create index automations_org_created_by_idx on public.automations (org_id, created_by);
