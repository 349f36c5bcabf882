/**
 * OCR readings shared across a test process. Tesseract reads the same bytes
 * the same way every time, and a page costs seconds of CPU: a test that runs
 * on both databases, or a scenario run three times, reads each photo once and
 * exercises everything after the engine (validation, storage, the database)
 * every time.
 *
 * @module
 */
import type { OcrEngine, OcrRequest } from "@shared/capabilities/document_reading/ocr_engine.ts";
import type { DocumentReading } from "@shared/capabilities/document_reading/read_document.ts";
import { sha256Hex } from "@shared/runtime/canonical.ts";

const readings = new Map<string, Promise<DocumentReading>>();

async function requestKey(engine: OcrEngine, request: OcrRequest): Promise<string> {
  return [
    engine.provider,
    await sha256Hex(request.bytes),
    request.contentType,
    request.documentType,
    request.today.toISOString().slice(0, 10),
  ]
    .join("|");
}

/** `engine`, remembering each reading for this process (failures are not remembered). */
export function rememberReadings(engine: OcrEngine): OcrEngine {
  return {
    provider: engine.provider,
    async read(request) {
      const key = await requestKey(engine, request);
      let reading = readings.get(key);
      if (!reading) {
        reading = engine.read(request);
        readings.set(key, reading);
        reading.catch(() => readings.delete(key));
      }
      return structuredClone(await reading);
    },
    close: engine.close?.bind(engine),
  };
}
