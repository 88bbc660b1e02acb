import { describe, expect, it } from "vitest";
import { KEY_HIDDEN, redactError, redactSecrets } from "./redact.ts";

describe("redactSecrets", () => {
  const CASES: Array<[string, string, string[], string]> = [
    ["an OpenAI key", "Incorrect API key provided: sk-proj-Zq8tR4vW2yX6aB1c.", [], `Incorrect API key provided: ${KEY_HIDDEN}.`],
    ["an Anthropic key", "bad key sk-ant-api03-abcdefgh_ijkl-mnop", [], `bad key ${KEY_HIDDEN}`],
    ["OpenAI's masked echo", "provided: sk-proj-********************abcd", [], `provided: ${KEY_HIDDEN}`],
    ["a Bearer token", "Authorization: Bearer eyJhbGciOi.J9.x-y_z", [], `Authorization: Bearer ${KEY_HIDDEN}`],
    [
      "a configured key of any shape",
      "token local-token-123 refused (local-token-123)",
      ["local-token-123"],
      `token ${KEY_HIDDEN} refused (${KEY_HIDDEN})`,
    ],
    ["a key holding another, hidden whole", "abcd-efgh-ijkl", ["abcd", "abcd-efgh-ijkl"], KEY_HIDDEN],
    ["ordinary words", "task-runner risk-assessment sk-8 Bearer of news", [], "task-runner risk-assessment sk-8 Bearer of news"],
    ["a configured key under 4 characters (it would hide words)", "abc abc", ["abc"], "abc abc"],
  ];
  for (const [name, text, secrets, expected] of CASES) {
    it(`hides ${name}`, () => expect(redactSecrets(text, secrets)).toBe(expected));
  }
});

describe("redactError", () => {
  it("hides secrets in an error's message and stack, in place", () => {
    const err = new Error("401 Incorrect API key provided: sk-test-1234567890");
    expect(redactError(err, (t) => redactSecrets(t))).toBe(err);
    expect(err.message).toBe(`401 Incorrect API key provided: ${KEY_HIDDEN}`);
    expect(err.stack).not.toContain("sk-test-1234567890");
  });

  it("leaves values that are not errors, and frozen errors, as they are", () => {
    expect(redactError("sk-test-1234567890", (t) => redactSecrets(t))).toBe("sk-test-1234567890");
    const frozen = Object.freeze(new Error("sk-test-1234567890"));
    expect(redactError(frozen, (t) => redactSecrets(t)).message).toBe("sk-test-1234567890");
  });
});
