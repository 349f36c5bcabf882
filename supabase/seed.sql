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

-- Each tenant's own MoMo account, paid by charges that name no order, ride or payee:
-- EasyMO a MoMoPay merchant code, Beaver an MTN number.
-- EasyMO serves Rwanda: police 112, ambulance (SAMU) 912, fire brigade 111.
insert into public.orgs (id, slug, name, tool_policy, momo_merchant_code, momo_merchant_phone,
                         emergency_numbers) values
  ('a0000000-0000-4000-8000-000000000001', 'easymo', 'EasyMO', '{}', '300400', null,
   '[{"service": "police", "number": "112"}, {"service": "ambulance", "number": "912"},
     {"service": "fire", "number": "111"}]'),
  ('b0000000-0000-4000-8000-000000000002', 'beaver-paper', 'Beaver''s Choice Paper Company',
   -- Beaver's Choice enables only what a paper supplier runs: its shop's ordering and MoMo
   -- charges, the hand-off, its numbers and risk watch, invoices and proformas as PDFs, its customers'
   -- "STOP" (opting out of any message it may send), and its staff's own APIs and automations. Every other platform tool (rides, homes, videos, …) is off for it.
   '{"enabled_tools": ["analytics_log", "answer_venue_command", "api_credential_set",
       "api_source_list", "api_source_register", "api_source_remove", "api_url_allowlist_get",
       "api_url_allowlist_set", "automation_delete", "automation_list", "automation_pause",
       "automation_resume", "automation_runs", "automation_test", "deploy_automation",
       "fetch_tool_schemas", "funnel_report", "generate_pdf", "inventory_check", "list_tools",
       "marketing_opt_out",
       "momo_charge", "momo_charge_cancel", "notify_staff", "ocr_extract", "order_cancel",
       "order_create", "order_status_update", "payment_confirm_by_payee",
       "payment_confirm_by_staff", "payment_expire_due", "payment_record_sms", "payment_settle",
       "payment_status", "place_lookup", "proforma_issue", "proforma_pdf", "risk_alert_raised", "risk_scan", "search_supabase",
       "search_tools", "slack_notify", "slack_webhook_set"],
     "rate_limits": {"notify_staff": {"limit": 30, "window_sec": 60}}}',
   null, '+250788300500', '[]')
on conflict (id) do nothing;

-- What each tenant's agents speak as, where, and in which languages; and its
-- WhatsApp number, with the NAMES of the secrets holding its token and app
-- secret (EasyMO's are the single-number deployment's variables).
update public.orgs set brand_name = 'EasyMO', country = 'RW', time_zone = 'Africa/Kigali',
  currency = 'RWF', languages = '{en,rw,fr}' where slug = 'easymo' and brand_name is null;
update public.orgs set brand_name = 'Beaver''s Choice', country = 'RW',
  time_zone = 'Africa/Kigali', currency = 'RWF', languages = '{en,rw,fr}'
  where slug = 'beaver-paper' and brand_name is null;

insert into public.tenant_whatsapp_numbers
  (phone_number_id, org_id, display_number, token_secret_name, app_secret_name) values
  ('100000000000001', 'a0000000-0000-4000-8000-000000000001', '+250780000000',
   'WHATSAPP_TOKEN', 'WHATSAPP_APP_SECRET'),
  ('100000000000002', 'b0000000-0000-4000-8000-000000000002', '+250780000002',
   'WHATSAPP_TOKEN_BEAVER', 'WHATSAPP_APP_SECRET_BEAVER')
on conflict (phone_number_id) do nothing;

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

-- Jean writes to EasyMO's number as staff (the staff agents' menu), not as a customer.
insert into public.staff_whatsapp_numbers (org_id, phone, user_id) values
  ('a0000000-0000-4000-8000-000000000001', '+250788000002', '00000000-0000-4000-8000-000000000002')
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
   null, 'Beaver Paper Warehouse', 'shop',
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
  ('b0000000-0000-4000-8000-000000000002', 'd0000000-0000-4000-8000-000000000001', 'CARD-200', 'Cardstock 200gsm', 9000, 80, 'pack'),
  ('b0000000-0000-4000-8000-000000000002', 'd0000000-0000-4000-8000-000000000001', 'A3-500', 'A3 paper (500 sheets)', 13000, 40, 'ream'),
  ('b0000000-0000-4000-8000-000000000002', 'd0000000-0000-4000-8000-000000000001', 'ENV-C5-50', 'C5 envelopes (50)', 4000, 150, 'box'),
  ('b0000000-0000-4000-8000-000000000002', 'd0000000-0000-4000-8000-000000000001', 'A4-BOX-5', 'A4 printer paper box (5 reams)', 31000, 0, 'box')
on conflict do nothing;

-- Beaver's Choice names its stock in each language its customers write in.
update public.products set names = v.names::jsonb
from (values
  ('A4-500', '{"rw": "Impapuro A4 (impapuro 500)", "fr": "Papier A4 (500 feuilles)"}'),
  ('A3-500', '{"rw": "Impapuro A3 (impapuro 500)", "fr": "Papier A3 (500 feuilles)"}'),
  ('CARD-200', '{"rw": "Impapuro zikomeye 200gsm", "fr": "Papier cartonné 200 g/m²"}'),
  ('ENV-C5-50', '{"rw": "Amabahasha C5 (50)", "fr": "Enveloppes C5 (50)"}'),
  ('A4-BOX-5', '{"rw": "Ikarito y''impapuro A4 (impapuro 500 × 5)", "fr": "Carton de papier A4 (5 rames)"}')
) as v(sku, names)
where products.sku = v.sku and products.org_id = 'b0000000-0000-4000-8000-000000000002'
  and products.names = '{}'::jsonb;

-- Local sign-in (dev server and `supabase start`): every seeded person's
-- password is "easymo-dev", hashed the way Supabase Auth stores it (bcrypt).
update auth.users set encrypted_password = extensions.crypt('easymo-dev', extensions.gen_salt('bf'))
where id in (select id from public.profiles) and encrypted_password is null;

-- Commerce, rides and mobile money (issue 13) -----------------------------------
-- Cafés and restaurants with menus, opening hours and seats; more pharmacy
-- stock; a second hardware shop; two grocery shops; moto and cab drivers
-- around Kigali; moto and cab tariffs (an older version and the current one).
-- Prices are whole RWF. SKUs are internal: people see product names.

insert into public.businesses
  (id, org_id, owner_user_id, name, category, tags, address, area, lat, lng, phone) values
  ('c0000000-0000-4000-8000-000000000010', 'a0000000-0000-4000-8000-000000000001',
   null, 'Question Coffee Gishushu', 'restaurant',
   '{coffee,cafe,breakfast,pastries}', 'KG 8 Ave', 'Gishushu', -1.9545, 30.1001, '+250788000110'),
  ('c0000000-0000-4000-8000-000000000011', 'a0000000-0000-4000-8000-000000000001',
   null, 'Kimironko Brochettes & Grill', 'restaurant',
   '{brochettes,grill,chips,dinner}', 'KG 11 Ave', 'Kimironko', -1.9496, 30.1262, '+250788000111'),
  ('c0000000-0000-4000-8000-000000000012', 'a0000000-0000-4000-8000-000000000001',
   null, 'Kiyovu Garden Restaurant', 'restaurant',
   '{lunch,buffet,isombe,tilapia}', 'KN 67 St', 'Kiyovu (CBD)', -1.9504, 30.0628, '+250788000112'),
  ('c0000000-0000-4000-8000-000000000013', 'a0000000-0000-4000-8000-000000000001',
   null, 'Nyabugogo Hardware Depot', 'hardware',
   '{cement,iron,bars,nails,paint,tools}', 'KN 1 Rd', 'Nyabugogo', -1.9390, 30.0448, '+250788000113'),
  ('c0000000-0000-4000-8000-000000000014', 'a0000000-0000-4000-8000-000000000001',
   null, 'Kimironko Market Shop', 'shop',
   '{groceries,rice,sugar,oil,milk,drinks}', 'Kimironko Market', 'Kimironko', -1.9489, 30.1251, '+250788000114'),
  ('c0000000-0000-4000-8000-000000000015', 'a0000000-0000-4000-8000-000000000001',
   null, 'Remera Mini-Market', 'shop',
   '{groceries,bread,milk,drinks,soap}', 'KG 17 Ave', 'Remera', -1.9583, 30.1068, '+250788000115')
on conflict (id) do nothing;
update public.businesses set owner_whatsapp = substr(phone, 2)
where phone is not null and owner_whatsapp is null;

insert into public.products (org_id, business_id, sku, name, price, qty, unit) values
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000002', 'BRO-GOAT', 'Goat brochette', 1500, 40, 'stick'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000002', 'CHIPS', 'Chips (frites)', 1500, 50, 'plate'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000002', 'FANTA-50', 'Fanta 50cl', 800, 60, 'bottle'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000010', 'QC-CAP', 'Cappuccino', 2500, 200, 'cup'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000010', 'QC-AME', 'Americano', 2000, 200, 'cup'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000010', 'QC-TEA', 'African tea (icyayi)', 1500, 200, 'cup'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000010', 'QC-CROIS', 'Butter croissant', 1800, 30, 'piece'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000010', 'QC-AVO', 'Avocado toast', 5500, 25, 'plate'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000011', 'KB-BEEF', 'Beef brochettes (2 sticks)', 3000, 80, 'plate'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000011', 'KB-CHICK', 'Grilled chicken (quarter)', 4500, 40, 'plate'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000011', 'KB-PLANT', 'Grilled plantain (igitoki)', 1500, 60, 'plate'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000011', 'KB-PRIMUS', 'Primus 72cl', 1500, 120, 'bottle'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000011', 'KB-INYANGE', 'Inyange water 50cl', 500, 200, 'bottle'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000012', 'KG-BUFFET', 'Lunch buffet', 6000, 100, 'plate'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000012', 'KG-TILAPIA', 'Whole tilapia with ugali', 9000, 20, 'plate'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000012', 'KG-ISOMBE', 'Isombe with rice', 4000, 40, 'plate'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000012', 'KG-JUICE', 'Fresh passion juice', 2000, 60, 'glass'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'ORS-SACH', 'ORS oral rehydration salts (sachet)', 300, 150, 'sachet'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'AMOX-500', 'Amoxicillin 500mg (21 capsules)', 2800, 35, 'pack'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'IBU-400', 'Ibuprofen 400mg (10 tablets)', 800, 90, 'pack'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'COARTEM', 'Artemether/lumefantrine (Coartem) 24 tablets', 3500, 25, 'pack'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000006', 'ORS-SACH', 'ORS oral rehydration salts (sachet)', 300, 80, 'sachet'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000006', 'CETIRIZ', 'Cetirizine 10mg (10 tablets)', 1000, 40, 'pack'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000003', 'IRON-12', 'Iron bar 12mm (12 m)', 9500, 200, 'bar'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000003', 'PAINT-20', 'Emulsion paint 20L (white)', 38000, 15, 'bucket'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000003', 'NAILS-3', 'Nails 3 inch (1 kg)', 2000, 100, 'kg'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000013', 'CEM-50', 'Cement 50kg (CIMERWA)', 12000, 300, 'bag'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000013', 'IRON-10', 'Iron bar 10mm (12 m)', 7500, 400, 'bar'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000013', 'IRON-12', 'Iron bar 12mm (12 m)', 9000, 350, 'bar'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000013', 'PAINT-4', 'Gloss paint 4L', 14000, 40, 'tin'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000013', 'NAILS-4', 'Nails 4 inch (1 kg)', 1900, 150, 'kg'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000013', 'IRON-SHEET', 'Iron roofing sheet 3m (gauge 30)', 11000, 120, 'sheet'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000014', 'RICE-5', 'Rice 5kg', 7500, 60, 'bag'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000014', 'SUGAR-1', 'Sugar 1kg', 1600, 100, 'kg'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000014', 'OIL-3', 'Cooking oil 3L', 7000, 40, 'bottle'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000014', 'BEANS-1', 'Beans 1kg', 1200, 200, 'kg'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000014', 'MILK-1', 'Inyange milk 1L', 1000, 80, 'pack'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000015', 'BREAD', 'Bread (loaf)', 1500, 50, 'loaf'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000015', 'MILK-1', 'Inyange milk 1L', 1000, 60, 'pack'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000015', 'FANTA-50', 'Fanta 50cl', 700, 120, 'bottle'),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000015', 'SOAP', 'Bar soap (Sosoma)', 600, 90, 'bar')
on conflict do nothing;

-- EasyMO's menus named in Kinyarwanda and French too, as Kigali's menus write them: a customer
-- reads and orders them in their language (the stocked name still matches).
update public.products set names = v.names::jsonb
from (values
  ('BRO-BEEF', '{"rw": "Brochette y''inka", "fr": "Brochette de bœuf"}'),
  ('BRO-GOAT', '{"rw": "Brochette y''ihene", "fr": "Brochette de chèvre"}'),
  ('CHIPS', '{"rw": "Ifiriti", "fr": "Frites"}'),
  ('KB-BEEF', '{"rw": "Brochette z''inka (uduti 2)", "fr": "Brochettes de bœuf (2 piques)"}'),
  ('KB-CHICK', '{"rw": "Inkoko yokeje (igice cya kane)", "fr": "Poulet grillé (quart)"}'),
  ('KB-PLANT', '{"rw": "Igitoki cyokeje", "fr": "Banane plantain grillée"}'),
  ('KB-INYANGE', '{"rw": "Amazi ya Inyange 50cl", "fr": "Eau Inyange 50cl"}'),
  ('KG-BUFFET', '{"rw": "Bifeti ya saa sita", "fr": "Buffet du midi"}'),
  ('KG-ISOMBE', '{"rw": "Isombe n''umuceri", "fr": "Isombe avec riz"}'),
  ('KG-JUICE', '{"rw": "Umutobe wa marakuja", "fr": "Jus de fruit de la passion"}'),
  ('KG-TILAPIA', '{"rw": "Tilapiya yose n''ubugari", "fr": "Tilapia entier avec ugali"}'),
  ('QC-AVO', '{"rw": "Umugati na avoka", "fr": "Tartine d''avocat"}'),
  ('QC-CROIS', '{"fr": "Croissant au beurre"}'),
  ('QC-TEA', '{"rw": "Icyayi", "fr": "Thé africain (icyayi)"}')
) as v(sku, names)
where products.sku = v.sku and products.org_id = 'a0000000-0000-4000-8000-000000000001'
  and products.names = '{}'::jsonb;

-- Prescription-only medicines (Pharmacy marks them ℞).
update public.products set requires_prescription = true
where sku in ('AMOX-500', 'COARTEM') and requires_prescription = false;

-- Opening hours (Kigali time, ISO weekday 1 = Monday) and seats per slot.
insert into public.venue_hours (org_id, business_id, weekday, opens, closes)
select 'a0000000-0000-4000-8000-000000000001', v.business_id::uuid, d, v.opens::time, v.closes::time
from (values
  ('c0000000-0000-4000-8000-000000000002', '08:00', '22:00'),
  ('c0000000-0000-4000-8000-000000000010', '07:00', '20:00'),
  ('c0000000-0000-4000-8000-000000000011', '11:00', '24:00'),
  ('c0000000-0000-4000-8000-000000000012', '11:30', '22:30')
) as v (business_id, opens, closes), generate_series(1, 7) as d
on conflict do nothing;
-- Beaver's warehouse: weekdays 08:00-18:00, Saturday mornings, closed on Sunday.
insert into public.venue_hours (org_id, business_id, weekday, opens, closes)
select 'b0000000-0000-4000-8000-000000000002', 'd0000000-0000-4000-8000-000000000001',
  d, case when d = 6 then '09:00'::time else '08:00'::time end,
  case when d = 6 then '13:00'::time else '18:00'::time end
from generate_series(1, 6) as d
on conflict do nothing;
-- Where Beaver's warehouse delivers, and for how much (RWF); Nyamata and other towns are not
-- served. EasyMO's places have no delivery data: their customers are told so and offered a person.
insert into public.delivery_areas (org_id, business_id, area, fee)
select 'b0000000-0000-4000-8000-000000000002', 'd0000000-0000-4000-8000-000000000001', v.area, v.fee
from (values ('Masoro', 0), ('Kimironko', 1500), ('Remera', 2000), ('Gisozi', 2500),
             ('Kicukiro', 2500), ('Nyarugenge', 3000)) as v (area, fee)
on conflict do nothing;
insert into public.venue_capacity (org_id, business_id, seats_per_slot, slot_minutes, max_party) values
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000002', 16, 30, 8),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000010', 24, 30, 6),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000011', 40, 60, 12),
  ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000012', 60, 60, 20)
on conflict do nothing;

-- Drivers: each a person with a profile, so they can accept rides as themselves.
insert into auth.users (id, phone, email)
select ('00000000-0000-4000-8000-0000000000d' || n)::uuid, '2507881001' || lpad(n::text, 2, '0'),
       'driver' || n || '@example.rw'
from generate_series(0, 9) as n
on conflict (id) do nothing;
insert into public.profiles (id, phone, display_name, locale)
select ('00000000-0000-4000-8000-0000000000d' || d.n)::uuid, '+2507881001' || lpad(d.n::text, 2, '0'),
       d.name, d.locale
from (values
  (0, 'Emmanuel Habyarimana', 'rw'), (1, 'Jean Bosco Ndayisaba', 'rw'), (2, 'Claudine Mukeshimana', 'rw'),
  (3, 'Innocent Uwizeye', 'fr'), (4, 'Fabrice Nshimiyimana', 'rw'), (5, 'Aimable Tuyisenge', 'rw'),
  (6, 'Olivier Bizimana', 'en'), (7, 'Yvonne Uwamahoro', 'fr'), (8, 'Theogene Hakizimana', 'rw'),
  (9, 'Patrick Mugabo', 'en')
) as d (n, name, locale)
on conflict (id) do nothing;
insert into public.org_members (org_id, user_id, role)
select 'a0000000-0000-4000-8000-000000000001', ('00000000-0000-4000-8000-0000000000d' || n)::uuid, 'vendor'
from generate_series(0, 9) as n
on conflict do nothing;

insert into public.drivers
  (id, org_id, user_id, display_name, phone, vehicle_type, vehicle_desc, plate, available_until)
select ('f0000000-0000-4000-8000-00000000000' || d.n)::uuid, 'a0000000-0000-4000-8000-000000000001',
       ('00000000-0000-4000-8000-0000000000d' || d.n)::uuid, d.name, '+2507881001' || lpad(d.n::text, 2, '0'),
       d.vehicle, d.descr, d.plate,
       -- Available for half a day from seeding; drivers renew it by checking in.
       now() + interval '12 hours'
from (values
  (0, 'Emmanuel Habyarimana', 'moto', 'TVS Apache, red', 'RC 482 K'),
  (1, 'Jean Bosco Ndayisaba', 'moto', 'Bajaj Boxer, black', 'RD 117 B'),
  (2, 'Claudine Mukeshimana', 'moto', 'TVS HLX, blue', 'RE 903 C'),
  (3, 'Innocent Uwizeye', 'moto', 'Bajaj Boxer, green', 'RD 655 M'),
  (4, 'Fabrice Nshimiyimana', 'moto', 'Honda Ace, black', 'RC 231 F'),
  (5, 'Aimable Tuyisenge', 'cab', 'Toyota Corolla, white', 'RAD 123 A'),
  (6, 'Olivier Bizimana', 'cab', 'Toyota RAV4, silver', 'RAE 456 B'),
  (7, 'Yvonne Uwamahoro', 'cab', 'Suzuki Swift, blue', 'RAF 789 C'),
  (8, 'Theogene Hakizimana', 'moto', 'TVS Apache, yellow', 'RE 318 H'),
  (9, 'Patrick Mugabo', 'cab', 'Toyota Premio, grey', 'RAC 902 D')
) as d (n, name, vehicle, descr, plate)
on conflict (id) do nothing;
-- Positions: Kimironko, Remera, Nyamirambo, Kacyiru, CBD, Kicukiro.
insert into private.driver_locations (driver_id, lat, lng)
select ('f0000000-0000-4000-8000-00000000000' || p.n)::uuid, p.lat, p.lng
from (values
  (0, -1.94938, 30.12571), (1, -1.95612, 30.11205), (2, -1.98103, 30.04468),
  (3, -1.93561, 30.08402), (4, -1.94452, 30.06188), (5, -1.96991, 30.10452),
  (6, -1.95488, 30.09210), (7, -1.94390, 30.05990), (8, -1.97420, 30.04950),
  (9, -1.95010, 30.12020)
) as p (n, lat, lng)
on conflict (driver_id) do nothing;

-- Tariffs: v1 (January to October 2026) and v2 (from November 2026).
insert into public.tariffs
  (id, org_id, vehicle_type, version, base_fare, per_km, per_minute, minimum_fare,
   night_surcharge_pct, night_from, night_to, peak_surcharge_pct, peak_windows,
   speed_kmh, peak_speed_kmh, night_speed_kmh, window_pct, effective_from, effective_to) values
  ('f1000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', 'moto', 1,
   300, 200, 15, 500, 25, '22:00', '05:00', 10, '[["07:00","09:00"],["17:00","19:30"]]',
   30, 18, 38, 15, '2026-01-01T00:00:00+02', '2026-11-01T00:00:00+02'),
  ('f1000000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000001', 'moto', 2,
   400, 250, 20, 600, 30, '22:00', '05:00', 15, '[["07:00","09:00"],["17:00","19:30"]]',
   30, 18, 38, 15, '2026-11-01T00:00:00+02', null),
  ('f1000000-0000-4000-8000-000000000003', 'a0000000-0000-4000-8000-000000000001', 'cab', 1,
   1500, 700, 40, 2500, 20, '22:00', '05:00', 10, '[["07:00","09:00"],["17:00","19:30"]]',
   35, 15, 45, 15, '2026-01-01T00:00:00+02', '2026-11-01T00:00:00+02'),
  ('f1000000-0000-4000-8000-000000000004', 'a0000000-0000-4000-8000-000000000001', 'cab', 2,
   2000, 800, 50, 3000, 25, '22:00', '05:00', 15, '[["07:00","09:00"],["17:00","19:30"]]',
   35, 15, 45, 15, '2026-11-01T00:00:00+02', null)
on conflict (id) do nothing;
update auth.users set encrypted_password = extensions.crypt('easymo-dev', extensions.gen_salt('bf'))
where id in (select id from public.profiles) and encrypted_password is null;

-- Insurance (issue 14) -----------------------------------------------------------
-- Three insurers that exist in Rwanda, with EXAMPLE tariffs: the rates, fees and
-- rules below are invented for development and tests, not the insurers' prices.
-- Motor third-party and comprehensive for cars and motos (private and taxi-moto
-- use), travel, health. SONARWA's car third-party has an older version (v1,
-- January to October 2026) and the current one (v2, from November 2026).
insert into public.insurers (id, org_id, name) values
  ('e1000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', 'SONARWA General Insurance'),
  ('e1000000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000001', 'Radiant Insurance'),
  ('e1000000-0000-4000-8000-000000000003', 'a0000000-0000-4000-8000-000000000001', 'Prime Insurance')
on conflict (id) do nothing;
insert into public.insurance_tariffs
  (id, org_id, insurer_id, product, category, usage, cover, version, rate_basis, base_rate_rwf,
   rate_bp, period_days, min_base_rwf, fees, vat_rate_bp, min_vehicle_year, max_vehicle_age_years,
   min_driver_age, max_driver_age, min_days, max_days, min_declared_value_rwf,
   max_declared_value_rwf, effective_from, effective_to) values
  ('e2000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000001', 'motor', 'car', 'private', 'third_party', 1, 'fixed', 72000, 0, 365, 15000, '[{"code":"admin_fee","amount_rwf":2000,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}},{"code":"road_safety_fee","amount_rwf":1000,"vat":false,"label":{"en":"Road safety contribution","fr":"Contribution sécurité routière","rw":"Umusanzu w''umutekano wo mu muhanda"}},{"code":"insurance_card","amount_rwf":500,"vat":false,"label":{"en":"Insurance card (carte jaune)","fr":"Carte d''assurance (carte jaune)","rw":"Ikarita y''ubwishingizi (carte jaune)"}}]', 1800, 1995, 30, 18, null, 30, 366, null, null, '2026-01-01T00:00:00+02', '2026-11-01T00:00:00+02'),
  ('e2000000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000001', 'motor', 'car', 'private', 'third_party', 2, 'fixed', 79000, 0, 365, 16000, '[{"code":"admin_fee","amount_rwf":2000,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}},{"code":"road_safety_fee","amount_rwf":1000,"vat":false,"label":{"en":"Road safety contribution","fr":"Contribution sécurité routière","rw":"Umusanzu w''umutekano wo mu muhanda"}},{"code":"insurance_card","amount_rwf":500,"vat":false,"label":{"en":"Insurance card (carte jaune)","fr":"Carte d''assurance (carte jaune)","rw":"Ikarita y''ubwishingizi (carte jaune)"}}]', 1800, 1995, 30, 18, null, 30, 366, null, null, '2026-11-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000003', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000001', 'motor', 'car', 'private', 'comprehensive', 1, 'declared_value', 0, 350, 365, 120000, '[{"code":"admin_fee","amount_rwf":2000,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}},{"code":"road_safety_fee","amount_rwf":1000,"vat":false,"label":{"en":"Road safety contribution","fr":"Contribution sécurité routière","rw":"Umusanzu w''umutekano wo mu muhanda"}},{"code":"insurance_card","amount_rwf":500,"vat":false,"label":{"en":"Insurance card (carte jaune)","fr":"Carte d''assurance (carte jaune)","rw":"Ikarita y''ubwishingizi (carte jaune)"}}]', 1800, 2006, 20, 18, 75, 90, 366, 1000000, 200000000, '2026-01-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000004', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000001', 'motor', 'moto', 'private', 'third_party', 1, 'fixed', 58000, 0, 365, 12000, '[{"code":"admin_fee","amount_rwf":2000,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}},{"code":"road_safety_fee","amount_rwf":1000,"vat":false,"label":{"en":"Road safety contribution","fr":"Contribution sécurité routière","rw":"Umusanzu w''umutekano wo mu muhanda"}},{"code":"insurance_card","amount_rwf":500,"vat":false,"label":{"en":"Insurance card (carte jaune)","fr":"Carte d''assurance (carte jaune)","rw":"Ikarita y''ubwishingizi (carte jaune)"}}]', 1800, 2000, 25, 18, null, 30, 366, null, null, '2026-01-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000005', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000001', 'motor', 'moto', 'commercial', 'third_party', 1, 'fixed', 84000, 0, 365, 18000, '[{"code":"admin_fee","amount_rwf":2000,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}},{"code":"road_safety_fee","amount_rwf":1000,"vat":false,"label":{"en":"Road safety contribution","fr":"Contribution sécurité routière","rw":"Umusanzu w''umutekano wo mu muhanda"}},{"code":"insurance_card","amount_rwf":500,"vat":false,"label":{"en":"Insurance card (carte jaune)","fr":"Carte d''assurance (carte jaune)","rw":"Ikarita y''ubwishingizi (carte jaune)"}}]', 1800, 2000, 25, 18, null, 30, 366, null, null, '2026-01-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000006', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000002', 'motor', 'car', 'private', 'third_party', 1, 'fixed', 76500, 0, 365, 15000, '[{"code":"admin_fee","amount_rwf":2500,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}},{"code":"road_safety_fee","amount_rwf":1000,"vat":false,"label":{"en":"Road safety contribution","fr":"Contribution sécurité routière","rw":"Umusanzu w''umutekano wo mu muhanda"}}]', 1800, 1990, 35, 18, null, 30, 366, null, null, '2026-01-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000007', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000002', 'motor', 'car', 'private', 'comprehensive', 1, 'declared_value', 0, 325, 365, 110000, '[{"code":"admin_fee","amount_rwf":2500,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}},{"code":"road_safety_fee","amount_rwf":1000,"vat":false,"label":{"en":"Road safety contribution","fr":"Contribution sécurité routière","rw":"Umusanzu w''umutekano wo mu muhanda"}}]', 1800, 2006, 20, 18, 75, 90, 366, 1000000, 200000000, '2026-01-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000008', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000002', 'motor', 'moto', 'private', 'third_party', 1, 'fixed', 61000, 0, 365, 12000, '[{"code":"admin_fee","amount_rwf":2500,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}},{"code":"road_safety_fee","amount_rwf":1000,"vat":false,"label":{"en":"Road safety contribution","fr":"Contribution sécurité routière","rw":"Umusanzu w''umutekano wo mu muhanda"}}]', 1800, 2000, 25, 18, null, 30, 366, null, null, '2026-01-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000009', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000002', 'motor', 'moto', 'commercial', 'third_party', 1, 'fixed', 88000, 0, 365, 18000, '[{"code":"admin_fee","amount_rwf":2500,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}},{"code":"road_safety_fee","amount_rwf":1000,"vat":false,"label":{"en":"Road safety contribution","fr":"Contribution sécurité routière","rw":"Umusanzu w''umutekano wo mu muhanda"}}]', 1800, 2000, 25, 18, null, 30, 366, null, null, '2026-01-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000010', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000003', 'motor', 'car', 'private', 'third_party', 1, 'fixed', 74000, 0, 365, 15000, '[{"code":"admin_fee","amount_rwf":1500,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}},{"code":"road_safety_fee","amount_rwf":1000,"vat":false,"label":{"en":"Road safety contribution","fr":"Contribution sécurité routière","rw":"Umusanzu w''umutekano wo mu muhanda"}},{"code":"insurance_card","amount_rwf":500,"vat":false,"label":{"en":"Insurance card (carte jaune)","fr":"Carte d''assurance (carte jaune)","rw":"Ikarita y''ubwishingizi (carte jaune)"}}]', 1800, 2000, 25, 18, null, 30, 366, null, null, '2026-01-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000011', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000003', 'motor', 'car', 'private', 'comprehensive', 1, 'declared_value', 0, 375, 365, 100000, '[{"code":"admin_fee","amount_rwf":1500,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}},{"code":"road_safety_fee","amount_rwf":1000,"vat":false,"label":{"en":"Road safety contribution","fr":"Contribution sécurité routière","rw":"Umusanzu w''umutekano wo mu muhanda"}},{"code":"insurance_card","amount_rwf":500,"vat":false,"label":{"en":"Insurance card (carte jaune)","fr":"Carte d''assurance (carte jaune)","rw":"Ikarita y''ubwishingizi (carte jaune)"}}]', 1800, 2008, 18, 18, 75, 90, 366, 1000000, 200000000, '2026-01-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000012', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000003', 'motor', 'moto', 'private', 'third_party', 1, 'fixed', 56000, 0, 365, 12000, '[{"code":"admin_fee","amount_rwf":1500,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}},{"code":"road_safety_fee","amount_rwf":1000,"vat":false,"label":{"en":"Road safety contribution","fr":"Contribution sécurité routière","rw":"Umusanzu w''umutekano wo mu muhanda"}},{"code":"insurance_card","amount_rwf":500,"vat":false,"label":{"en":"Insurance card (carte jaune)","fr":"Carte d''assurance (carte jaune)","rw":"Ikarita y''ubwishingizi (carte jaune)"}}]', 1800, 2000, 25, 18, null, 30, 366, null, null, '2026-01-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000013', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000003', 'motor', 'moto', 'commercial', 'third_party', 1, 'fixed', 86000, 0, 365, 18000, '[{"code":"admin_fee","amount_rwf":1500,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}},{"code":"road_safety_fee","amount_rwf":1000,"vat":false,"label":{"en":"Road safety contribution","fr":"Contribution sécurité routière","rw":"Umusanzu w''umutekano wo mu muhanda"}},{"code":"insurance_card","amount_rwf":500,"vat":false,"label":{"en":"Insurance card (carte jaune)","fr":"Carte d''assurance (carte jaune)","rw":"Ikarita y''ubwishingizi (carte jaune)"}}]', 1800, 2000, 25, 18, null, 30, 366, null, null, '2026-01-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000014', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000001', 'travel', 'regional', 'private', 'standard', 1, 'fixed', 900, 0, 1, 5000, '[{"code":"admin_fee","amount_rwf":1000,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}}]', 1800, null, null, null, null, 1, 180, null, null, '2026-01-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000015', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000001', 'travel', 'schengen', 'private', 'standard', 1, 'fixed', 2600, 0, 1, 20000, '[{"code":"admin_fee","amount_rwf":1000,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}}]', 1800, null, null, null, null, 1, 90, null, null, '2026-01-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000016', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000001', 'travel', 'worldwide', 'private', 'standard', 1, 'fixed', 3400, 0, 1, 25000, '[{"code":"admin_fee","amount_rwf":1000,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}}]', 1800, null, null, null, null, 1, 180, null, null, '2026-01-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000017', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000002', 'travel', 'regional', 'private', 'standard', 1, 'fixed', 850, 0, 1, 5000, '[{"code":"admin_fee","amount_rwf":1500,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}}]', 1800, null, null, null, null, 1, 180, null, null, '2026-01-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000018', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000002', 'travel', 'schengen', 'private', 'standard', 1, 'fixed', 2700, 0, 1, 20000, '[{"code":"admin_fee","amount_rwf":1500,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}}]', 1800, null, null, null, null, 1, 90, null, null, '2026-01-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000019', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000002', 'health', 'individual', 'private', 'standard', 1, 'fixed', 240000, 0, 365, 60000, '[{"code":"admin_fee","amount_rwf":5000,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}}]', 1800, null, null, null, null, 90, 366, null, null, '2026-01-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000020', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000002', 'health', 'family', 'private', 'standard', 1, 'fixed', 780000, 0, 365, 195000, '[{"code":"admin_fee","amount_rwf":5000,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}}]', 1800, null, null, null, null, 90, 366, null, null, '2026-01-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000021', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000003', 'health', 'individual', 'private', 'standard', 1, 'fixed', 255000, 0, 365, 64000, '[{"code":"admin_fee","amount_rwf":4000,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}}]', 1800, null, null, null, null, 90, 366, null, null, '2026-01-01T00:00:00+02', null),
  ('e2000000-0000-4000-8000-000000000022', 'a0000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000003', 'health', 'family', 'private', 'standard', 1, 'fixed', 735000, 0, 365, 184000, '[{"code":"admin_fee","amount_rwf":4000,"vat":true,"label":{"en":"Admin fee","fr":"Frais de dossier","rw":"Amafaranga y''idosiye"}}]', 1800, null, null, null, null, 90, 366, null, null, '2026-01-01T00:00:00+02', null)
on conflict (id) do nothing;

-- MoMo payees (issue 13, payments): cafés and shops take MoMoPay merchant
-- codes, the others their MoMo phone (the shop's number).
update public.businesses set momo_merchant_code = v.code
from (values
  ('c0000000-0000-4000-8000-000000000002', '210045'),
  ('c0000000-0000-4000-8000-000000000010', '304512'),
  ('c0000000-0000-4000-8000-000000000011', '304513'),
  ('c0000000-0000-4000-8000-000000000012', '304514'),
  ('c0000000-0000-4000-8000-000000000014', '411207')
) as v(id, code)
where businesses.id = v.id::uuid;
update public.businesses set momo_phone = phone
where momo_merchant_code is null and phone ~ '^\+2507[0-9]{8}$';

-- Marketing (seed 000 G): EasyMO's weekend offer, approved by Meta in each language, and the
-- opt-in proof of two people (Aline on WhatsApp, Diane on paper); nobody else is in the audience.
insert into public.broadcast_templates (id, org_id, name, language, variables, body, meta_status)
values
  ('e0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001',
   'weekend_offer', 'en', '{offer}',
   'This weekend at EasyMO: {{1}}. Reply STOP to stop these messages.', 'approved'),
  ('e0000000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000001',
   'weekend_offer', 'rw', '{offer}',
   'Muri iyi weekend kuri EasyMO: {{1}}. Andika HAGARIKA ngo ubu butumwa buhagarare.', 'approved'),
  ('e0000000-0000-4000-8000-000000000003', 'a0000000-0000-4000-8000-000000000001',
   'weekend_offer', 'fr', '{offer}',
   'Ce week-end chez EasyMO : {{1}}. Répondez ARRÊT pour ne plus recevoir ces messages.',
   'approved')
on conflict do nothing;
insert into public.marketing_opt_ins (org_id, user_id, opted_in_at, channel, agreed_text) values
  ('a0000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000001',
   '2026-11-01T09:00:00Z', 'whatsapp',
   'Yego, nohereza amakuru y''ibiciro n''amasezerano ya EasyMO kuri WhatsApp.'),
  ('a0000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000005',
   '2026-11-03T14:30:00Z', 'paper',
   'J''accepte de recevoir les offres d''EasyMO sur WhatsApp.')
on conflict do nothing;
-- Legal Intake (issue 27): EasyMO's lawyers charge a first consultation, paid by MoMo to their
-- chambers' number; Beaver charges nothing.
insert into public.legal_intake_settings (org_id, consultation_fee_rwf, payee_phone, payee_name)
values ('a0000000-0000-4000-8000-000000000001', 10000, '+250788123456', 'Me Kalisa Chambers')
on conflict (org_id) do nothing;
-- Property rentals (issue 27) ----------------------------------------------------
-- Two people who list homes on EasyMO: Jeanne, a landlord, and Samuel, a letting
-- agent. Published listings around Kigali with their viewing hours (Kigali time,
-- Monday to Saturday), one listing waiting for staff approval, and one of
-- Beaver's, so tenancy can be seen. The exact addresses sit in their own table,
-- readable only as 20261129000100 says. Photos are Storage paths.
insert into auth.users (id, phone, email) values
  ('00000000-0000-4000-8000-0000000000e1', '250788000201', 'jeanne.landlord@example.rw'),
  ('00000000-0000-4000-8000-0000000000e2', '250788000202', 'samuel.agent@example.rw')
on conflict (id) do nothing;
insert into public.profiles (id, phone, display_name, locale) values
  ('00000000-0000-4000-8000-0000000000e1', '+250788000201', 'Jeanne Mukandori', 'rw'),
  ('00000000-0000-4000-8000-0000000000e2', '+250788000202', 'Samuel Kayitare', 'en')
on conflict (id) do nothing;
insert into public.org_members (org_id, user_id, role) values
  ('a0000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000e1', 'vendor'),
  ('a0000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000e2', 'vendor')
on conflict do nothing;

insert into public.property_listings
  (id, org_id, landlord_id, title, description, price, bedrooms, sector, cell, lat, lng,
   pets_allowed, parking, available_from, status, photos)
select l.id::uuid, l.org::uuid, l.landlord::uuid, l.title, l.descr, l.price, l.bedrooms,
       l.sector, l.cell, l.lat, l.lng, l.pets, l.parking, l.available::date, l.status,
       array[format('storage://media/%s/property/%s/1.jpg', l.org, l.id),
             format('storage://media/%s/property/%s/2.jpg', l.org, l.id)]
from (values
  ('70000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001',
   '00000000-0000-4000-8000-0000000000e1', '2-bedroom house in Bibare',
   'Sitting room, kitchen, water tank, fenced compound.', 180000, 2, 'Kimironko', 'Bibare',
   -1.949, 30.126, false, true, '2026-12-01', 'published'),
  ('70000000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000001',
   '00000000-0000-4000-8000-0000000000e2', '2-bedroom apartment near Kibagabaga',
   'Second floor, balcony, pets welcome.', 195000, 2, 'Kimironko', 'Kibagabaga',
   -1.936, 30.114, true, false, '2026-11-15', 'published'),
  ('70000000-0000-4000-8000-000000000003', 'a0000000-0000-4000-8000-000000000001',
   '00000000-0000-4000-8000-0000000000e2', '3-bedroom family house in Nyagatovu',
   'Garden, two bathrooms, guard.', 350000, 3, 'Kimironko', 'Nyagatovu',
   -1.946, 30.132, true, true, '2027-01-01', 'published'),
  ('70000000-0000-4000-8000-000000000004', 'a0000000-0000-4000-8000-000000000001',
   '00000000-0000-4000-8000-0000000000e1', '1-bedroom annexe in Rukiri',
   'Self-contained, close to the Remera taxi park.', 120000, 1, 'Remera', 'Rukiri I',
   -1.958, 30.107, false, false, '2026-11-20', 'published'),
  ('70000000-0000-4000-8000-000000000005', 'a0000000-0000-4000-8000-000000000001',
   '00000000-0000-4000-8000-0000000000e2', '2-bedroom house in Niboye',
   'Quiet street, parking for two cars.', 150000, 2, 'Kicukiro', 'Niboye',
   -1.981, 30.104, true, true, '2026-12-15', 'published'),
  ('70000000-0000-4000-8000-000000000006', 'a0000000-0000-4000-8000-000000000001',
   '00000000-0000-4000-8000-0000000000e1', '2-bedroom apartment in Kamatamu',
   'New building, waiting for staff approval.', 250000, 2, 'Kacyiru', 'Kamatamu',
   -1.938, 30.084, false, true, '2027-01-10', 'pending'),
  ('70000000-0000-4000-8000-000000000009', 'b0000000-0000-4000-8000-000000000002',
   '00000000-0000-4000-8000-000000000010', '2-bedroom flat in Remera (Beaver staff housing)',
   'Beaver''s own listing.', 190000, 2, 'Remera', 'Nyabisindu',
   -1.955, 30.112, false, true, '2026-12-01', 'published')
) as l (id, org, landlord, title, descr, price, bedrooms, sector, cell, lat, lng, pets, parking,
        available, status)
on conflict (id) do nothing;

-- Published before the platform: their landlords need no "published" notice.
update public.property_listings set landlord_told = 'published'
  where id::text like '70000000-0000-4000-8000-00000000000%' and status = 'published';

insert into public.property_listing_addresses (listing_id, org_id, address, contact_name, contact_phone)
values
  ('70000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001',
   'KG 15 Ave, house 23, Bibare, Kimironko', 'Jeanne Mukandori', '+250788000201'),
  ('70000000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000001',
   'KG 9 St, Umuco apartments no. 4, Kibagabaga', 'Samuel Kayitare', '+250788000202'),
  ('70000000-0000-4000-8000-000000000003', 'a0000000-0000-4000-8000-000000000001',
   'KG 212 St, house 7, Nyagatovu, Kimironko', 'Samuel Kayitare', '+250788000202'),
  ('70000000-0000-4000-8000-000000000004', 'a0000000-0000-4000-8000-000000000001',
   'KG 17 Ave, annexe behind house 41, Rukiri I, Remera', 'Jeanne Mukandori', '+250788000201'),
  ('70000000-0000-4000-8000-000000000005', 'a0000000-0000-4000-8000-000000000001',
   'KK 31 Ave, house 12, Niboye, Kicukiro', 'Samuel Kayitare', '+250788000202'),
  ('70000000-0000-4000-8000-000000000006', 'a0000000-0000-4000-8000-000000000001',
   'KG 7 Ave, Kamatamu Heights apt 3B, Kacyiru', 'Jeanne Mukandori', '+250788000201'),
  ('70000000-0000-4000-8000-000000000009', 'b0000000-0000-4000-8000-000000000002',
   'KG 11 Ave, house 5, Nyabisindu, Remera', 'Paul Staff', '+250788000010')
on conflict (listing_id) do nothing;

insert into public.property_viewing_hours (org_id, listing_id, weekday, opens, closes)
select l.org_id, l.id, d, '09:00', '17:00'
from public.property_listings l, generate_series(1, 6) as d
where l.id::text like '70000000-0000-4000-8000-00000000000%'
on conflict do nothing;
-- Video studio (issue 27, Sora-2 Video): Rwanda's palette (the flag's blue, yellow and
-- green, with black and white), EasyMO's brand kit within it, and one recorded consent
-- (a model in a reference photo) so a job can be run end to end in `deno task chat`.
insert into public.country_palettes (country, colours) values
  ('RW', '{#00A1DE,#FAD201,#20603D,#000000,#FFFFFF}')
on conflict (country) do nothing;

insert into public.brand_kits (id, org_id, name, palette, logo_path, tone) values
  ('f1000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', 'EasyMO',
   '{#00A1DE,#FAD201,#FFFFFF}', 'a0000000-0000-4000-8000-000000000001/brand/easymo-logo.png',
   'Warm, quick and local: everyday Kigali life made easier.')
on conflict (id) do nothing;

insert into public.video_consents (id, org_id, person, scope, given_at, proof, recorded_by) values
  ('f2000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001',
   'Claudine Uwera (model)', 'video_ads', '2026-11-01T09:00:00+02',
   'Signed release form, Storage: consents/claudine-uwera-2026-11-01.pdf',
   '00000000-0000-4000-8000-000000000002')
on conflict (id) do nothing;
