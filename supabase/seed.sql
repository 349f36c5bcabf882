-- Seed data for local development and tests: two tenants so isolation can be
-- seen (EasyMO and Beaver's Choice Paper Company), their people, and shops
-- around Kigali with stock. Fixed ids keep tests and docs stable.

insert into auth.users (id, phone, email) values
  ('00000000-0000-4000-8000-000000000001', '250788000001', 'aline@example.rw'),
  ('00000000-0000-4000-8000-000000000002', '250788000002', 'jean.staff@easymo.rw'),
  ('00000000-0000-4000-8000-000000000003', '250788000003', 'grace.admin@easymo.rw'),
  ('00000000-0000-4000-8000-000000000004', '250788000004', 'eric.pharmacy@example.rw'),
  ('00000000-0000-4000-8000-000000000005', '250788000005', 'diane.cafe@example.rw'),
  ('00000000-0000-4000-8000-000000000010', '250788000010', 'paul.staff@beaver.example'),
  ('00000000-0000-4000-8000-000000000011', '250788000011', 'nina@beaver.example')
on conflict (id) do nothing;

insert into public.orgs (id, slug, name, tool_policy) values
  ('a0000000-0000-4000-8000-000000000001', 'easymo', 'EasyMO', '{}'),
  ('b0000000-0000-4000-8000-000000000002', 'beaver-paper', 'Beaver''s Choice Paper Company',
   '{"disabled_tools": ["search_businesses_with_tags"],
     "rate_limits": {"notify_staff": {"limit": 30, "window_sec": 60}}}')
on conflict (id) do nothing;

insert into public.profiles (id, phone, display_name, locale) values
  ('00000000-0000-4000-8000-000000000001', '+250788000001', 'Aline Uwase', 'rw'),
  ('00000000-0000-4000-8000-000000000002', '+250788000002', 'Jean Habimana', 'en'),
  ('00000000-0000-4000-8000-000000000003', '+250788000003', 'Grace Mukamana', 'en'),
  ('00000000-0000-4000-8000-000000000004', '+250788000004', 'Eric Niyonzima', 'rw'),
  ('00000000-0000-4000-8000-000000000005', '+250788000005', 'Diane Ingabire', 'fr'),
  ('00000000-0000-4000-8000-000000000010', '+250788000010', 'Paul Staff', 'en'),
  ('00000000-0000-4000-8000-000000000011', '+250788000011', 'Nina Buyer', 'en')
on conflict (id) do nothing;

insert into public.org_members (org_id, user_id, role) values
  ('a0000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000001', 'customer'),
  ('a0000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', 'staff'),
  ('a0000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000003', 'admin'),
  ('a0000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000004', 'vendor'),
  ('a0000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000005', 'vendor'),
  ('b0000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000010', 'staff'),
  ('b0000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000011', 'customer')
on conflict do nothing;

-- Shops at real Kigali neighbourhood coordinates.
insert into public.businesses
  (id, org_id, owner_user_id, name, category, tags, address, area, lat, lng, phone) values
  ('c0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001',
   '00000000-0000-4000-8000-000000000004', 'Pharmacie Conseil Kimihurura', 'pharmacy',
   '{pharmacy,medicine,paracetamol,vitamins}', 'KG 7 Ave', 'Kimihurura', -1.9536, 30.0925, '+250788000004'),
  ('c0000000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000001',
   '00000000-0000-4000-8000-000000000005', 'Café Nyamirambo', 'restaurant',
   '{coffee,brochettes,lunch}', 'KN 2 St', 'Nyamirambo', -1.9811, 30.0444, '+250788000005'),
  ('c0000000-0000-4000-8000-000000000003', 'a0000000-0000-4000-8000-000000000001',
   null, 'Kicukiro Hardware', 'hardware',
   '{cement,paint,tools}', 'KK 15 Rd', 'Kicukiro', -1.9706, 30.1044, '+250788000006'),
  ('d0000000-0000-4000-8000-000000000001', 'b0000000-0000-4000-8000-000000000002',
   null, 'Beaver Paper Warehouse', 'paper',
   '{paper,cardstock,envelopes}', 'Kigali Special Economic Zone', 'Masoro', -1.9292, 30.1389, null)
on conflict (id) do nothing;

-- More vendors for the buy & sell concierge, each answering on WhatsApp.
insert into auth.users (id, phone, email) values
  ('00000000-0000-4000-8000-000000000006', '250788000006', 'claude.hardware@example.rw'),
  ('00000000-0000-4000-8000-000000000007', '250788000007', 'olive.tech@example.rw'),
  ('00000000-0000-4000-8000-000000000008', '250788000008', 'patrick.phones@example.rw'),
  ('00000000-0000-4000-8000-000000000009', '250788000009', 'sandrine.pharma@example.rw')
on conflict (id) do nothing;
insert into public.profiles (id, phone, display_name, locale) values
  ('00000000-0000-4000-8000-000000000006', '+250788000006', 'Claude Mugisha', 'rw'),
  ('00000000-0000-4000-8000-000000000007', '+250788000007', 'Olive Uwimana', 'en'),
  ('00000000-0000-4000-8000-000000000008', '+250788000008', 'Patrick Nkusi', 'fr'),
  ('00000000-0000-4000-8000-000000000009', '+250788000009', 'Sandrine Iradukunda', 'rw')
on conflict (id) do nothing;
insert into public.org_members (org_id, user_id, role) values
  ('a0000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000006', 'vendor'),
  ('a0000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000007', 'vendor'),
  ('a0000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000008', 'vendor'),
  ('a0000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000009', 'vendor')
on conflict do nothing;
update public.businesses set owner_user_id = '00000000-0000-4000-8000-000000000006'
  where id = 'c0000000-0000-4000-8000-000000000003';
insert into public.businesses
  (id, org_id, owner_user_id, name, category, tags, address, area, lat, lng, phone) values
  ('c0000000-0000-4000-8000-000000000004', 'a0000000-0000-4000-8000-000000000001',
   '00000000-0000-4000-8000-000000000007', 'Kigali Tech Hub', 'electronics',
   '{laptop,hp,dell,used,charger,electronics}', 'KN 4 Ave', 'Nyarugenge (CBD)', -1.9441, 30.0619, '+250788000007'),
  ('c0000000-0000-4000-8000-000000000005', 'a0000000-0000-4000-8000-000000000001',
   '00000000-0000-4000-8000-000000000008', 'Remera Phone Market', 'electronics',
   '{phone,smartphone,samsung,tecno,charger,laptop,used}', 'KG 11 Ave', 'Remera', -1.9557, 30.1123, '+250788000008'),
  ('c0000000-0000-4000-8000-000000000006', 'a0000000-0000-4000-8000-000000000001',
   '00000000-0000-4000-8000-000000000009', 'Pharmacie Kacyiru', 'pharmacy',
   '{pharmacy,medicine,paracetamol,amoxicillin,vitamins}', 'KG 7 Ave', 'Kacyiru', -1.9355, 30.0838, '+250788000009')
on conflict (id) do nothing;
-- Vendors answer on the WhatsApp number of their shop.
update public.businesses set owner_whatsapp = substr(phone, 2) where phone is not null;

insert into public.products (org_id, business_id, sku, name, price, qty, unit) values
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'PARA-500', 'Paracetamol 500mg (10 tablets)', 500, 120, 'pack'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'VITC-1000', 'Vitamin C 1000mg', 3500, 20, 'tube'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000002', 'BRO-BEEF', 'Beef brochette', 1500, 40, 'stick'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000002', 'CAF-LAT', 'Café latte', 2000, 100, 'cup'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000003', 'CEM-50', 'Cement 50kg', 12500, 60, 'bag'),
  ('b0000000-0000-4000-8000-000000000002', 'd0000000-0000-4000-8000-000000000001', 'A4-500', 'A4 paper (500 sheets)', 6500, 300, 'ream'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000004', 'HP-840-G5', 'HP EliteBook 840 G5 (used)', 350000, 3, 'unit'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000004', 'CHG-USB-C', 'USB-C laptop charger 65W', 18000, 12, 'unit'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000006', 'PARA-500', 'Paracetamol 500mg (10 tablets)', 600, 200, 'pack'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000006', 'AMOX-500', 'Amoxicillin 500mg (21 capsules)', 2500, 0, 'pack'),
  ('b0000000-0000-4000-8000-000000000002', 'd0000000-0000-4000-8000-000000000001', 'CARD-200', 'Cardstock 200gsm', 9000, 80, 'pack')
on conflict do nothing;

-- Local sign-in (dev server and `supabase start`): every seeded person's
-- password is "easymo-dev", hashed the way Supabase Auth stores it (bcrypt).
update auth.users set encrypted_password = extensions.crypt('easymo-dev', extensions.gen_salt('bf'))
where id in (select id from public.profiles) and encrypted_password is null;
