/**
 * JSON merge patches (RFC 7396) between two JSON values: `mergePatch(from, to)` is the patch that `applyMergePatch`
 * turns `from` into `to`. A patch's `null` removes a member, so a `to` holding `null` anywhere has no faithful patch:
 * `mergePatch` gives undefined then, and the caller keeps the value whole. Used by thread exports for checkpoints,
 * which differ from their parent in a few channel versions.
 */
import { isRecord } from "../../core/is-record.ts";

const holdsNull = (value: unknown): boolean =>
  value === null || (typeof value === "object" && Object.values(value as object).some(holdsNull));

/** The merge patch from `from` to `to` (both JSON), or undefined when `to` holds a `null` (no patch can say it). */
export function mergePatch(from: unknown, to: unknown): unknown {
  if (holdsNull(to)) return undefined;
  return diff(from, to);
}

function diff(from: unknown, to: unknown): unknown {
  if (!isRecord(from) || !isRecord(to)) return to;
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(from)) if (!Object.hasOwn(to, key)) setOwn(patch, key, null);
  for (const [key, value] of Object.entries(to)) {
    if (!Object.hasOwn(from, key)) setOwn(patch, key, value);
    else if (JSON.stringify(from[key]) !== JSON.stringify(value)) setOwn(patch, key, diff(from[key], value));
  }
  return patch;
}

/** `target` with `patch` applied (RFC 7396 §2); `target` is not changed. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return patch;
  const out: Record<string, unknown> = isRecord(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else setOwn(out, key, applyMergePatch(Object.hasOwn(out, key) ? out[key] : undefined, value));
  }
  return out;
}

/** Sets an own member, whatever its name: `__proto__` from a crafted file is a member, never the prototype. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
