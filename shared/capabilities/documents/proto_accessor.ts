/**
 * Gives `Object.prototype.__proto__` its standard setter for as long as one
 * package's module is evaluated. Deno replaces that accessor with one whose
 * setter does nothing (a guard against prototype pollution), and fontkit's
 * build sets up class inheritance with `Sub.__proto__ = Super`: in Deno
 * subclasses then lose their parents' static methods, and laying out Arabic
 * script fails ("this.shaper.plan is not a function"). Importing this module
 * installs the standard accessor; the importer imports the package next and
 * then calls {@link restoreProtoAccessor}, so nothing else ever sees it.
 *
 * @module
 */

const ORIGINAL = Object.getOwnPropertyDescriptor(Object.prototype, "__proto__");

Object.defineProperty(Object.prototype, "__proto__", {
  configurable: true,
  enumerable: false,
  get(this: object) {
    return Object.getPrototypeOf(this);
  },
  set(this: object, prototype: object | null) {
    Object.setPrototypeOf(this, prototype);
  },
});

/** Puts the runtime's own accessor back (or none, if there was none). */
export function restoreProtoAccessor(): void {
  if (ORIGINAL) Object.defineProperty(Object.prototype, "__proto__", ORIGINAL);
  else delete (Object.prototype as Record<string, unknown>)["__proto__"];
}
