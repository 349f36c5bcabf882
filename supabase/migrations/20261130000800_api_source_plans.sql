-- Generated tools: the plans a registration made, kept next to the document they came from.
--
-- Registration validates the document and maps every exposed operation (hundreds of
-- milliseconds for a large API); it now also stores the result: per tool its name, the input
-- and output JSON Schema it is listed with, a checked example and how it is sent. Every other
-- instance reads these instead of validating and mapping the document again, so a cold sync of
-- 200 tools costs milliseconds. `plans` is written in the same statement as `document`,
-- `document_hash` and `expose`, so it always belongs to them; a row without plans (registered
-- before this migration) is mapped from its document as before.
--
-- The column follows the row's policies (staff of the org). A plan gives staff nothing their
-- document does not: the functions accept a stored plan only under a name of the source's own
-- tools, and every call still goes through the SSRF-checked fetcher and the tenant's policy.

alter table public.api_sources
  add column plans jsonb
    constraint api_sources_plans_check
      check (plans is null or (jsonb_typeof(plans) = 'object' and pg_column_size(plans) <= 32 * 1024 * 1024));

comment on column public.api_sources.plans is
  'The operation plans registration made from document (version, tools with their JSON Schemas); null: map document.';
