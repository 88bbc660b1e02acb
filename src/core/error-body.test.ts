import { APIError as AnthropicError } from "@anthropic-ai/sdk";
import { APIError as OpenAIError } from "openai";
import { describe, expect, it } from "vitest";
import { dropErrorBody, MAX_ERROR_TEXT, NO_MESSAGE, providerErrorText } from "./error-body.ts";

const headers = new Headers({ "content-type": "application/json" });
/** The error each SDK makes of an HTTP error response (as its client does). */
const openai = (status: number, body: unknown) => OpenAIError.generate(status, body as object, undefined, headers);
const anthropic = (status: number, body: unknown) => AnthropicError.generate(status, body as object, undefined, headers);

describe("providerErrorText", () => {
  it("keeps the status and the message of an Anthropic error, never its body (request id, types)", () => {
    const err = anthropic(401, {
      type: "error",
      error: { type: "authentication_error", message: "invalid x-api-key" },
      request_id: "req_1",
    });
    expect(err.message).toContain("req_1");
    expect(providerErrorText(err)).toBe("401 invalid x-api-key");
  });

  it("keeps an OpenAI error's message, and for a body without one says so instead of keeping the body", () => {
    expect(providerErrorText(openai(401, { error: { message: "Incorrect API key provided", type: "x" } }))).toBe(
      "401 Incorrect API key provided",
    );
    const bare = openai(403, { error: { details: { echoed: "secret-ish" }, code: "denied" } });
    expect(bare.message).toContain("echoed");
    expect(providerErrorText(bare)).toBe(`403 ${NO_MESSAGE}`);
  });

  it("keeps a text body's first line, drops an HTML page, and bounds what it keeps", () => {
    const text = Object.assign(new Error("502 upstream down\n<trace>…</trace>"), { status: 502 });
    expect(providerErrorText(text)).toBe("502 upstream down");
    const html = Object.assign(new Error("503 <html><body>echo sk-…</body></html>"), { status: 503 });
    expect(providerErrorText(html)).toBe(`503 ${NO_MESSAGE}`);
    const long = Object.assign(new Error(`400 ${"x".repeat(5_000)}`), { status: 400 });
    expect(providerErrorText(long)).toHaveLength(MAX_ERROR_TEXT);
  });

  it("leaves errors without an HTTP error status alone", () => {
    expect(providerErrorText(new Error("boom"))).toBeUndefined();
    expect(providerErrorText(Object.assign(new Error("ok"), { status: 200 }))).toBeUndefined();
    expect(providerErrorText("401 text")).toBeUndefined();
  });
});

describe("dropErrorBody", () => {
  it("a provider's raw error body leaves neither the message, the stack nor the parsed body", () => {
    const err = anthropic(401, {
      type: "error",
      error: { type: "authentication_error", message: "invalid x-api-key" },
      echo: "raw-body-marker",
    });
    expect(dropErrorBody(err)).toBe(err);
    expect(err.message).toBe("401 invalid x-api-key");
    expect(`${err.stack}`).not.toContain("raw-body-marker");
    expect(JSON.stringify(err)).not.toContain("raw-body-marker");
    expect(err.status).toBe(401);
    expect(err.error).toEqual({ message: "401 invalid x-api-key", type: "authentication_error" });
  });

  it("keeps the code that classifies a failure (context_length_exceeded)", () => {
    const err = dropErrorBody(
      openai(400, { error: { message: "maximum context length is 8192", code: "context_length_exceeded", extra: 1 } }),
    );
    expect(err.message).toBe("400 maximum context length is 8192");
    expect(err.error).toEqual({ message: "400 maximum context length is 8192", code: "context_length_exceeded" });
  });

  it("returns anything else as it is", () => {
    const plain = new Error("a\nb");
    expect(dropErrorBody(plain).message).toBe("a\nb");
    expect(dropErrorBody("x")).toBe("x");
  });
});
