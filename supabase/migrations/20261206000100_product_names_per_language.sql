-- A product's name in each language its sellers' customers read (language code → name):
-- "A4 paper (500 sheets)" is "Impapuro A4 (impapuro 500)" to a Kinyarwanda reader and
-- "Papier A4 (500 feuilles)" to a French one. `name` stays the name it is stocked and
-- ordered under (order lines, the venue's messages); a language missing here reads `name`.
alter table public.products
  add column names jsonb not null default '{}'::jsonb;
alter table public.products
  add constraint products_names_object check (
    jsonb_typeof(names) = 'object' and not jsonb_path_exists(names, '$.* ? (@.type() != "string")')
  );
