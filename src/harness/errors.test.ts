import { describe, expect, it } from "vitest";
import { HarnessError, toErrorInfo } from "./errors.ts";

describe("toErrorInfo", () => {
  it("keeps name, message, code and HTTP status as plain data", () => {
    const provider = Object.assign(new Error("rate limited"), { status: 429, code: "rate_limit_exceeded" });
    expect(toErrorInfo(provider)).toEqual({ name: "Error", message: "rate limited", code: "rate_limit_exceeded", status: 429 });
    expect(toErrorInfo(new HarnessError("context_overflow", "too big"))).toEqual({ name: "HarnessError", message: "too big", code: "context_overflow" });
    expect(toErrorInfo("boom")).toEqual({ name: "Error", message: "boom" });
    expect(structuredClone(toErrorInfo(provider))).toEqual(toErrorInfo(provider));
  });
});
