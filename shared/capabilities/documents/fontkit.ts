/**
 * `@pdf-lib/fontkit`, evaluated with the `__proto__` accessor its class
 * inheritance needs (see proto_accessor.ts), then without it again. The
 * package's minified ES build: 0.7 MB instead of 1.3 MB in every bundle that
 * lays documents out; the same code as its "module" entry, typed by the
 * package's declarations.
 *
 * @module
 */
// Evaluated in this order: the accessor added, fontkit, then this module's body removing it.
import { restoreProtoAccessor } from "./proto_accessor.ts";
import type fontkitTypes from "@pdf-lib/fontkit";
import fontkitMin from "@pdf-lib/fontkit/dist/fontkit.es.min.js";

restoreProtoAccessor();

/** fontkit, with its classes' static methods inherited as its authors meant. */
export const fontkit: typeof fontkitTypes = fontkitMin as typeof fontkitTypes;
