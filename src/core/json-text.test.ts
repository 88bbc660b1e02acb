import { describe, expect, it } from "vitest";
import { describeThrown, toErrorInfo } from "./errors.ts";
import { MAX_DEPTH, jsonText } from "./json-text.ts";

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function throwingEverywhere(): object {
  const fail = () => {
    throw new Error("trap");
  };
  return new Proxy({}, { get: fail, ownKeys: fail, getPrototypeOf: fail, has: fail, getOwnPropertyDescriptor: fail });
}

describe("jsonText", () => {
  it("gives exactly JSON.stringify's text for ordinary values", () => {
    const date = new Date(0);
    const values: unknown[] = [
      0,
      -1.5,
      "text",
      true,
      null,
      [1, "a", null, undefined, () => 1],
      { a: 1, b: [2, { c: "d" }], skip: undefined, f: () => 1, date },
      { toJSON: (key: string) => `custom ${key}` },
      { nested: { toJSON: (key: string) => `key ${key}` } },
      NaN,
      new Uint8Array([1, 2]),
      new String("boxed"),
      [new Number(3), new Boolean(false)],
    ];
    for (const value of values) expect(jsonText(value)).toBe(JSON.stringify(value));
  });

  it("marks references back to an enclosing object, and prints shared ones in full", () => {
    const shared = { x: 1 };
    const node: Record<string, unknown> = { name: "n", pair: [shared, shared] };
    node.self = node;
    node.list = [node, { up: node }];
    expect(jsonText(node)).toBe('{"name":"n","pair":[{"x":1},{"x":1}],"self":"[Circular]","list":["[Circular]",{"up":"[Circular]"}]}');
    const bare = Object.create(null) as Record<string, unknown>;
    bare.me = bare;
    expect(jsonText(bare)).toBe('{"me":"[Circular]"}');
  });

  it("never throws, whatever the value, and keeps what it can read", () => {
    const getter = {
      ok: 1,
      get bad(): never {
        throw new Error("nope");
      },
    };
    expect(jsonText(getter)).toBe('{"ok":1,"bad":"[unreadable: nope]"}');
    expect(jsonText({ n: 10n, list: [1n] })).toBe('{"n":"10","list":["1"]}');
    expect(
      jsonText(
        new Map<unknown, unknown>([
          ["a", 1],
          [{ k: 2 }, new Set([3])],
        ]),
      ),
    ).toBe('[["a",1],[{"k":2},[3]]]');
    expect(jsonText({ err: new TypeError("bad type") })).toBe('{"err":{"name":"TypeError","message":"bad type"}}');
    expect(
      jsonText({
        toJSON() {
          throw new Error("no json");
        },
      }),
    ).toBe('"[unreadable: no json]"');
    expect(jsonText(revoked())).toMatch(/^"\[unreadable: /);
    expect(jsonText([throwingEverywhere()])).toMatch(/^\["\[unreadable: trap\]"\]$/);
    expect(jsonText(undefined)).toBe("undefined");
    expect(jsonText(Symbol("s"))).toBe("Symbol(s)");
    expect(jsonText(Object.assign(Object.create(null) as object, { toString: undefined }))).toBe("{}");
    let deep: unknown = "bottom";
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    const text = jsonText(deep);
    expect(text.startsWith('{"d":'.repeat(MAX_DEPTH))).toBe(true);
    expect(text).toContain('"[…]"');
  });

  it("describeThrown and toErrorInfo never throw either", () => {
    const bare = Object.create(null) as Record<string, unknown>;
    bare.self = bare;
    expect(describeThrown(bare)).toBe('{"self":"[Circular]"}');
    expect(describeThrown(throwingEverywhere())).toMatch(/unreadable: trap/);
    expect(toErrorInfo(throwingEverywhere())).toMatchObject({ name: "Error", message: expect.stringMatching(/trap/) });
    const error = new Error("x");
    Object.defineProperty(error, "message", {
      get() {
        throw new Error("hidden");
      },
    });
    expect(toErrorInfo(error)).toMatchObject({ name: "Error" });
  });
});
