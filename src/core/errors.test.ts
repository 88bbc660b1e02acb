import { describe, expect, it } from "vitest";
import { HarnessError } from "../harness/errors.ts";
import { StorageError } from "../storage/errors.ts";
import { DeeptabError, describeThrown, toErrorInfo } from "./errors.ts";

describe("toErrorInfo", () => {
  it("keeps name, message, code and HTTP status as plain data", () => {
    const provider = Object.assign(new Error("rate limited"), { status: 429, code: "rate_limit_exceeded" });
    expect(toErrorInfo(provider)).toEqual({ name: "Error", message: "rate limited", code: "rate_limit_exceeded", status: 429 });
    expect(toErrorInfo(new HarnessError("context_overflow", "too big"))).toEqual({
      name: "HarnessError",
      message: "too big",
      code: "context_overflow",
    });
    expect(toErrorInfo("boom")).toEqual({ name: "Error", message: "boom" });
    expect(structuredClone(toErrorInfo(provider))).toEqual(toErrorInfo(provider));
  });

  it("keeps the text of thrown values that are not errors", () => {
    expect(toErrorInfo(undefined)).toEqual({ name: "Error", message: "undefined was thrown" });
    expect(toErrorInfo({ message: "plain object", code: "x" })).toEqual({ name: "Error", message: "plain object", code: "x" });
    expect(describeThrown(42)).toBe("42");
    expect(describeThrown({ a: 1 })).toBe('{"a":1}');
  });

  it("every thrown deeptab error is one coded base class", () => {
    for (const err of [new HarnessError("invalid_option", "x"), new StorageError("unavailable", "y")]) {
      expect(err).toBeInstanceOf(DeeptabError);
      expect(typeof err.code).toBe("string");
    }
  });
});
