import { describe, expect, it } from "vitest";
import { KEY_HIDDEN, keysOfModel, partialLength, redactError, redactSecrets, secretForms } from "./redact.ts";

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

/** Encodings made here with Node's Buffer, independently of the module's own. */
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const b64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");
const hexOf = (text: string) => Buffer.from(text, "utf8").toString("hex");

describe("every form of a configured key", () => {
  const KEY = 'local-server-token-5e1f9a/+ q"x';
  const FORMS: Array<[string, string]> = [
    ["verbatim", KEY],
    ["URL-encoded", encodeURIComponent(KEY)],
    ["URL-encoded with + for spaces", encodeURIComponent(KEY).replace(/%20/g, "+")],
    ["URL-encoded with lower-case hex", encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
    ["base64", b64(KEY)],
    ["base64url", b64url(KEY)],
    ["hex", hexOf(KEY)],
    ["upper-case hex", hexOf(KEY).toUpperCase()],
    ["JSON-escaped", JSON.stringify(KEY).slice(1, -1)],
    ["JSON-escaped twice", JSON.stringify(JSON.stringify(KEY).slice(1, -1)).slice(1, -1)],
  ];
  for (const [name, form] of FORMS) {
    it(`hides the key ${name} in a provider's error text`, () => {
      const out = redactSecrets(`401 {"error":"bad key ${form} (sent)"}`, [KEY]);
      expect(out).not.toContain(form);
      expect(out).toBe(`401 {"error":"bad key ${KEY_HIDDEN} (sent)"}`);
    });
  }

  // Basic auth (`user:key`), a JSON body holding the key: whatever comes before it, at each of base64's three alignments.
  for (const prefix of ["user:", "me:", "x:", '{"api_key":"', '{"api_key": "']) {
    for (const [name, encode] of [
      ["base64", b64],
      ["base64url", b64url],
    ] as const) {
      it(`hides the key inside the ${name} of "${prefix}<key>…" (a ${prefix.length % 3}-byte alignment)`, () => {
        const suffix = '"}';
        const encoded = encode(`${prefix}${KEY}${suffix}`);
        const out = redactSecrets(`Authorization: Basic ${encoded}`, [KEY]);
        // What is left of the encoding around the hidden part encodes the prefix and suffix, never a piece of the key.
        const before = Math.ceil((prefix.length * 4) / 3) + 1;
        const after = Math.ceil((suffix.length * 4) / 3) + 4;
        expect(out).toMatch(new RegExp(`^Authorization: Basic [A-Za-z0-9+/_=-]{0,${before}}\\[key hidden\\][A-Za-z0-9+/_=-]{0,${after}}$`));
      });
    }
  }

  it("hides a URL-encoded base64 of the key (a token in a query string)", () => {
    const form = encodeURIComponent(b64(`user:${KEY}`));
    expect(redactSecrets(`GET /v1?auth=${form}`, [KEY])).not.toMatch(/%2B|%2F/);
  });

  it("hides a piece of the key as long as partialLength, and the longest run of pieces whole", () => {
    const key = "sq_9f8e7d6c5b4a3210fedcba9876543210";
    const n = partialLength(key);
    expect(n).toBe(12);
    expect(redactSecrets(`key ${key.slice(3, 3 + n)} refused`, [key])).toBe(`key ${KEY_HIDDEN} refused`);
    expect(redactSecrets(`key ${key.slice(0, 30)}… refused`, [key])).toBe(`key ${KEY_HIDDEN}… refused`);
    // One character shorter is no piece (8+ characters of a key never turn up by chance; fewer may be a word).
    expect(redactSecrets(`key ${key.slice(3, 3 + n - 1)} refused`, [key])).toBe(`key ${key.slice(3, 3 + n - 1)} refused`);
  });

  it("sizes pieces at a third of the key, from 8 to 16 characters", () => {
    expect([12, 24, 36, 48, 108].map((length) => partialLength("k".repeat(length)))).toEqual([8, 8, 12, 16, 16]);
  });

  it("hides a short key only whole, in every form: its pieces would be words", () => {
    expect(redactSecrets("the hunter2-pw reply", ["hunter2-pw"])).toBe(`the ${KEY_HIDDEN} reply`);
    expect(redactSecrets("hunter2 is a word here", ["hunter2-pw"])).toBe("hunter2 is a word here");
    expect(redactSecrets(`b64 ${b64("hunter2-pw")}`, ["hunter2-pw"])).toBe(`b64 ${KEY_HIDDEN}`);
  });

  it("leaves other text alone: base64 of other data, ordinary words, another key's pieces", () => {
    const text = `ok ${b64("some other payload entirely")} local server token ${hexOf("nothing")} sq_1234567`;
    expect(redactSecrets(text, [KEY, "sq_9f8e7d6c5b4a3210fedcba9876543210"])).toBe(text);
  });

  it("lists forms longest first, with no form shorter than 8 characters but the key itself", () => {
    const forms = secretForms("abcd");
    expect(forms).toContain("abcd");
    expect(forms.every((f) => f === "abcd" || f.length >= 8)).toBe(true);
    expect(forms).toEqual([...forms].sort((a, b) => b.length - a.length));
  });
});

describe("keysOfModel", () => {
  it("reads the key fields LangChain's clients keep, and nothing else", () => {
    expect(keysOfModel({ apiKey: "k1", anthropicApiKey: "k2", model: "m" })).toEqual(["k1", "k2"]);
    expect(keysOfModel(undefined)).toEqual([]);
  });
});
