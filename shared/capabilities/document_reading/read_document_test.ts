import assert from "node:assert/strict";
import { page, readWordsFixture } from "@testing/documents/word_boxes.ts";
import {
  AREA_BELOW,
  AREA_LEFT,
  type DocumentReading,
  isComplete,
  mergeReadings,
  missingValues,
  readDocument,
  type ReadField,
} from "./read_document.ts";

const ok = (value: string): ReadField => ({ value, confidence: 0.9, valid: true });
const doubtful = (value: string): ReadField => ({
  value,
  confidence: 0.4,
  valid: false,
  note: "check digit",
});

function card(fields: Record<string, ReadField>, missing: string[] = []): DocumentReading {
  return { kind: "document", type: "vehicle_registration", fields, confidence: 0.8, missing };
}

Deno.test("a second look fills the first's gaps and doubts, and never overrides a checked value", () => {
  const first = card({
    plate: ok("RAB 123 C"),
    vin: doubtful("1HGCM82633A004352"),
    make: ok("TOYOTA"),
  }, ["model", "year", "owner_name", "owner_national_id", "issue_date", "expiry_date"]);
  const second = card({
    plate: ok("RAB 128 C"),
    vin: ok("JHGCM82633A004352"),
    model: ok("COROLLA"),
    year: doubtful("2O12"),
  });
  const merged = mergeReadings(first, second);
  assert.equal(merged.kind, "document");
  if (merged.kind !== "document") return;
  // The first look's checked plate stays; the second's checked VIN replaces a doubtful one.
  assert.equal(merged.fields.plate.value, "RAB 123 C");
  assert.equal(merged.fields.vin.value, "JHGCM82633A004352");
  assert.equal(merged.fields.model.value, "COROLLA");
  // A field only the second look found is kept even when doubtful: the customer confirms it.
  assert.equal(merged.fields.year.valid, false);
  assert.deepEqual(merged.missing.includes("model"), false);
  assert.ok(merged.missing.includes("owner_name"));
  assert.equal(isComplete(merged), false);
});

Deno.test("a page only the second look could read is read by it; a non-document stays refused", () => {
  const second = card({ plate: ok("RAB 123 C") });
  const unreadable: DocumentReading = {
    kind: "unreadable",
    type: "vehicle_registration",
    found: 1,
    expected: 7,
  };
  assert.deepEqual(mergeReadings(unreadable, second), second);
  assert.deepEqual(mergeReadings({ kind: "not_a_document" }, second), { kind: "not_a_document" });
  assert.deepEqual(mergeReadings(second, { kind: "not_a_document" }), second);
  const licence: DocumentReading = { ...second, type: "license" } as DocumentReading;
  assert.deepEqual(mergeReadings(second, licence), second);
});

const TODAY = new Date("2026-11-24T00:00:00Z");

function values(reading: DocumentReading): Record<string, string> {
  assert.equal(reading.kind, "document", JSON.stringify(reading));
  if (reading.kind !== "document") return {};
  return Object.fromEntries(Object.entries(reading.fields).map(([name, f]) => [name, f.value]));
}

Deno.test("values under their labels, in two columns, are read by position, not line order", () => {
  // OCR gives a line of two labels, then a line of two values: line order alone pairs them wrong.
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Purake / Plaque / Plate No."], [600, "Châssis / VIN"]],
    [[40, "RB 913 B"], [600, "MD6ED18ZXCA940395"]],
    [[40, "Ikirango / Marque / Make"], [600, "Année / Year"]],
    [[40, "TVS"], [600, "2019"]],
    [[40, "Modèle / Model"], [600, "Icyo gikoreshwa / Usage"]],
    [[40, "HLX125"], [600, "TAXI-MOTO"]],
    [[40, "Nyirayo / Owner"], [600, "Date of issue"]],
    [[40, "BIZIMANA JOSIANE"], [600, "04/04/2018"]],
  ]);
  assert.deepEqual(values(readDocument(lines, { today: TODAY })), {
    plate: "RB 913 B",
    vin: "MD6ED18ZXCA940395",
    make: "TVS",
    model: "HLX125",
    year: "2019",
    owner_name: "BIZIMANA JOSIANE",
    issue_date: "2018-04-04",
    usage: "taxi-moto",
  });
});

Deno.test("values printed over their small labels are read from the row above, not the next field's", () => {
  // Each value sits tight over its label; the row under a label is the next field's value.
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "RDB 541 V"], [600, "JN19UAV27GY907628"]],
    [[40, "Plaque / Plate No."], [600, "Châssis / VIN"]],
    [[40, "NISSAN"], [600, "PATROL"]],
    [[40, "Marque / Make"], [600, "Modèle / Model"]],
    [[40, "2023"], [600, "UWASE CLAUDINE"]],
    [[40, "Année / Year"], [600, "Propriétaire / Owner"]],
  ]);
  // Labels 14 px under their values, 34 px over the next row.
  for (const [index, line] of lines.entries()) {
    if (index < 2 || index % 2 === 1) continue;
    for (const word of line.words ?? []) {
      word.box = { ...word.box, y0: word.box.y0 - 14, y1: word.box.y1 - 14 };
    }
  }
  assert.deepEqual(values(readDocument(lines, { today: TODAY })), {
    plate: "RDB 541 V",
    vin: "JN19UAV27GY907628",
    make: "NISSAN",
    model: "PATROL",
    year: "2023",
    owner_name: "UWASE CLAUDINE",
  });
  // Evenly spaced, the same rows read as values under their labels: the tighter row wins.
  const even = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Plaque / Plate No."], [600, "Châssis / VIN"]],
    [[40, "RDB 541 V"], [600, "JN19UAV27GY907628"]],
    [[40, "Marque / Make"], [600, "Modèle / Model"]],
    [[40, "NISSAN"], [600, "PATROL"]],
  ]);
  assert.equal(values(readDocument(even, { today: TODAY })).make, "NISSAN");
});

Deno.test("a value printed before its label on its row is read when nothing follows the label", () => {
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "RAB 123 C"], [184, "(Plaque / Plate No.)"]],
    [[40, "TOYOTA"], [148, "(Marque / Make)"]],
    [[40, "RAV4"], [124, "(Modèle / Model)"]],
    [[40, "MUGISHA JEAN"], [220, "— Owner"]],
    [[40, "2019"], [124, "(Year)"]],
  ]);
  assert.deepEqual(values(readDocument(lines, { today: TODAY })), {
    plate: "RAB 123 C",
    make: "TOYOTA",
    model: "RAV4",
    owner_name: "MUGISHA JEAN",
    year: "2019",
  });
});

Deno.test("labels in more of the wordings real cards print name their fields", () => {
  const registration = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Nimero iranga ikinyabiziga / Reg. mark"], [640, "RAD 204 K"]],
    [[40, "Holder"], [640, "MUGISHA JEAN"]],
    [[40, "Holder's ID"], [640, "1 1984 8 0012345 0 12"]],
    [[40, "Ubwoko / Type commercial"], [640, "COROLLA"]],
    [[40, "Itariki yatangiweho"], [640, "12/03/2020"]],
    [[40, "Date d'expiration"], [640, "11/03/2030"]],
  ]);
  assert.deepEqual(values(readDocument(registration, { today: TODAY })), {
    plate: "RAD 204 K",
    owner_name: "MUGISHA JEAN",
    owner_national_id: "1198480012345012",
    model: "COROLLA",
    issue_date: "2020-03-12",
    expiry_date: "2030-03-11",
  });
  const licence = page([
    [[40, "DRIVING LICENCE"]],
    [[40, "Amazina y'uwahawe uruhushya"], [640, "UWASE DIANE"]],
    [[40, "Néle le"], [640, "05/06/1990"]],
    [[40, "Numéro du permis"], [640, "23J788207"]],
    [[40, "Rwatanzwe ku wa"], [640, "01/02/2015"]],
    [[40, "Ruzarangira ku wa"], [640, "01/02/2030"]],
  ]);
  // ("Néle le" is "Né(e) le" as OCR reads its brackets.)
  assert.deepEqual(values(readDocument(licence, { today: TODAY })), {
    full_name: "UWASE DIANE",
    date_of_birth: "1990-06-05",
    licence_number: "23J788207",
    issue_date: "2015-02-01",
    expiry_date: "2030-02-01",
  });
});

Deno.test("a label of a field no answer holds bounds values: its value is never another field's", () => {
  // Values under labels; the model's value is lost. "WHITE" under "Colour" is the colour's.
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Plate No."], [400, "Make"], [700, "Owner"]],
    [[40, "RAB 123 C"], [400, "TOYOTA"], [700, "MUGISHA JEAN"]],
    [[40, "Year"], [400, "Colour"], [700, "Model"]],
    [[40, "2019"], [400, "WHITE"]],
  ]);
  const read = values(readDocument(lines, { today: TODAY }));
  assert.deepEqual(read, {
    plate: "RAB 123 C",
    make: "TOYOTA",
    owner_name: "MUGISHA JEAN",
    year: "2019",
  });
});

Deno.test("a card photographed without its title is a document by two labels and two typed values", () => {
  // The header is off the picture; two labels survived, with a plate and a VIN.
  const lines = page([
    [[40, "Plate No."], [500, "RAB 123 C"]],
    [[40, "Chassis No."], [500, "JTDBR32E720051234"]],
    [[40, "TOYOTA"], [500, "COROLLA"]],
    [[40, "MUGISHA JEAN"]],
  ]);
  const read = readDocument(lines, { today: TODAY });
  assert.equal(read.kind, "document");
  assert.equal(values(read).plate, "RAB 123 C");
  // One label and one typed value are not enough: a receipt has a date and a "Serial".
  const receipt = page([
    [[40, "SIMBA SUPERMARKET"]],
    [[40, "Date issued"], [500, "12/03/2024"]],
    [[40, "MILK 1L"], [500, "1200"]],
    [[40, "TOTAL"], [500, "1200"]],
  ]);
  assert.equal(readDocument(receipt, { today: TODAY }).kind, "not_a_document");
});

Deno.test("codes beside the values, their meaning in a legend elsewhere, name the fields", () => {
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "A. RB 943 B"], [500, "E. MD2YA9UH9BW081658"]],
    // OCR drops the space after a code's dot now and then.
    [[40, "D.1. BAJAJ"], [500, "D.3.BOXER"]],
    [[40, "F. 2008"], [500, "C.1. GATETE FABRICE"]],
    [[40, "C.2.1 1967 7 5347227 1 51"], [500, "Z.9. RED"]],
    [[40, "Z.9. Colour; E. Chassis number; A. Reg. mark; D.1. Make; D.3. Model;"]],
    [[40, "C.1. Holder; F. Year of make; C.2. Holder's ID"]],
  ]);
  assert.deepEqual(values(readDocument(lines, { today: TODAY })), {
    plate: "RB 943 B",
    vin: "MD2YA9UH9BW081658",
    make: "BAJAJ",
    model: "BOXER",
    year: "2008",
    owner_name: "GATETE FABRICE",
    owner_national_id: "1196775347227151",
  });
});

Deno.test("a numbered legend names the codes before the values, its own labels take no value", () => {
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    // The legend runs over two lines: "6." ends one, its label starts the next. OCR lost one
    // code's dot ("|1") and read a label in a wording we do not know ("(kirango") before "/".
    [[40, "|1 Nyirayo / Owner 2. (kirango / Brand 3. Nomero ya shasi / VIN 4. Genre d'usage 6."]],
    [[40, "Purake / Plate 5. Places assises"]],
    [[40, "6: RAB 123 C"], [500, "2: TOYOTA"]],
    [[40, "1: MUGISHA JEAN"], [500, "3: MD2YA9UH9BW081658"]],
    // A code glued to its value with its colon.
    [[40, "4:PRIVATE"], [500, "5: 5"]],
  ]);
  assert.deepEqual(values(readDocument(lines, { today: TODAY })), {
    plate: "RAB 123 C",
    vin: "MD2YA9UH9BW081658",
    make: "TOYOTA",
    owner_name: "MUGISHA JEAN",
    usage: "private",
  });
});

Deno.test("a value between its label in one language and its label in another is read whole", () => {
  const lines = page([
    [[40, "IDENTITY CARD"]],
    [[40, "Amazina"], [300, "MUGISHA JEAN"], [700, "Nom et prénom"]],
    // A value in two languages ("Gabo / M") is not a wording of the labels around it.
    [[40, "Igitsina Gabo / M Sexe"]],
    [[40, "Igihe yatangiwe"], [300, "12/03/2019"], [700, "Date d'émission"]],
    [[40, "Nomero y'indangamuntu"], [300, "1 1984 8 0012345 0 12"], [700, "N° d'identification"]],
  ]);
  assert.deepEqual(values(readDocument(lines, { today: TODAY })), {
    full_name: "MUGISHA JEAN",
    sex: "M",
    issue_date: "2019-03-12",
    national_id: "1198480012345012",
  });
  const registration = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Marque"], [300, "TOYOTA"], [700, "Make"]],
    // The left label is in a wording we do not know: the value is found from the right one,
    // across its own words and the column's gap.
    [[40, "Imiterere"], [300, "PRIVATE"], [700, "Genre d'usage"]],
    [[40, "Nom du titulaire"], [300, "MUGISHA JEAN"], [700, "Owner's full name"]],
    [[40, "Modèle"], [300, "HILUX"], [700, "Model"]],
  ]);
  assert.deepEqual(values(readDocument(registration, { today: TODAY })), {
    make: "TOYOTA",
    usage: "private",
    owner_name: "MUGISHA JEAN",
    model: "HILUX",
  });
});

Deno.test("a holder's name printed large without a label is the name among other capital runs", () => {
  const small = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    // An issuer's line in words we do not know is a run of capitals too, in the page's print.
    [[40, "POLISI Y'IGIHUGU"]],
  ]);
  const large = page([[[40, "MUGISHA JEAN"]]], { height: 40, charWidth: 22 })
    .map((line) => ({
      ...line,
      words: line.words!.map((word) => ({
        ...word,
        box: { ...word.box, y0: word.box.y0 + 80, y1: word.box.y1 + 80 },
      })),
    }));
  const rest = page([
    [],
    [],
    [],
    [[40, "Plate RAB 123 C"], [500, "Make TOYOTA"]],
    [[40, "Date of issue 12/03/2019"]],
  ]).slice(3);
  const reading = readDocument([...small, ...large, ...rest], { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.owner_name?.value, "MUGISHA JEAN");
  assert.equal(reading.fields.plate?.value, "RAB 123 C");
});

Deno.test("a label that ends its line has its value at the next line's start", () => {
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Plate - RAB 123 C"]],
    // Pairs run on like text: the owner's label ends the line, its value starts the next one;
    // "built:" is a label we do not know, not the owner's value.
    [[40, "Year built: 2012 Nyirayo / Owner's full name ::"]],
    [[40, "MUGISHA JEAN"]],
    [[40, "Make = TOYOTA"]],
  ], { pitch: 30 });
  assert.deepEqual(values(readDocument(lines, { today: TODAY })), {
    plate: "RAB 123 C",
    year: "2012",
    owner_name: "MUGISHA JEAN",
    make: "TOYOTA",
  });
});

Deno.test("a label's wording in lower case between its other parts is the label's, not a value", () => {
  const lines = page([
    [[40, "IDENTITY CARD"]],
    // OCR misread "Surname": the wording in lower case between "prénom" and "names" is the
    // label's own, and the name is the capitals after it.
    [[40, "Amazina | Nom et prénom / Sumame and given names = MUKAMANA OLIVIER"]],
    [[40, "Date of birth 13/11/1972"]],
    [[40, "National ID No. 1 1972 7 0986062 1 84"]],
  ]);
  assert.deepEqual(values(readDocument(lines, { today: TODAY })), {
    full_name: "MUKAMANA OLIVIER",
    date_of_birth: "1972-11-13",
    national_id: "1197270986062184",
  });
});

Deno.test("a name beside its label that fails its check gives way to the one name on the page", () => {
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Plate RAB 123 C"], [500, "Owner BUILT"]],
    [[40, "Make TOYOTA"]],
    [[40, "Colour WHITE"]],
    // Far from any label: a large name the label's row did not hold.
    [[40, "MUGISHA JEAN"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.owner_name?.value, "MUGISHA JEAN");
});

Deno.test("a certificate in running prose is read by its label words and its values' shapes", () => {
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "This is to certify that the vehicle with registration number RAB 123 C, make TOYOTA,"]],
    [[40, "model COROLLA, chassis number MD2YA9UH9BW081658, manufactured in 2015, is registered"]],
    [[40, "in the name of MUGISHA JEAN, holder of national ID 1 1984 8 0012345 0 12, for PRIVATE"]],
    [[40, "use, on 12th March 2024, and this certificate is valid until March 11, 2030."]],
  ]);
  assert.deepEqual(values(readDocument(lines, { today: TODAY })), {
    plate: "RAB 123 C",
    vin: "MD2YA9UH9BW081658",
    make: "TOYOTA",
    model: "COROLLA",
    year: "2015",
    owner_name: "MUGISHA JEAN",
    owner_national_id: "1198480012345012",
    usage: "private",
    issue_date: "2024-03-12",
    expiry_date: "2030-03-11",
  });
});

Deno.test("a table whose header row holds the labels reads each value in its label's column", () => {
  const lines = page([
    [[40, "DRIVING LICENCE / PERMIS DE CONDUIRE"]],
    [[40, "Noms / Full name"], [420, "Numéro national / National ID"], [900, "Permis N°"]],
    [[40, "HABIMANA PATRICK"], [420, "1 1995 8 6290524 1 67"], [900, "07B123456"]],
    [[40, "Date de naissance / Date of birth"], [500, "Catégories"], [900, "Expiry"]],
    [[40, "14/01/1995"], [500, "B, C"], [900, "05/12/2028"]],
  ]);
  assert.deepEqual(values(readDocument(lines, { today: TODAY })), {
    full_name: "HABIMANA PATRICK",
    date_of_birth: "1995-01-14",
    national_id: "1199586290524167",
    licence_number: "07B123456",
    categories: "B, C",
    expiry_date: "2028-12-05",
  });
});

Deno.test("a header label wrapped in its cell: the value is under the label's last words", () => {
  const lines = page([
    [[40, "DRIVING LICENCE / PERMIS DE CONDUIRE"]],
    [[40, "Itariki y'amavuko / Date"], [420, "Amazina / Names"], [
      800,
      "Nimero y'uruhushya / Licence",
    ]],
    [[40, "of birth"], [800, "number"]],
    [[40, "16/06/1993"], [420, "MUGISHA OLIVIER"], [800, "07B123456"]],
    [[40, "Ibyiciro / Categories"], [420, "Izarangira / Expiry"]],
    [[40, "B, C, D"], [420, "17/02/2031"]],
  ], { pitch: 30 });
  assert.deepEqual(values(readDocument(lines, { today: TODAY })), {
    full_name: "MUGISHA OLIVIER",
    date_of_birth: "1993-06-16",
    licence_number: "07B123456",
    categories: "B, C, D",
    expiry_date: "2031-02-17",
  });
});

Deno.test("two columns of label and value on one row: each value stops at the next label", () => {
  const lines = page([
    [[40, "CARTE D'IMMATRICULATION"]],
    [[40, "Plaque: RAB 123 C"], [560, "Marque: TOYOTA"]],
    [[40, "Modèle: COROLLA"], [560, "Année de fabrication: 2012"]],
    [[40, "Propriétaire: UWASE CLAUDINE"], [560, "Utilisation: PRIVÉ"]],
  ]);
  assert.deepEqual(values(readDocument(lines, { today: TODAY })), {
    plate: "RAB 123 C",
    make: "TOYOTA",
    model: "COROLLA",
    year: "2012",
    owner_name: "UWASE CLAUDINE",
    usage: "private",
  });
});

Deno.test("text without word boxes (a vision model's answer) reads after labels and under them", () => {
  const lines = [
    { text: "CERTIFICATE OF REGISTRATION", confidence: 90 },
    { text: "Plate No. RAB 123 C", confidence: 90 },
    { text: "Make TOYOTA", confidence: 90 },
    { text: "Model", confidence: 90 },
    { text: "RAV4", confidence: 90 },
    { text: "Year 2016", confidence: 90 },
  ];
  assert.deepEqual(values(readDocument(lines, { today: TODAY })), {
    plate: "RAB 123 C",
    make: "TOYOTA",
    model: "RAV4",
    year: "2016",
  });
});

Deno.test("a page is refused as unreadable only when too little of it was read", () => {
  const few = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Plate No."], [400, "RAB 123 C"]],
    [[40, "Make"], [400, "TOYOTA"]],
    [[40, "Model"], [400, "~~"]],
  ]);
  assert.equal(readDocument(few, { today: TODAY }).kind, "unreadable");
  const enough = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Plate No."], [400, "RAB 123 C"]],
    [[40, "Make"], [400, "TOYOTA"]],
    [[40, "Year"], [400, "2016"]],
  ]);
  assert.deepEqual(values(readDocument(enough, { today: TODAY })), {
    plate: "RAB 123 C",
    make: "TOYOTA",
    year: "2016",
  });
});

Deno.test("a doubtful value is returned with its note, never dropped", () => {
  const lines = page([
    [[40, "DRIVING LICENCE"]],
    [[40, "Names"], [400, "MUKAMANA ALINE"]],
    [[40, "Date of birth"], [400, "17/12/1986"]],
    [[40, "Licence No."], [400, "RW/DL/004512"]],
    [[40, "National ID"], [400, "1 1986 7 0012345 0 12"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.licence_number.value, "RW/DL/004512");
  assert.equal(reading.fields.licence_number.valid, false);
  assert.match(reading.fields.licence_number.note ?? "", /cannot check/);
  assert.equal(reading.fields.national_id.valid, true);
});

// Pages as tesseract read them (word boxes dumped by bench/ocr_accuracy.ts --dump-words from the
// `families` fixtures): the layouts the reader must hold on, without running OCR.
const READ_WHOLE = [
  "16_two_column_right_vehicle_registration_jpeg",
  "19_two_column_right_license_clean",
  "25_two_column_below_id_card_jpeg",
  "36_stacked_right_vehicle_registration_glare",
  "41_three_column_below_vehicle_registration_desk_angle",
  // The project's own layout, a label wrapped under itself ("Date of" over "birth").
  "heldout_09_license_blurred",
  "heldout_18_id_card_small",
  // The fourth round's dev families (`fresh_dev`): a plate and a national ID wrapped in a narrow
  // column under a holographic band; a national ID wrapped under a label's unknown first
  // wording; a use OCR split ("PRI VÉ") in ink over a printed line; categories that lost their
  // comma ("BC"); a typewriter's 0 read as 6 in a year ("02-SEP-2621").
  "fresh_dev_01_holo_band_vehicle_registration_clean",
  "fresh_dev_10_holo_band_id_card_clean",
  "fresh_dev_17_ink_on_lines_vehicle_registration_grain",
  "fresh_dev_19_ink_on_lines_license_clean",
  "fresh_dev_32_typewriter_log_vehicle_registration_desk_angle",
  // The sixth round's dev families (`sixth_dev`): values over their small labels; codes beside
  // the values with a legend; each value before its label; a card without its title.
  "sixth_dev_28_value_above_vehicle_registration_clean",
  "sixth_dev_07_coded_legend_vehicle_registration_jpeg",
  "sixth_dev_37_value_first_vehicle_registration_clean",
  "sixth_dev_16_cropped_title_vehicle_registration_jpeg",
  // The ninth round's dev families (`ninth_dev`): values under two- or three-letter captions, a
  // name as `RWIGEMA, Eric`, a hyphenated ID; a booklet's boxed codes with their key lower down,
  // Roman-numeral months; labels at the row's far end.
  "ninth_dev_01_abbrev_grid_vehicle_registration_clean",
  "ninth_dev_10_abbrev_grid_id_card_clean",
  "ninth_dev_19_coded_booklet_license_clean",
  "ninth_dev_22_far_right_labels_vehicle_registration_low_contrast_jpeg",
];

for (const name of READ_WHOLE) {
  Deno.test(`tesseract's words of ${name} read every field right`, async () => {
    const { entry, lines } = await readWordsFixture(name);
    assert.deepEqual(values(readDocument(lines, { today: TODAY })), entry.fields);
  });
}

Deno.test("tesseract's words of a card whose small labels blurred: read in part, not refused", async () => {
  const { entry, lines } = await readWordsFixture("38_stacked_right_vehicle_registration_rotated");
  const read = values(readDocument(lines, { today: TODAY }));
  for (const field of ["plate", "vin", "owner_national_id", "usage"]) {
    assert.equal(read[field], entry.fields[field], field);
  }
});

Deno.test("tesseract's words of ink written higher than its label: the owner's name is read", async () => {
  const { entry, lines } = await readWordsFixture(
    "fresh_dev_11_ink_on_lines_vehicle_registration_rotated",
  );
  const read = values(readDocument(lines, { today: TODAY }));
  assert.equal(read.owner_name, entry.fields.owner_name);
});

Deno.test("tesseract's words of a receipt and of a blur nobody could read are refused", async () => {
  for (const name of ["48_receipt_clean", "46_below_vehicle_registration_unreadable"]) {
    const { lines } = await readWordsFixture(name);
    assert.notEqual(readDocument(lines, { today: TODAY }).kind, "document", name);
  }
});

Deno.test("abbreviated and other wordings of labels are read: Reg. No, Yr of Mfg, ID No. of owner, Exp.", () => {
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Reg. No"], [400, "RAC 514 K"]],
    [[40, "Chassis/VIN"], [400, "JTEBU5JR5A5012345"]],
    [[40, "Make/Marque"], [400, "TOYOTA"]],
    [[40, "Yr of Mfg"], [400, "2011"]],
    [[40, "Registered owner"], [400, "UWASE ALINE"]],
    [[40, "ID No. of owner"], [400, "1 1990 7 0012345 0 12"]],
    [[40, "Date issued"], [400, "2019-03-12"]],
    [[40, "Exp."], [400, "12 MAR 2029"]],
  ]);
  const read = values(readDocument(lines, { today: TODAY }));
  assert.equal(read.plate, "RAC 514 K");
  assert.equal(read.make, "TOYOTA");
  assert.equal(read.year, "2011");
  assert.equal(read.owner_name, "UWASE ALINE");
  assert.equal(read.owner_national_id, "1199070012345012");
  assert.equal(read.issue_date, "2019-03-12");
  assert.equal(read.expiry_date, "2029-03-12");
  const licence = values(readDocument(
    page([
      [[40, "DRIVING LICENCE"]],
      [[40, "Name"], [400, "MUGISHA ERIC"]],
      [[40, "D.O.B"], [400, "05.01.1990"]],
      [[40, "NID"], [400, "1 1990 8 0012345 0 12"]],
      [[40, "DL No."], [400, "12A345678"]],
      [[40, "Cat."], [400, "B, C"]],
    ]),
    { today: TODAY },
  ));
  assert.equal(licence.date_of_birth, "1990-01-05");
  assert.equal(licence.national_id, "1199080012345012");
  assert.equal(licence.licence_number, "12A345678");
  assert.equal(licence.categories, "B, C");
  const id = values(readDocument(
    page([
      [[40, "NATIONAL IDENTITY CARD"]],
      [[40, "Names"], [400, "ISHIMWE GRACE"]],
      [[40, "Gender"], [400, "F"]],
      [[40, "Issued at"], [400, "HUYE"]],
      [[40, "Issue date"], [400, "14 FEB 2020"]],
    ]),
    { today: TODAY },
  ));
  assert.equal(id.sex, "F");
  assert.equal(id.place_of_issue, "HUYE");
  assert.equal(id.issue_date, "2020-02-14");
});

Deno.test("typed leaders between a label and its value are not read as either", () => {
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Plate No.............. RAB 123 C"]],
    [[40, "Make..........TOYOTA ......"]],
    [[40, "Owner ________ ________ KAMANZI PAUL"]],
    [[40, "Year …………… 2015"]],
    // Leaders OCR read as letters: a "word" longer than any value.
    [[40, "Owner ID …nnccooveeceennenssssensereenensseeeeerenemm…… 1 1985 8 0012345 0 12"]],
  ]);
  const read = values(readDocument(lines, { today: TODAY }));
  assert.equal(read.plate, "RAB 123 C");
  assert.equal(read.make, "TOYOTA");
  assert.equal(read.owner_name, "KAMANZI PAUL");
  assert.equal(read.year, "2015");
  assert.equal(read.owner_national_id, "1198580012345012");
});

Deno.test("a card whose small labels OCR lost is a document, its values known by what they are", () => {
  // Small-caps labels above large values: tesseract read the values and the title only.
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "RAB 123 C"], [500, "TOYOTA"]],
    [[40, "HILUX"], [500, "2015"]],
    [[40, "12/03/2019"], [500, "KAMANZI PAUL"]],
    [[40, "1 1985 8 0012345 0 12"], [500, "PRIVATE"]],
    [[40, "2029-03-11"]],
  ]);
  const read = values(readDocument(lines, { today: TODAY }));
  assert.equal(read.plate, "RAB 123 C");
  assert.equal(read.make, "TOYOTA");
  assert.equal(read.year, "2015");
  assert.equal(read.owner_name, "KAMANZI PAUL");
  assert.equal(read.owner_national_id, "1198580012345012");
  // The one word of capitals left once the others were claimed, on a card whose make is read.
  assert.equal(read.model, "HILUX");
  assert.equal(read.usage, "private");
  // Issued before today, expiring after: the dates' order in the card's life places them.
  assert.equal(read.issue_date, "2019-03-12");
  assert.equal(read.expiry_date, "2029-03-11");
  const licence = values(readDocument(
    page([
      [[40, "DRIVING LICENCE"]],
      [[40, "MUGISHA ERIC"], [500, "1 1990 8 0012345 0 12"]],
      [[40, "14 FEB 2031"], [500, "05.01.1990"], [900, "2016-07-01"]],
    ]),
    { today: TODAY },
  ));
  assert.equal(licence.date_of_birth, "1990-01-05");
  assert.equal(licence.issue_date, "2016-07-01");
  assert.equal(licence.expiry_date, "2031-02-14");
  // Two ways to place three dates on an ID card's two: none is guessed.
  const id = readDocument(
    page([
      [[40, "NATIONAL IDENTITY CARD"]],
      [[40, "ISHIMWE GRACE"], [500, "1 1980 7 0012345 0 12"]],
      [[40, "01/01/1980"], [500, "01/01/1990"], [900, "01/01/2015"]],
    ]),
    { today: TODAY },
  );
  assert.equal(id.kind, "document");
  if (id.kind !== "document") return;
  assert.equal(id.fields.date_of_birth, undefined);
  assert.equal(id.fields.issue_date, undefined);
  // A title alone with a word is still not a document.
  assert.equal(
    readDocument(page([[[40, "CERTIFICATE OF REGISTRATION"]], [[40, "HELLO"]]]), { today: TODAY })
      .kind,
    "not_a_document",
  );
});

Deno.test("a value ends at a label we do not know, and a label's unknown words before it are not the value", () => {
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    // Dense rows: the next column starts right after the value, with a label nobody listed.
    [[40, "Make: TOYOTA Seats: 4"], [500, "Ubwoko / Mode! HILUX"]],
    [[40, "Purake / Plate No. RAB 123 C"], [500, "Nyirayo / Owner's name KAMANZI PAUL"]],
  ]);
  const read = values(readDocument(lines, { today: TODAY }));
  assert.equal(read.make, "TOYOTA");
  assert.equal(read.model, "HILUX");
  assert.equal(read.owner_name, "KAMANZI PAUL");
  const licence = values(readDocument(
    page([
      [[40, "DRIVING LICENCE"]],
      [[40, "Licence No: 12A345678"], [500, "National ID: 1 1994 7 5493845 2 81 Class: A, B"]],
    ]),
    { today: TODAY },
  ));
  assert.equal(licence.national_id, "1199475493845281");
  assert.equal(licence.categories, "A, B");
});

Deno.test("a lone date on a card whose labels were lost is its issue, not its expiry; a VIN is found by its shape", () => {
  const read = values(readDocument(
    page([
      [[40, "CARTE D'IMMATRICULATION"]],
      [[40, "RGH 204 C"], [500, "TOYOTA"]],
      [[40, "JTE0WP/34AS581634"], [500, "2022"]],
      [[40, "HILUX"], [500, "12/07/2012"]],
    ]),
    { today: TODAY },
  ));
  assert.equal(read.issue_date, "2012-07-12");
  assert.equal(read.expiry_date, undefined);
  assert.equal(read.vin, "JTE0WPJ34AS581634");
});

Deno.test("another field's label in two languages under a label is not its value", () => {
  const reading = readDocument(
    page([
      [[40, "CERTIFICATE OF REGISTRATION"]],
      [[40, "Registration Mark RG 586 N"]],
      [[40, "Ikirango / Make"]],
      [[40, "Colour / Ibara SILVER"]],
      [[40, "Ubwoko / Model BOXER"]],
      [[40, "Umwaka / Year 2005"]],
    ]),
    { today: TODAY },
  );
  const read = values(reading);
  assert.equal(read.make, undefined);
  assert.equal(read.model, "BOXER");
  // "y'uruhushya" (the licence's) names the number even when OCR lost "Nimero".
  const licence = values(readDocument(
    page([
      [[40, "DRIVING LICENCE"]],
      [[40, "Names MUTONI JEAN"]],
      [[40, "Rawr y'uruhushya / Licence 62E221444"]],
      [[40, "Exp. 12/10/2030"]],
    ]),
    { today: TODAY },
  ));
  assert.equal(licence.licence_number, "62E221444");
  // A value in two languages under its label ("Gore / F") is still its value.
  const id = values(readDocument(
    page([
      [[40, "IDENTITY CARD"]],
      [[40, "Amazina / Names:"]],
      [[40, "GATETE GRACE"]],
      [[40, "Igitsina / Sexe / Sex:"]],
      [[40, "Gore / F"]],
      [[40, "Date of birth:"]],
      [[40, "23/08/1963"]],
    ]),
    { today: TODAY },
  ));
  assert.equal(id.sex, "F");
});

Deno.test("a title with a date and a name is an ID card even when OCR read none of its labels", () => {
  const read = values(readDocument(
    page([
      [[40, "INDANGAMUNTU"]],
      [[40, "RWIGEMA EMMANUEL"], [500, "09 DEC 2000"]],
      [[40, "Gabo"], [500, "24 JUL 2021"]],
    ]),
    { today: TODAY },
  ));
  assert.equal(read.full_name, "RWIGEMA EMMANUEL");
  assert.equal(read.date_of_birth, "2000-12-09");
  assert.equal(read.issue_date, "2021-07-24");
  assert.equal(read.sex, "M");
});

Deno.test("a value under its label is that field's before any field looks for its shape", () => {
  // A new licence's number has a national ID's shape; the ID's own label was lost.
  const reading = readDocument(
    page([
      [[40, "DRIVING LICENCE"]],
      [[40, "Full name"], [500, "Licence number"]],
      [[40, "IRADUKUNDA GRACE"], [500, "1198988210012114"]],
      [[40, "Date of birth 07/04/1989"]],
    ]),
    { today: TODAY },
  );
  const read = values(reading);
  assert.equal(read.licence_number, "1198988210012114");
  assert.equal(read.national_id, undefined);
});

Deno.test("a garbled label's debris is neither a name nor a model", () => {
  const read = values(readDocument(
    page([
      [[40, "CERTIFICATE OF REGISTRATION"]],
      [[40, "mere purake RF 280 Z"]],
      [[40, "Sumord GS AIRE MD65TZT23KL162441"]],
      [[40, "Le HLX125"]],
      [[40, "Make TVS"]],
      [[40, "ic NDAYISABA ALINE"]],
    ]),
    { today: TODAY },
  ));
  assert.equal(read.owner_name, "NDAYISABA ALINE");
  assert.equal(read.model, "HLX125");
});

Deno.test("a value too long for its column wraps onto the next line and is read whole", () => {
  // Two columns of "label - value"; the plate's letter and the national ID's last digits wrapped
  // under the label's start, as a narrow column prints them.
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Plate number - RBB 581"], [600, "Make - HYUNDAI"]],
    [[40, "L"]],
    [[40, "Engine No - LG4041684"], [600, "Owner ID - 1 1982 7"]],
    [[600, "3566625 0 32"]],
    [[40, "Model - SANTAFE"], [600, "Date issued - 11-02-2024"]],
  ], { pitch: 28 });
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  // Its first line alone passes only as a repaired motorcycle plate ("RB 858 I").
  assert.equal(reading.fields.plate.value, "RBB 581 L");
  assert.equal(reading.fields.owner_national_id.value, "1198273566625032");
  assert.equal(reading.fields.make.value, "HYUNDAI");
  assert.equal(reading.fields.model.value, "SANTAFE");
});

Deno.test("the next field's row under a value is not its wrapped end", () => {
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Plate No."], [300, "RAB 123 C"]],
    [[40, "Make"], [300, "TOYOTA"]],
    [[40, "Tare"], [300, "1200 kg"]],
    [[40, "Model"], [300, "HILUX"]],
  ], { pitch: 28 });
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.plate.value, "RAB 123 C");
  assert.equal(reading.fields.make.value, "TOYOTA");
  assert.equal(reading.fields.model.value, "HILUX");
});

Deno.test("a value written larger and higher over a printed line is on its label's row", () => {
  const word = (text: string, x0: number, y0: number, x1: number, y1: number) => ({
    text,
    confidence: 90,
    box: { x0, y0, x1, y1 },
  });
  const line = (...words: ReturnType<typeof word>[]) => ({
    text: words.map((w) => w.text).join(" "),
    confidence: 90,
    words,
  });
  // As tesseract read an ink-on-lines certificate: the name's middle is 11 px above the label's,
  // more than half the label's height, but the two overlap over most of the label.
  const lines = [
    line(word("CERTIFICATE", 130, 100, 330, 124), word("OF", 340, 100, 380, 124)),
    line(word("REGISTRATION", 390, 100, 600, 124)),
    line(word("Plate", 130, 600, 200, 622), word("No.:", 210, 600, 270, 622)),
    line(
      word("RAB", 300, 588, 360, 614),
      word("123", 370, 588, 420, 614),
      word("C", 430, 588, 450, 614),
    ),
    line(word("Make:", 130, 650, 200, 672), word("TOYOTA", 300, 650, 400, 672)),
    line(word("Year:", 130, 700, 200, 722), word("2016", 300, 700, 360, 722)),
    line(
      word("Registered", 129, 746, 280, 774),
      word("owner:", 292, 752, 385, 769),
      word("|", 414, 731, 423, 778),
      word("KAYITESI", 436, 735, 567, 763),
      word("FABRICE", 577, 732, 703, 761),
    ),
  ];
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.owner_name?.value, "KAYITESI FABRICE");
});

Deno.test("an engine number left on the page is not a model, however alone it is", () => {
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Plate No. RAB 123 C"]],
    [[40, "Make TOYOTA"]],
    [[40, "FR2186837"]],
    [[40, "Year 2016"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.model, undefined);
});

Deno.test("missingValues() gives the area beside and under a label whose value was not read", () => {
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Plate No."], [300, "RAB 123 C"], [600, "Make"], [760, "TOYOTA"]],
    [[40, "VIN"], [300, "Year"], [460, "2019"]],
    [[40, "Owner"], [300, "MUGISHA JEAN"]],
  ]);
  const today = new Date("2026-11-24T00:00:00Z");
  const missing = missingValues(lines, { today });
  const vin = missing.find((value) => value.field === "vin");
  assert.ok(vin, "the VIN's label was found and its value was not read");
  // Right of the label up to the next label on its row (Year at x 300), and the row under it:
  // deep enough for a value in boxes, from a little left of the label (a first word OCR missed).
  const h = vin.label.y1 - vin.label.y0;
  assert.equal(vin.area.x0, 40 - AREA_LEFT * h);
  assert.equal(vin.area.x1, 300);
  assert.ok(vin.area.y0 < vin.label.y0);
  assert.equal(vin.area.y1, vin.label.y1 + AREA_BELOW * h);
  assert.ok(
    vin.area.y1 >= vin.label.y1 + 4 * h,
    "a boxed value's digits sit lower than 2.5 label heights",
  );
  assert.ok(vin.area.x0 < 40);
  // Fields that were read, and fields with no label on the page, have no area.
  assert.ok(
    !missing.some((value) => ["plate", "make", "year", "owner_name"].includes(value.field)),
  );
  assert.ok(!missing.some((value) => value.field === "model"));
  assert.deepEqual(missingValues(page([[[40, "TOTAL 12,000 RWF"]]]), { today }), []);
  // With no label after it on its row, the area reaches 14 label heights past the label.
  const alone = missingValues(
    page([
      [[40, "CERTIFICATE OF REGISTRATION"]],
      [[40, "Plate No."], [300, "RAB 123 C"]],
      [[40, "Make"], [300, "TOYOTA"]],
      [[40, "VIN"]],
    ]),
    { today },
  ).find((value) => value.field === "vin");
  assert.equal(alone?.area.x1, 76 + 14 * 22);
});

Deno.test("missingValues() gives a doubtful value's area too, when asked for its field", () => {
  // The VIN was read, but fails its check digit: its area is wanted only when named doubtful.
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Plate No."], [300, "RAB 123 C"]],
    [[40, "VIN"], [300, "JTDBR32E720012345"]],
    [[40, "Make"], [300, "TOYOTA"]],
  ]);
  const today = new Date("2026-11-24T00:00:00Z");
  const reading = readDocument(lines, { today });
  assert.equal(reading.kind === "document" && reading.fields.vin?.valid, false);
  assert.deepEqual(missingValues(lines, { today }).map((value) => value.field), []);
  const doubtful = missingValues(lines, { today, doubtful: ["vin"] });
  assert.deepEqual(doubtful.map((value) => value.field), ["vin"]);
  // Beside and under the VIN's label, over the value read there.
  assert.ok(doubtful[0].area.x0 < 40);
  assert.ok(doubtful[0].area.x1 > 300);
  assert.ok(doubtful[0].area.y0 < doubtful[0].label.y0);
});

Deno.test("a header row's other wording is never a value: the capitals under it are", () => {
  // One record under a header row whose labels come in two languages, one of them unknown.
  const lines = page([
    [[40, "CERTIFICAT D'IMMATRICULATION"]],
    [[40, "Immat. / Licence plate"], [340, "Marque / Manufacturer"], [
      640,
      "Nom & prénoms / Owner",
    ]],
    [[40, "RAB 123 C"], [340, "BAJAJ"], [640, "NDAYISABA CHANTAL"]],
    [[40, "Type / Model"], [340, "Fait le / Date of reg."]],
    [[40, "PULSAR"], [340, "24/07/2013"]],
  ]);
  const reading = readDocument(lines, { today: new Date("2026-06-01T00:00:00Z") });
  assert.ok(reading.kind === "document" && reading.type === "vehicle_registration");
  assert.equal(reading.fields.make?.value, "BAJAJ");
  assert.equal(reading.fields.owner_name?.value, "NDAYISABA CHANTAL");
  assert.equal(reading.fields.plate?.value, "RAB 123 C");
});

Deno.test("an ID card titled in full ('Carte nationale d'identité') or in Swahili is one", () => {
  for (const title of ["CARTE NATIONALE D'IDENTITÉ", "KITAMBULISHO CHA TAIFA"]) {
    const reading = readDocument(
      page([
        [[40, title]],
        [[40, "Jina kamili"], [300, "Tarehe ya kuzaliwa"]],
        [[40, "UWIMANA EMMANUEL"], [300, "09/12/1995"]],
        [[40, "1 1995 8 0988569 0 78"]],
      ]),
      { today: new Date("2026-06-01T00:00:00Z") },
    );
    assert.ok(reading.kind === "document" && reading.type === "id_card", title);
  }
});

Deno.test("a card with symbols for labels: a sex printed as a word wins over a symbol read as M", () => {
  const reading = readDocument(
    page([
      [[40, "CARTE NATIONALE D'IDENTITÉ"]],
      [[40, "@"], [100, "RWIGEMA EMMANUEL"]],
      [[40, ">"], [100, "2004-05-24"]],
      [[40, "©"], [100, "GORE"]],
      [[40, "M"], [100, "2017-05-28"]],
      [[40, "C"], [100, "1 2004 7 1096785 0 62"]],
    ]),
    { today: new Date("2026-06-01T00:00:00Z") },
  );
  assert.ok(reading.kind === "document" && reading.type === "id_card");
  assert.equal(reading.fields.sex?.value, "F");
  assert.equal(reading.fields.date_of_birth?.value, "2004-05-24");
  assert.equal(reading.fields.issue_date?.value, "2017-05-28");
});

Deno.test("a VIN read from a value row leaves the make after it free; a header row's capitals are no model", () => {
  const reading = readDocument(
    page([
      [[40, "VEHICLE REGISTRATION CERTIFICATE"]],
      [[40, "Licence plate"], [300, "VIN"], [560, "Manufacturer"]],
      [[40, "RAG 777 P"], [300, "KNAJD2ZG8EX655586"], [520, "KIA"]],
      [[40, "Type"], [300, "CNI"], [560, "Usage"]],
      [[40, "SPORTAGE"], [300, "1 1974 7 4021101 0 84"], [560, "TAXI"]],
    ]),
    { today: new Date("2026-06-01T00:00:00Z") },
  );
  assert.ok(reading.kind === "document" && reading.type === "vehicle_registration");
  assert.equal(reading.fields.vin?.value, "KNAJD2ZG8EX655586");
  assert.equal(reading.fields.make?.value, "KIA");
  assert.equal(reading.fields.model?.value, "SPORTAGE");
  assert.equal(reading.fields.usage?.value, "taxi");
});

Deno.test("on a card without labels a colour is never the model", () => {
  const reading = readDocument(
    page([
      [[40, "VEHICLE REGISTRATION CERTIFICATE"]],
      [[40, "RHC 598 V"]],
      [[40, "WVWL5R7B7FB108333"]],
      [[40, "VOLKSWAGEN"]],
      [[40, "POLO"]],
      [[40, "RED"]],
    ]),
    { today: new Date("2026-06-01T00:00:00Z") },
  );
  assert.ok(reading.kind === "document");
  assert.equal(reading.fields.make?.value, "VOLKSWAGEN");
  assert.equal(reading.fields.model?.value, "POLO");
});

Deno.test("a licence's classes printed as a list of category letters are read without a label", () => {
  const reading = readDocument(
    page([
      [[40, "DRIVING LICENCE"]],
      [[40, "&@"], [100, "MUGISHA GRACE"]],
      [[40, "("], [100, "1974-09-28"]],
      [[40, "DO"], [100, "1 1974 7 9347537 1 84"]],
      [[40, "0"], [100, "B,c"]],
      [[40, "0"], [100, "2017-09-18"]],
    ]),
    { today: new Date("2026-06-01T00:00:00Z") },
  );
  assert.ok(reading.kind === "document" && reading.type === "license");
  assert.equal(reading.fields.categories?.value, "B, C");
});

Deno.test("a value wrapped within its own column across from its label is read whole", () => {
  const rows: Array<Array<[number, string]>> = [
    [[40, "VEHICLE REGISTRATION CERTIFICATE"]],
    [[40, "Plate"], [300, "RAB 123 C"]],
    [[40, "Chassis/VIN"], [300, "JTDKB20U8"]],
    [[300, "93012345"]],
    [[40, "Make"], [300, "TOYOTA"]],
    [[40, "Owner"], [300, "NYIRAHABIMANA"]],
    [[300, "CLAUDINE"]],
    [[40, "Use"], [300, "PRIVATE"]],
    [[40, "Issued"], [300, "12 JAN"]],
    [[300, "2019"]],
  ];
  // Lines of a wrapped value sit tight under each other (a quarter of a line's height apart).
  const reading = readDocument(page(rows, { pitch: 28 }), {
    today: new Date("2026-06-01T00:00:00Z"),
  });
  assert.ok(reading.kind === "document");
  assert.equal(reading.fields.vin?.value, "JTDKB20U893012345");
  assert.equal(reading.fields.owner_name?.value, "NYIRAHABIMANA CLAUDINE");
  assert.equal(reading.fields.issue_date?.value, "2019-01-12");
  assert.equal(reading.fields.year, undefined);
  assert.equal(reading.fields.usage?.value, "private");
});

Deno.test("a certificate that states its values in sentences is read by their shapes and cue words", () => {
  const today = new Date("2026-06-01T00:00:00Z");
  const english = readDocument(
    page([
      [[40, "VEHICLE REGISTRATION CERTIFICATE"]],
      [[
        40,
        "This certifies that the vehicle TOYOTA COROLLA built in 2015 bearing plate RAB 123 C,",
      ]],
      [[40, "chassis JTDKB20U893012345, is registered to MUGISHA ERIC, holder of ID"]],
      [[
        40,
        "1 1985 8 0012345 0 12 for PRIVATE. Issued on 12 JAN 2019 and valid until 11 JAN 2029.",
      ]],
    ]),
    { today },
  );
  const values = (reading: DocumentReading) =>
    reading.kind === "document"
      ? Object.fromEntries(Object.entries(reading.fields).map(([key, read]) => [key, read.value]))
      : {};
  assert.deepEqual(values(english), {
    plate: "RAB 123 C",
    vin: "JTDKB20U893012345",
    make: "TOYOTA",
    model: "COROLLA",
    year: "2015",
    owner_name: "MUGISHA ERIC",
    owner_national_id: "1198580012345012",
    usage: "private",
    issue_date: "2019-01-12",
    expiry_date: "2029-01-11",
  });
  // In French the year's cue ("fabriqué en 2015 immatriculé RAB 123 C") runs on into the plate:
  // the year takes its own word only.
  const french = readDocument(
    page([
      [[40, "CERTIFICAT D'IMMATRICULATION"]],
      [[
        40,
        "Il est certifié que le véhicule RENAULT DUSTER fabriqué en 2015 immatriculé RAB 123 C,",
      ]],
      [[40, "châssis JTDKB20U893012345, appartient à UWASE ALINE, titulaire de la CNI"]],
      [[40, "1 1985 7 0012345 0 12 pour un usage PARTICULIER. Fait le 2019-01-12."]],
    ]),
    { today },
  );
  assert.equal(values(french).plate, "RAB 123 C");
  assert.equal(values(french).year, "2015");
  assert.equal(values(french).owner_name, "UWASE ALINE");
  assert.equal(values(french).usage, "private");
});

Deno.test("codes in boxes beside the values, their box edges read and their dots lost, still name the fields", () => {
  // A booklet prints each code in a small box ("[D.1]"): OCR reads the box's edges as brackets
  // and pipes and drops the code's dot. The legend prints the codes with their dots.
  const lines = page([
    [[40, "VEHICLE REGISTRATION BOOK"]],
    [[40, "[A | RAB 123 C"], [500, "[B] 22.VI.2019"]],
    [[40, "[ C1] MUGISHA JEAN"], [500, "[D1] TOYOTA"]],
    // The box's edge read as a word of its own after the code: "D3 |".
    [[40, "D3 | COROLLA"], [500, "[E | JTDBR32E720123456"]],
    [[40, "Explanation of codes"]],
    [[40, "D.1 Make / Marque"], [500, "D.3 Commercial name / Dénomination commerciale"]],
    [[40, "E Vehicle identification number"], [500, "A Plate / Numéro d'immatriculation"]],
    [[40, "C.1 Name of owner / Titulaire"], [500, "B Date registered"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.plate?.value, "RAB 123 C");
  assert.equal(reading.fields.owner_name?.value, "MUGISHA JEAN");
  assert.equal(reading.fields.make?.value, "TOYOTA");
  assert.equal(reading.fields.model?.value, "COROLLA");
  // Dated with a Roman month, found by its shape.
  assert.equal(reading.fields.issue_date?.value, "2019-06-22");
});

Deno.test("a name without a label is found by its print: capitals with a given name in small letters", () => {
  // Captions OCR cannot tie to fields (two-letter codes); the name mixes a surname in capitals
  // with a given name in small letters, which no make, model, use or place does. The title's
  // words are never a name, and two words of capitals (a make and a model) are no rival.
  const lines = page([
    [[40, "CERTIFICAT D'IMMATRICULATION"]],
    [[40, "VEHICLE REGISTRATION BOOK"]],
    [[40, "NID"], [440, "PL"], [840, "DRG"]],
    [[40, "1197480676517153"], [440, "RAC 434 M"], [840, "2016/08/02"]],
    [[40, "OWN"], [440, "MK"], [840, "MDL"]],
    [[40, "RWIGEMA, Eric"], [440, "TOYOTA"], [840, "COROLLA"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.owner_name?.value, "RWIGEMA ERIC");
  const given = readDocument(
    page([
      [[40, "NATIONAL IDENTITY CARD"]],
      [[40, "NM"], [440, "DOB"]],
      [[40, "Clarisse NIYONSENGA"], [440, "12.IV.1990"]],
      [[40, "NID"], [440, "POI"]],
      [[40, "1199070738238267"], [440, "GASABO"]],
    ]),
    { today: TODAY },
  );
  assert.equal(given.kind, "document");
  if (given.kind !== "document") return;
  assert.equal(given.fields.full_name?.value, "CLARISSE NIYONSENGA");
});

Deno.test("a value at a row's start takes its label at the row's far end, past the label's own words", () => {
  // Labels right-aligned at the card's far right; "Ikirango" is a label we know, "cy'uruganda"
  // the rest of its wording, in small letters: no value right of it, so the value is the row's
  // start.
  const lines = page([
    [[40, "CERTIFICAT D'IMMATRICULATION"]],
    [[40, "RAB 123 C"], [900, "Purake"]],
    [[40, "YAMAHA"], [900, "Ikirango cy'uruganda"]],
    [[40, "MD2YA9UH9BW081658"], [900, "Nimero ya shasi"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.make?.value, "YAMAHA");
  assert.equal(reading.fields.plate?.value, "RAB 123 C");
});

Deno.test("a row of two- and three-letter captions holds labels, not a model", () => {
  // Captions OCR cannot name ("OWN MK MDL") over the values: once the make is read, the one
  // word of capitals left is the model, not a caption.
  // Nor is a title's word ("BOOK"), and OCR reads a caption's capital small now and then.
  const lines = page([
    [[40, "CERTIFICAT D'IMMATRICULATION"]],
    [[40, "VEHICLE REGISTRATION BOOK"]],
    [[40, "PL"], [440, "VIN"], [840, "DRG"]],
    [[40, "RAC 434 M"], [440, "MD2YA9UH9BW081658"], [840, "2016/08/02"]],
    [[40, "OwN"], [440, "Mk"], [840, "MDL"]],
    [[40, "RWIGEMA, Eric"], [440, "TOYOTA"], [840, "HUNK"]],
    [[40, "EXP"], [440, "KG"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.make?.value, "TOYOTA");
  assert.equal(reading.fields.model?.value, "HUNK");
});

Deno.test("a national ID printed with hyphens between its groups is found by its shape", () => {
  // Its label a code the page never explains: only the number's shape names it.
  const lines = page([
    [[40, "NATIONAL IDENTITY CARD"]],
    [[40, "[4] Male"], [440, "[2] 1-1984-8-8432333-1-39"]],
    [[40, "[6] 22.VI.2024"], [440, "[3] 27.IV.1984"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.national_id?.value, "1198488432333139");
  assert.equal(reading.fields.date_of_birth?.value, "1984-04-27");
});

Deno.test("an ID card's place of issue without a readable label is its one district's name", () => {
  const lines = page([
    [[40, "NATIONAL IDENTITY CARD"]],
    [[40, "NM"], [440, "NID"], [840, "DOB"]],
    [[40, "Clarisse NIYONSENGA"], [440, "1199573378327098"], [840, "27 May 1995"]],
    [[40, "SX"], [440, "POI"], [840, "DOI"]],
    [[40, "Female"], [440, "NYAMASHEKE"], [840, "23 February 2009"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.place_of_issue?.value, "NYAMASHEKE");
  assert.equal(reading.fields.sex?.value, "F");
  // Two districts (an address beside the place) name none.
  const two = readDocument(
    page([
      [[40, "NATIONAL IDENTITY CARD"]],
      [[40, "Names"], [300, "MUGISHA JEAN"]],
      [[40, "Date of birth"], [300, "27 May 1995"]],
      [[40, "ID No."], [300, "1199573378327098"]],
      [[40, "NYAMASHEKE"], [440, "GASABO"]],
    ]),
    { today: TODAY },
  );
  assert.equal(two.kind === "document" ? two.fields.place_of_issue : "refused", undefined);
});

Deno.test("a licence's classes run together without a label (BCD) are its categories, in order only", () => {
  const licence = (classes: string) =>
    readDocument(
      page([
        [[40, "DRIVING LICENCE"]],
        [[40, "Licence holder"], [300, "MUGISHA JEAN"]],
        [[40, "Born"], [300, "12.IV.1990"]],
        [[40, "Licence number"], [300, "12A345678"]],
        [[40, "[9]"], [100, classes], [440, "GASABO / KG 451 ST"]],
      ]),
      { today: TODAY },
    );
  const read = licence("BCD");
  assert.equal(read.kind === "document" ? read.fields.categories?.value : "refused", "B, C, D");
  // Letters out of the alphabet's order are some other code, not classes.
  const other = licence("DBC");
  assert.equal(other.kind === "document" ? other.fields.categories : "refused", undefined);
});

Deno.test("a licence's second number of a national ID's shape is its licence number, doubtful", () => {
  const lines = page([
    [[40, "DRIVING LICENCE"]],
    [[40, "KAMANZI, Gilbert"], [440, "04.IX.1990"]],
    [[40, "4d. | 1199070738238267"], [440, "1199072369336016"]],
    [[40, "4d. National ID number"], [440, "4a. Issue date"]],
    [[40, "1. Licence holder"], [440, "3. Born"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.national_id?.value, "1199070738238267");
  assert.equal(reading.fields.licence_number?.value, "1199072369336016");
  // Which number is which was not printed beside it: the customer confirms.
  assert.equal(reading.fields.licence_number?.valid, false);
  assert.ok(reading.fields.licence_number?.note);
});

Deno.test("a title's second line in the same print is the title, never the holder's name", () => {
  // A title in two languages on two lines; the values carry footnote numbers, not labels.
  const lines = page([
    [[40, "ICYANGOMBWA CY'IKINYABIZIGA"]],
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [],
    [[40, "RAC 393 V"], [500, "MUHAWENIMANA Valens !°"]],
    [[40, "KNAT7M6L2BE294053"], [500, "KIA"]],
    [[40, "06/09/2023"], [500, "08/05/2029"]],
  ], { pitch: 30 });
  // The title's large print reads surer than the name.
  for (const word of lines[0].words ?? []) word.confidence = 96;
  for (const word of lines[3].words ?? []) word.confidence = 85;
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.owner_name?.value, "MUHAWENIMANA VALENS");
});

Deno.test("a footnote key of numbered labels without dots takes no value; marks on values are dropped", () => {
  // Each value carries its footnote's mark (read as a sign: "*", "°"); the key under them
  // numbers the labels without dots, several to a line.
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "RAC 393 V?"], [500, "MUHAWENIMANA Valens !°"]],
    [[40, "KNAT7M6L2BE294053"], [500, "KIA*"]],
    [[40, "2013°"], [500, "TAXI"]],
    [[40, "06/09/2023"], [500, "08/05/2029!"]],
    [[40, "1 Kizarangira ku wa 2 Numero y'icyapa 3 Itariki 4 Uruganda 5 Ingano ya moteri"]],
    [[40, "6 Umwaka 7 Ubwoko 8 Ibara 9 Nyir'ikinyabiziga 10 Icyo gikoreshwa 11 Nimero ya shasi"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  const values = Object.fromEntries(
    Object.entries(reading.fields).map(([field, read]) => [field, read.value]),
  );
  assert.equal(values.usage, "taxi");
  assert.equal(values.make, "KIA");
  assert.equal(values.year, "2013");
  // No word of the key is taken for a value.
  assert.equal(values.model, undefined);
});

Deno.test("a line of capitals naming the document is its title, its wording known or not; a model keeps no footnote mark", () => {
  // The title cut off ("REGIS…") matches no title's wording; its words are no model. The
  // model's label is unreadable and its footnote mark is read as a sign.
  const lines = page([
    [[40, "MOTOR VEHICLE REGIS"]],
    [[40, "Registration plate"], [500, "Make"]],
    [[40, "RGF 978 G"], [500, "MITSUBISHI"]],
    [[40, "MopeL"], [500, "Chassis number"]],
    [[40, "PAJERO*"], [500, "JMBSKHG49HD008415"]],
    [[40, "Year"], [500, "Use"]],
    [[40, "2013"], [500, "PRIVATE"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.make?.value, "MITSUBISHI");
  assert.equal(reading.fields.model?.value, "PAJERO");
});

Deno.test("abbreviated labels: NID names the owner's ID, and a label's wording after a slash is no model", () => {
  // Labels abbreviated in two languages over their values; only "NID" is a wording we know.
  const lines = page([
    [[40, "CARTE D'IMMATRICULATION"]],
    [[40, "Nom. Icy. / Reg"]],
    [[40, "RM 102 U"]],
    [[40, "Ind. Nyir. / NID"]],
    [[40, "1198787217698182"]],
    [[40, "Urug. / Mk"]],
    [[40, "BAJAJ"]],
    [[40, "Ubw. / Mdl"]],
    [[40, "PULSAR"]],
    [[40, "Shasi / Ch. No"]],
    [[40, "MD20SKMP8WL715249"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.owner_national_id?.value, "1198787217698182");
  assert.equal(reading.fields.make?.value, "BAJAJ");
  assert.equal(reading.fields.model?.value, "PULSAR");
});

Deno.test("a licence titled in the commonest English wording (Driver's licence) is a licence", () => {
  // Its labels abbreviated: only the name's and the expiry's are known wordings, too few to know
  // the page without its title.
  const lines = page([
    [[40, "DRIVER'S LICENCE"]],
    [[40, "Amaz. / Name"]],
    [[40, "MUHAWENIMANA Innocent"]],
    [[40, "Irang. / Exp"], [440, "Icyic."]],
    [[40, "23/02/2032"], [440, "BCD"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.type, "license");
  assert.equal(reading.fields.full_name?.value, "MUHAWENIMANA INNOCENT");
});

Deno.test("a use found without its label is read with the word beside it: MOTO TAGISI is a moto taxi", () => {
  // The labels in small capitals OCR could not read; the use is in two words.
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Unuaanon"], [500, "Uswoxo"]],
    [[40, "RJ 702 C"], [500, "TVS"]],
    [[40, "Unxwara"], [500, "leva"]],
    [[40, "MD6HWN584NN367404"], [500, "MOTO TAGISI"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.usage?.value, "taxi-moto");
});

Deno.test("a VIN read with one glyph twice beside its label or alone is read, doubtful", () => {
  const lines = page([
    [[40, "VEHICLE REGISTRATION CERTIFICATE"]],
    [[40, "Plaque - RCA 341 E"]],
    [[40, "N° châssis = JNI1YN1P63D6186935"]],
    [[40, "Marque … NISSAN"], [400, "Modèle :: NAVARA"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.vin?.value, "JN1YN1P63D6186935");
  assert.equal(reading.fields.vin?.valid, false);
  // Its label lost: found by its shape.
  const unlabelled = readDocument(
    page([
      [[40, "VEHICLE REGISTRATION CERTIFICATE"]],
      [[40, "Plaque - RCA 341 E"]],
      [[40, "MD6GH65MA4AC217142"]],
      [[40, "Marque … NISSAN"], [400, "Modèle :: NAVARA"]],
    ]),
    { today: TODAY },
  );
  assert.equal(unlabelled.kind === "document" && unlabelled.fields.vin?.value, "MD6H65MA4AC217142");
});

Deno.test("a model whose label OCR lost is the word right after the make, doubtful; never one before it", () => {
  // The small-caps labels read as noise; a misread colour (SIIVER) is another word of capitals.
  const rows: Array<Array<[number, string]>> = [
    [[40, "MOTOR VEHICLE REGISTRATION"]],
    [[40, "Plaque d'immatriculation"], [500, "Paoriseraue"]],
    [[40, "RGF 771 D"], [500, "MUGISHA Patrick"]],
    [[40, "Mingus"], [500, "Monete"], [900, "Numero ne chassis"]],
    [[40, "MITSUBISHI"], [500, "PAJERO"], [900, "JMBG3LGL6YV973790"]],
    [[40, "Count"], [500, "Cyuivbner"]],
    [[40, "SIIVER"], [500, "2494 CC"]],
  ];
  const reading = readDocument(page(rows), { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.make?.value, "MITSUBISHI");
  assert.equal(reading.fields.model?.value, "PAJERO");
  assert.equal(reading.fields.model?.valid, false);
  assert.ok(reading.fields.model?.note);
  // The make in the last column: the model opens the next row of values.
  const grid = readDocument(
    page([
      [[40, "CERTIFICATE OF REGISTRATION"]],
      [[40, "NUMERO Y'ICYAPA"], [500, "NYIR'KINVABIZIGA"], [900, "URvGANDA"]],
      [[40, "RDG 472 V"], [500, "MUHAWENIMANA Marie Claire"], [900, "ISUZU"]],
      [[40, "Uswoxo"], [500, "Nimero ya shasi"], [900, "Umwaka"]],
      [[40, "DMAX"], [500, "MPALZX0XXCR369626"], [900, "2014"]],
      [[40, "Inara"], [500, "Ingano ya moteri"]],
      [[40, "SIIVER"], [500, "2998 cc"]],
    ]),
    { today: TODAY },
  );
  assert.equal(grid.kind === "document" && grid.fields.model?.value, "DMAX");
  // Words of capitals only before the make, or far under it: no model is guessed.
  const before = readDocument(
    page([
      [[40, "CERTIFICATE OF REGISTRATION"]],
      [[40, "Plate No. RAB 123 C"]],
      [[40, "Chassis: JMBG3LGL6YV973790"]],
      [[40, "PAJERO"], [500, "SIIVER"]],
      [[40, "Make: MITSUBISHI"]],
    ]),
    { today: TODAY },
  );
  assert.equal(before.kind, "document");
  assert.equal(before.kind === "document" ? before.fields.model : "refused", undefined);
});

Deno.test("a make one OCR slip from a make we know is that make, beside its label or alone", () => {
  // The J at its end read as a bracket.
  const labelled = readDocument(
    page([
      [[40, "CERTIFICATE OF REGISTRATION"]],
      [[40, "Plate No."], [400, "RA 551 V"]],
      [[40, "Make"], [400, "BAJA]"]],
      [[40, "Chassis"], [400, "MD2CDLUX0XM945330"]],
    ]),
    { today: TODAY },
  );
  assert.equal(labelled.kind === "document" && labelled.fields.make?.value, "BAJAJ");
  // Its label lost: found by its name.
  const alone = readDocument(
    page([
      [[40, "CERTIFICATE OF REGISTRATION"]],
      [[40, "Plate No."], [400, "RA 551 V"]],
      [[40, "Chassis"], [400, "MD2CDLUX0XM945330"]],
      [[40, "BAJA)"], [400, "12/03/2024"]],
    ]),
    { today: TODAY },
  );
  assert.equal(alone.kind === "document" && alone.fields.make?.value, "BAJAJ");
  // A maker we do not know is read as printed.
  const other = readDocument(
    page([
      [[40, "CERTIFICATE OF REGISTRATION"]],
      [[40, "Plate No."], [400, "RA 551 V"]],
      [[40, "Make"], [400, "ZONGSHEN"]],
      [[40, "Chassis"], [400, "MD2CDLUX0XM945330"]],
    ]),
    { today: TODAY },
  );
  assert.equal(other.kind === "document" && other.fields.make?.value, "ZONGSHEN");
});

Deno.test("a label we do not know that holds a title's word (Date d'immatriculation) is no title: its date is read", () => {
  const lines = page([
    [[40, "VEHICLE REGISTRATION CERTIFICATE"]],
    [[40, "Plate No."], [400, "RHE 169 E"]],
    [[40, "Make"], [400, "VOLKSWAGEN"]],
    [[40, "Chassis"], [400, "WV14K8K93WP793080"]],
    [[40, "Date de 1re immatriculation"], [400, "21 AUG 2012"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.issue_date?.value, "2012-08-21");
});

Deno.test("a licence number in the older cards' checked format is read without its label", () => {
  // "Nom. Uruh. / DL": an abbreviation we do not know over the number.
  const lines = page([
    [[40, "DRIVER'S LICENCE"]],
    [[40, "Amaz. / Name"], [500, "Itar. Amav. / DOB"], [900, "Nom. Uruh. / DL"]],
    [[40, "MUHAWENIMANA Innocent"], [500, "10/08/1995"], [900, "76B886427"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.licence_number?.value, "76B886427");
});

Deno.test("a make read beside its label that is no make we know gives way to the make left on the page", () => {
  // The next column's label ("Nom du propriétaire") stands right of "Vehicle make"; the make is
  // under it.
  const lines = page([
    [[40, "CARTE D'IMMATRICULATION"]],
    [[40, "VIN No"], [700, "Umwaka / Year"]],
    [[40, "MD60KL8W8DK561831"], [700, "2005"]],
    [[40, "Reg. No"], [700, "Date issued"]],
    [[40, "RH 021 B"], [700, "13 JUL 2025"]],
    [[40, "Vehicle make"], [700, "Nom du propriétaire"]],
    [[40, "TVS"], [700, "NSENGIYUMVA PATRICK"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.make?.value, "TVS");
});

Deno.test("an ID card titled in two languages on one line (INDANGAMUNTU / NATIONAL ID) is an ID card; a label in small letters is no title", () => {
  // Its labels only in a footnote OCR could not read: the values are found by what they are.
  const rows: Array<Array<[number, string]>> = [
    [[40, "REPUBULIKA Y'U RWANDA"]],
    [[40, "INDANGAMUNTU / NATIONAL ID"]],
    [[40, "INGABIRE ANNONCIATA"], [700, "1 1966 8 7390864 1 39"]],
    [[40, "27 novembre 1966"], [700, "MASCULIN"]],
    [[40, "HUYE"], [700, "4 juin 2013"]],
  ];
  const reading = readDocument(page(rows), { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.type, "id_card");
  assert.equal(reading.fields.national_id?.value, "1196687390864139");
  assert.equal(reading.fields.date_of_birth?.value, "1966-11-27");
  // The same words as a label over an owner's ID are no ID card's title.
  const label = readDocument(
    page([[[40, "Indangamuntu / National ID"]], [[40, "1 1966 8 7390864 1 39"]], [[
      40,
      "27 novembre 1966",
    ]]]),
    { today: TODAY },
  );
  assert.equal(label.kind, "not_a_document");
});

Deno.test("labels in Swahili, Rwanda's fourth official language, name their fields (values under them)", () => {
  // A make no list holds is read by its label only.
  const registration = readDocument(
    page([
      [[40, "CHETI CHA USAJILI WA GARI"]],
      [[40, "Namba ya gari"], [400, "Aina ya gari"], [800, "Modeli"]],
      [[40, "RAG 777 P"], [400, "ZONGSHEN"], [800, "ZS150"]],
      [[40, "Mwaka wa kutengenezwa"], [400, "Mmiliki"], [800, "Kitambulisho"]],
      [[40, "2019"], [400, "INGABIRE JEAN CLAUDE"], [800, "1 1961 7 4968923 0 80"]],
      [[40, "Matumizi"], [400, "Tarehe ya kutolewa"], [800, "Mwisho"]],
      [[40, "BINAFSI"], [400, "2011-06-14"], [800, "2029-08-12"]],
    ]),
    { today: TODAY },
  );
  assert.equal(registration.kind, "document");
  if (registration.kind !== "document") return;
  assert.deepEqual(
    Object.fromEntries(
      Object.entries(registration.fields).map(([key, field]) => [key, field.value]),
    ),
    {
      plate: "RAG 777 P",
      make: "ZONGSHEN",
      model: "ZS150",
      year: "2019",
      owner_name: "INGABIRE JEAN CLAUDE",
      owner_national_id: "1196174968923080",
      usage: "private",
      issue_date: "2011-06-14",
      expiry_date: "2029-08-12",
    },
  );
  const card = readDocument(
    page([
      [[40, "CARTE NATIONALE D'IDENTITE"]],
      [[40, "Jina kamili"], [400, "Tarehe ya kuzaliwa"], [700, "Jinsia"], [
        900,
        "Tarehe ya kutolewa",
      ]],
      [[40, "UWIMANA EMMANUEL"], [400, "09/12/1995"], [700, "M"], [900, "03.04.2018"]],
      [[40, "Namba ya kitambulisho"]],
      [[40, "1 1995 8 0988569 0 78"]],
    ]),
    { today: TODAY },
  );
  assert.equal(card.kind, "document");
  if (card.kind !== "document") return;
  assert.equal(card.type, "id_card");
  assert.equal(card.fields.full_name?.value, "UWIMANA EMMANUEL");
  assert.equal(card.fields.sex?.value, "M");
  assert.equal(card.fields.national_id?.value, "1199580988569078");
  assert.equal(card.fields.date_of_birth?.value, "1995-12-09");
});

Deno.test("a value before its label ends at the label's opening bracket and at a long dash", () => {
  // Values first, each label after a dash or in brackets, part of the label in a wording (or an
  // OCR reading) we do not know.
  const registration = readDocument(
    page([
      [[40, "CERTIFICATE OF REGISTRATION"]],
      [[40, "REC 499 P — Reg. mark"]],
      [[40, "MPA8C2E5XFW896010 — Chassis number"]],
      [[40, "NIYOMUGABO CLAUDINE — My wiryanizgs | Propriétaire"]],
    ]),
    { today: TODAY },
  );
  assert.equal(registration.kind, "document");
  assert.equal(
    registration.kind === "document" && registration.fields.owner_name?.value,
    "NIYOMUGABO CLAUDINE",
  );
  const card = readDocument(
    page([
      [[40, "NATIONAL IDENTITY CARD"]],
      [[40, "GATETE EMMANUEL |Nomsy Names)"]],
      [[40, "1 janvier 2006 (Date de naissance / Date of birth)"]],
      [[40, "1 2006 7 8884717 2 56 (National ID)"]],
    ]),
    { today: TODAY },
  );
  assert.equal(card.kind, "document");
  assert.equal(card.kind === "document" && card.fields.full_name?.value, "GATETE EMMANUEL");
});

Deno.test("a letter without its dot right after a value's word is the value's, not a legend's code", () => {
  // "B." is the issue date's code; the plate's series letter B stands tight after its digits.
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "A. RB 943 B"], [700, "E. MD2YA9UH9BW081658"]],
    [[40, "D.1. BAJAJ"], [700, "D.3. BOXER"]],
    [[40, "B. 11/12/2014"], [700, "F 2008"]],
    [[40, "A. Plate number; B. Date of issue; D.1. Make; D.3. Model; E. Chassis number; F Year"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.plate?.value, "RB 943 B");
  assert.equal(reading.fields.issue_date?.value, "2014-12-11");
});

Deno.test("labels OCR slipped on still name their fields on a dense card", () => {
  // A tiny print's labels, each a letter or two off (`Nemes`, `Caténorrés`, `Mpdel`): the values
  // beside them are found by position as under labels read clean, where no shape finds them.
  const licence = page([
    [[40, "DRIVING LICENCE"]],
    [[40, "Nemes : MUKAMANA JOSIANE"], [500, "Caténorrés : B, C"]],
    [[40, "Expires : 15-APR-2035"], [500, "Duté 6? bars) 17-JUN-1988"]],
  ]);
  const read = values(readDocument(licence, { today: TODAY }));
  assert.equal(read.full_name, "MUKAMANA JOSIANE");
  assert.equal(read.categories, "B, C");
  const card = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Purake / Plate No. : RAB 123 C"], [500, "Maraue: HYUNDAI"]],
    [[40, "Type/Mpdel : CRETA"], [500, "Engine : G4FG"]],
  ]);
  assert.equal(values(readDocument(card, { today: TODAY })).model, "CRETA");
});

Deno.test("a table whose header labels are cut short (Itar. Yatang. / Iss) reads its dates", () => {
  // A date-box card's header row prints each label abbreviated; values sit under them.
  const lines = page([
    [[40, "DRIVER'S LICENCE"]],
    [[40, "Amaz. / Name"], [500, "Itar. Amav. / DOB"], [900, "Nom. Uruh. / DL"]],
    // (The birth date's day box lost: no date.)
    [[40, "MUHAWENIMANA INNOCENT"], [500, "[08 || 1995 |"], [900, "76B886427"]],
    [[40, "Icyic. / Cl"], [500, "Itar. Yatang. / Iss"], [900, "Irang. / Exp"]],
    [[40, "C, D"], [500, "[19][04]| 2017 |"], [900, "[23][02]| 2032"]],
  ]);
  const read = values(readDocument(lines, { today: TODAY }));
  assert.equal(read.issue_date, "2017-04-19");
  assert.equal(read.expiry_date, "2032-02-23");
});

Deno.test("a plate is found under its Kinyarwanda label alone (Numero y'icyapa), and by its shape with its J read as a bracket", () => {
  // A card printed in Kinyarwanda only: the plate's label is `Numero y'icyapa`, its value under it.
  const kinyarwanda = page([
    [[40, "ICYEMEZO CY'IYANDIKWA RY'IKINYABIZIGA"]],
    [[40, "Numero y'icyapa"], [500, "Nyir'ikinyabiziga"]],
    [[40, "CD 014 A"], [500, "MUKAMANA JOSIANE"]],
    [[40, "Uruganda"], [500, "Nimero ya shasi"]],
    [[40, "TOYOTA"], [500, "JTDBR32E720123456"]],
  ]);
  // (A diplomatic plate, which only its label finds: no shape search takes it.)
  assert.equal(values(readDocument(kinyarwanda, { today: TODAY })).plate, "CD 014 A");
  // Its label unread: the plate's closing or middle J read as `]` still has a plate's shape.
  const unlabelled = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Owner : MUKAMANA JOSIANE"], [500, "Make : TOYOTA"]],
    [[40, "RG] 701 H"], [500, "VIN : JTDBR32E720123456"]],
    [[40, "Issued : 12/03/2021"], [500, "Expires : 11/03/2031"]],
  ]);
  assert.equal(values(readDocument(unlabelled, { today: TODAY })).plate, "RGJ 701 H");
});

Deno.test("a VIN's maker code is checked against the make on the card: a J read as 1 is repaired, doubtful", () => {
  const lines = page([
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Plate No. : RAB 123 C"], [500, "Make : SUZUKI"]],
    [[40, "Chassis / VIN : IS306C8YXEJ799542"], [500, "Model : VITARA"]],
    [[40, "Owner : MUKAMANA JOSIANE"], [500, "Year : 2014"]],
  ]);
  const reading = readDocument(lines, { today: TODAY });
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.vin.value, "JS306C8YXEJ799542");
  assert.equal(reading.fields.vin.valid, false);
  assert.match(reading.fields.vin.note ?? "", /maker's code/);
  // The same VIN on a card whose make we cannot check is left as read.
  const other = readDocument(
    lines.map((line) => ({
      ...line,
      text: line.text.replace("SUZUKI", "SINORAY"),
      words: line.words?.map((word) => ({ ...word, text: word.text.replace("SUZUKI", "SINORAY") })),
    })),
    { today: TODAY },
  );
  assert.equal(other.kind === "document" && other.fields.vin.value, "1S306C8YXEJ799542");
});

Deno.test("a year is read beside its label cut to Yr (Umw. / Yr: 2007)", () => {
  const lines = page([
    [[40, "REPUBLIC OF RWANDA"], [500, "Umw. / Yr: 2007"]],
    [[40, "CERTIFICATE OF REGISTRATION"]],
    [[40, "Plate No. : RAB 123 C"], [500, "Make : TOYOTA"]],
    [[40, "Owner : MUKAMANA JOSIANE"], [500, "Model : HILUX"]],
  ]);
  assert.equal(values(readDocument(lines, { today: TODAY })).year, "2007");
});
