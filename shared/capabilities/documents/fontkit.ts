/**
 * `@pdf-lib/fontkit`, evaluated with the `__proto__` accessor its class
 * inheritance needs (see proto_accessor.ts), then without it again. The
 * package's minified ES build: 0.7 MB instead of 1.3 MB in every bundle that
 * lays documents out; the same code as its "module" entry, typed by the
 * package's declarations.
 *
 * @module
 */
// Evaluated in this order: the accessor added, Babel's generator runtime, fontkit, then this
// module's body removing the accessor. The minified build's generator functions (the universal
// shaper's state machine, which lays out Tifinagh, Balinese and other scripts) call a global
// `regeneratorRuntime` that Babel left out of the build; the package defines it on globalThis.
import { restoreProtoAccessor } from "./proto_accessor.ts";
import "regenerator-runtime";
import type fontkitTypes from "@pdf-lib/fontkit";
import fontkitMin from "@pdf-lib/fontkit/dist/fontkit.es.min.js";

restoreProtoAccessor();

/** fontkit, with its classes' static methods inherited as its authors meant. */
export const fontkit: typeof fontkitTypes = fontkitMin as typeof fontkitTypes;
