import { describe, expect, it } from "vitest";
import { draftKey, sentKey, sessionDrafts } from "./drafts.ts";

/** A Storage over a Map; `full` refuses every write, as a full quota does. */
function memoryStorage(full = false) {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => {
      if (full) throw new DOMException("quota", "QuotaExceededError");
      map.set(key, value);
    },
    removeItem: (key: string) => void map.delete(key),
  };
}

describe("composer drafts", () => {
  it("keeps one draft per thread and drops it once empty", () => {
    const storage = memoryStorage();
    const drafts = sessionDrafts(storage);
    drafts.set("a", "half a thought");
    drafts.set("b", "another");
    expect(sessionDrafts(storage).get("a")).toBe("half a thought");
    expect(drafts.get("b")).toBe("another");
    expect(drafts.get("c")).toBe("");
    drafts.set("a", "");
    expect(storage.map.has(draftKey("a"))).toBe(false);
  });

  it("keeps a sent message apart from the draft until the worker has it", () => {
    const storage = memoryStorage();
    const drafts = sessionDrafts(storage);
    drafts.set("a", "");
    drafts.setSent("a", "sent just now");
    expect(sessionDrafts(storage).sent("a")).toBe("sent just now");
    expect(drafts.get("a")).toBe("");
    drafts.setSent("a", "");
    expect(storage.map.has(sentKey("a"))).toBe(false);
  });

  it("storage that refuses or is missing loses nothing and throws nothing", () => {
    const full = sessionDrafts(memoryStorage(true));
    expect(() => full.set("a", "x".repeat(10))).not.toThrow();
    expect(full.get("a")).toBe("");
    const none = sessionDrafts(undefined);
    none.set("a", "x");
    expect(none.get("a")).toBe("");
  });
});
