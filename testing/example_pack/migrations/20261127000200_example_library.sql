-- The example library pack (testing/example_pack): a customer's request to borrow a
-- book, held by one org. Customers see and place their own; the org's staff see all
-- of the org's; the pack's schedule (as the service role) expires stale ones.
create table public.example_book_requests (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.orgs (id),
  user_id uuid not null,
  title text not null check (length(title) between 1 and 120),
  status text not null default 'requested' check (status in ('requested', 'expired')),
  requested_at timestamptz not null
);
create index example_book_requests_org_idx on public.example_book_requests (org_id, status);
alter table public.example_book_requests enable row level security;

create policy example_book_requests_select on public.example_book_requests for select
  to authenticated
  using (user_id = (select auth.uid()) or org_id in (select private.my_staff_org_ids()));
create policy example_book_requests_insert on public.example_book_requests for insert
  to authenticated
  with check (user_id = (select auth.uid()) and org_id in (select private.my_org_ids()));
