-- Staff-only tools (issue 34): a tool's descriptor may say `auth: 'staff'`
-- (the org's staff and the service may call it; the pipeline refuses anyone
-- else before reading the arguments). The catalog records each tool's auth
-- level as the registry declares it, so its check admits the new level.
alter table public.service_tools drop constraint service_tools_auth_check;
alter table public.service_tools add constraint service_tools_auth_check
  check (auth in ('none', 'user', 'staff', 'service'));
