/**
 * Data for the document templates, for tests and benches: a fictional
 * person, plate, ID number and order.
 *
 * @module
 */

/** A certificate's data (fictional person, plate and ID). */
export const CERTIFICATE = {
  certificate_no: "EMO-2026-000123",
  insurer: "SONARWA General Insurance",
  insured: { name: "Aline Uwimana", national_id: "1199080012345678", phone: "+250788000001" },
  vehicle: { plate: "RAD 123 A", make: "Toyota", model: "RAV4", year: 2015 },
  cover: "third_party",
  period: { from: "2026-11-23", to: "2027-11-22" },
  premium: 97080,
  issued_at: "2026-11-23",
};

/** A quote comparison's data. */
export const QUOTE = {
  reference: "Q-7F3A",
  customer_name: "Aline Uwimana",
  product: "motor",
  category: "car",
  cover: "third_party",
  coverage_days: 365,
  vehicle: { make: "Toyota", model: "RAV4", year: 2015 },
  quotes: [
    { insurer: "SONARWA General Insurance", base: 79000, fees: 3500, tax: 14580, premium: 97080 },
    { insurer: "Prime Insurance", base: 74000, fees: 3000, tax: 13590, premium: 90590 },
  ],
  valid_until: "2026-11-30T10:00:00+02:00",
  issued_at: "2026-11-23T10:00:00+02:00",
};

/** A receipt's data. */
export const RECEIPT = {
  receipt_no: "R-000042",
  merchant: "Question Coffee Gishushu",
  payer_name: "Aline Uwimana",
  paid_at: "2026-11-23T12:30:00+02:00",
  method: "momo",
  reference: "MP261123.1230.A00042",
  order_no: "W-1042",
  items: [
    { name: "Café latte", qty: 2, unit_price: 2000 },
    { name: "Brochettes de chèvre", qty: 1, unit_price: 3500 },
  ],
  total: 7500,
};
