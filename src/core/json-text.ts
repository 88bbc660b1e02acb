/**
 * Any value as text, without ever throwing: what a tool returned or threw
 * becomes the content the model reads, so this must work for values no
 * careful program would make (a cycle, an object without a prototype, a
 * getter or a Proxy trap that throws, a BigInt) and must not lose what it
 * can show.
 *
 * Values are read into a plain copy one step at a time, each step guarded,
 * in the order `JSON.stringify` reads them (so ordinary values give exactly
 * its output), with these differences: a reference back to an enclosing
 * object is `"[Circular]"`; a property that cannot be read is
 * `"[unreadable: …]"`; a BigInt is its digits; an Error is its name and
 * message; a Map is its entries, a Set its values; nesting deeper than
 * {@link MAX_DEPTH} is `"[…]"`.
 */

/** Nesting kept; deeper values are `"[…]"` (a deep chain would otherwise overflow the stack). */
export const MAX_DEPTH = 100;

function reason(err: unknown): string {
  try {
    if (err instanceof Error) return err.message;
    return typeof err === "string" ? err : typeof err;
  } catch {
    return "unknown";
  }
}

/** `String(value)`, or a description when even that throws (no prototype, a throwing trap or `toString`). */
export function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return `(a ${typeof value} value that cannot be shown as text)`;
  }
}

function readProperty(value: object, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch (err) {
    return `[unreadable: ${reason(err)}]`;
  }
}

/** The plain, JSON-safe form of `value` (undefined where JSON leaves a value out). */
function plain(value: unknown, key: string, ancestors: object[]): unknown {
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object" || value === null) return typeof value === "function" || typeof value === "symbol" ? undefined : value;
  if (ancestors.includes(value)) return "[Circular]";
  if (ancestors.length >= MAX_DEPTH) return "[…]";
  ancestors.push(value);
  try {
    const toJSON = readProperty(value, "toJSON");
    if (typeof toJSON === "function") {
      let replaced: unknown;
      try {
        replaced = (toJSON as (k: string) => unknown).call(value, key);
      } catch (err) {
        return `[unreadable: ${reason(err)}]`;
      }
      return replaced === value ? plainObject(value, ancestors) : plain(replaced, key, ancestors);
    }
    return plainObject(value, ancestors);
  } finally {
    ancestors.pop();
  }
}

/** `instanceof`, false when the check itself throws (a Proxy's `getPrototypeOf` trap). */
function isA(value: object, type: abstract new (...args: never[]) => unknown): boolean {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

function plainObject(value: object, ancestors: object[]): unknown {
  let isArray: boolean;
  try {
    isArray = Array.isArray(value);
  } catch (err) {
    return `[unreadable: ${reason(err)}]`;
  }
  if (isA(value, Number) || isA(value, String) || isA(value, Boolean)) {
    try {
      return (value as { valueOf(): unknown }).valueOf();
    } catch (err) {
      return `[unreadable: ${reason(err)}]`;
    }
  }
  if (isArray) {
    const length = Number(readProperty(value, "length")) || 0;
    const out: unknown[] = [];
    for (let i = 0; i < length; i++) out.push(plain(readProperty(value, String(i)), String(i), ancestors) ?? null);
    return out;
  }
  if (isA(value, Map))
    return plainObject(
      guarded(() => [...(value as Map<unknown, unknown>).entries()]),
      ancestors,
    );
  if (isA(value, Set))
    return plainObject(
      guarded(() => [...(value as Set<unknown>).values()]),
      ancestors,
    );
  const out: Record<string, unknown> = {};
  if (isA(value, Error)) {
    out.name = plain(readProperty(value, "name"), "name", ancestors);
    out.message = plain(readProperty(value, "message"), "message", ancestors);
  }
  let keys: string[];
  try {
    keys = Object.keys(value);
  } catch (err) {
    return `[unreadable: ${reason(err)}]`;
  }
  for (const k of keys) {
    const v = plain(readProperty(value, k), k, ancestors);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function guarded(read: () => unknown[]): unknown[] {
  try {
    return read();
  } catch (err) {
    return [`[unreadable: ${reason(err)}]`];
  }
}

/** A value as JSON text (see the module comment); `String(value)` when it has no JSON form (a function, `undefined`). */
export function jsonText(value: unknown): string {
  try {
    const json = JSON.stringify(plain(value, "", []));
    if (json !== undefined) return json;
  } catch {
    // Unreachable for a plain copy; kept so that this never throws.
  }
  return safeString(value);
}
