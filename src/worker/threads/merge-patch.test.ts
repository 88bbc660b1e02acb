import { describe, expect, it } from "vitest";
import { applyMergePatch, mergePatch } from "./merge-patch.ts";

describe("JSON merge patches (RFC 7396)", () => {
  it("patch only what changed, and applying the patch gives the new value", () => {
    const from = { v: 4, ts: "a", channel_versions: { messages: 2, todos: 1 }, versions_seen: { model: { messages: 1 } } };
    const to = { v: 4, ts: "b", channel_versions: { messages: 3, files: 1 }, versions_seen: { model: { messages: 2 } } };
    const patch = mergePatch(from, to);
    expect(patch).toEqual({ ts: "b", channel_versions: { messages: 3, todos: null, files: 1 }, versions_seen: { model: { messages: 2 } } });
    expect(applyMergePatch(from, patch)).toEqual(to);
    expect(from.channel_versions).toEqual({ messages: 2, todos: 1 });
    expect(mergePatch(to, to)).toEqual({});
    expect(applyMergePatch(from, { channel_versions: [1] })).toEqual({ ...from, channel_versions: [1] });
  });

  it("gives no patch for a value holding null, which a patch would read as a removal", () => {
    expect(mergePatch({ a: 1 }, { a: 1, b: null })).toBeUndefined();
    expect(mergePatch({ a: 1 }, { a: [null] })).toBeUndefined();
  });

  it("a crafted `__proto__` member stays a member, never the prototype", () => {
    const patched = applyMergePatch({}, JSON.parse('{"__proto__": {"polluted": true}, "a": {"__proto__": {"x": 1}}}')) as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(patched)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(patched, "__proto__")).toBe(true);
    expect(JSON.stringify(patched)).toBe('{"__proto__":{"polluted":true},"a":{"__proto__":{"x":1}}}');
  });
});
