import { describe, expect, it } from "vitest";
import { historyKey, KEPT_HISTORY, loadHistory, parseHistory, saveHistory, serializeHistory } from "./history-store.ts";

function memory(): Storage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) } as Storage & {
    map: Map<string, string>;
  };
}

describe("the terminal history kept across a reload", () => {
  it("keeps the newest commands only, and reads back what it wrote", () => {
    const many = Array.from({ length: KEPT_HISTORY + 50 }, (_, i) => `echo ${i}`);
    const stored = serializeHistory(many);
    expect(JSON.parse(stored)).toHaveLength(KEPT_HISTORY);
    expect(parseHistory(stored)).toEqual(many.slice(-KEPT_HISTORY));
    expect(parseHistory(serializeHistory(["ls", "cat 'a b'\nwc -l"]))).toEqual(["ls", "cat 'a b'\nwc -l"]);
  });

  it("reads anything else as no history: nothing kept, broken JSON, not a list, entries that are not commands", () => {
    expect(parseHistory(null)).toEqual([]);
    expect(parseHistory("{not json")).toEqual([]);
    expect(parseHistory('{"0":"ls"}')).toEqual([]);
    expect(parseHistory('["ls", 3, null, "", "  ", {"output":"x"}, "pwd"]')).toEqual(["ls", "pwd"]);
    expect(parseHistory(JSON.stringify(Array.from({ length: 500 }, () => "ls")))).toHaveLength(KEPT_HISTORY);
  });

  it("keeps each thread's apart, and a storage that refuses keeps nothing without failing", () => {
    const storage = memory();
    saveHistory(storage, "t1", ["ls"]);
    saveHistory(storage, "t2", ["pwd", "whoami"]);
    expect(storage.map.get(historyKey("t1"))).toBe('["ls"]');
    expect(loadHistory(storage, "t1")).toEqual(["ls"]);
    expect(loadHistory(storage, "t2")).toEqual(["pwd", "whoami"]);
    expect(loadHistory(storage, "t3")).toEqual([]);
    const refusing = {
      getItem: () => {
        throw new DOMException("denied", "SecurityError");
      },
      setItem: () => {
        throw new DOMException("full", "QuotaExceededError");
      },
    };
    expect(() => saveHistory(refusing, "t1", ["ls"])).not.toThrow();
    expect(loadHistory(refusing, "t1")).toEqual([]);
  });
});
