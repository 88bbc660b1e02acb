/**
 * Real providers through the Settings dialog, against the loopback servers
 * speaking the OpenAI chat-completions and Anthropic messages protocols
 * (SSE): the real `@langchain/openai` and `@langchain/anthropic` clients run
 * in the app's worker.
 *
 * - Each provider connects: an OpenAI-compatible server by base URL with no
 *   key (its /v1/models fills the picker), OpenAI and Anthropic with a key
 *   the server requires; each streams its answer; the thread remembers its
 *   model, and switching provider mid-thread carries the conversation over.
 * - Failures say what to do: 401 and 403 (check the key, no retry), 429 with
 *   Retry-After (a visible retry that waits as told), 503 (retried), an
 *   unreachable endpoint (the CORS advice for Ollama and LM Studio), a
 *   connection that drops mid-answer (the part shown stays, marked cut off;
 *   no CORS advice for a server that answered), and a context overflow that
 *   the harness's recovery cannot fix.
 */
import { expect, type Page } from "@playwright/test";
import { AFTER_LOAD, connect, idle, recordStreamed, send, streamedTexts, turn, watchErrors } from "./app.ts";
import { providerScope, type RecordedRequest } from "./control.ts";
import { test } from "./fixtures.ts";

const lastAssistant = (page: Page) => page.getByTestId("assistant-message").last();

/** The last user text of a recorded chat request (both dialects put user text in `messages`). */
function userTexts(req: RecordedRequest): string[] {
  const messages = (req.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  return messages
    .filter((m) => m.role === "user")
    .map((m) =>
      typeof m.content === "string"
        ? m.content
        : (m.content as Array<{ type: string; text?: string }>)
            .filter((b) => b.type === "text")
            .map((b) => b.text)
            .join(""),
    );
}

test(
  "each provider connects through Settings and streams; the thread keeps its model; " +
    "switching provider mid-thread keeps the conversation",
  async ({ page }) => {
    test.setTimeout(90_000);
    const errors = watchErrors(page);
    const local = providerScope("openai");
    const openai = providerScope("openai");
    const anthropic = providerScope("anthropic");
    await local.configure({ models: ["llama-3.2-3b-instruct", "qwen2.5-7b-instruct"] });
    await local.script([{ chunks: ["Hello ", "from ", "the ", "**local** ", "server."], delayMs: 300 }]);
    await openai.configure({ requireKey: "sk-e2e-openai-key" });
    await openai.script([{ chunks: ["OpenAI ", "answers."], delayMs: 50 }]);
    await anthropic.configure({ requireKey: "sk-ant-e2e-key" });
    await anthropic.script([{ chunks: ["Claude ", "remembers ", "the ", "thread."], delayMs: 50 }]);

    await page.goto("/");

    // OpenAI-compatible by base URL, no key: the server's model list fills the picker.
    await page.getByRole("button", { name: "Settings" }).click();
    const dialog = page.getByRole("dialog", { name: "Settings" });
    await dialog.getByLabel("Provider").selectOption({ label: "OpenAI-compatible (Ollama, LM Studio, llama.cpp, vLLM, OpenRouter)" });
    await dialog.getByLabel("Base URL").fill(local.baseUrl);
    await expect(dialog.getByTestId("model-list-status")).toContainText("2 models listed by the server");
    const listed = await dialog.locator("datalist option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(listed).toEqual(["llama-3.2-3b-instruct", "qwen2.5-7b-instruct"]);
    await dialog.getByLabel("Model", { exact: true }).fill("qwen2.5-7b-instruct");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByRole("status")).toContainText("Saved.");
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("model-chip")).toHaveText("openai-compatible · qwen2.5-7b-instruct");

    await recordStreamed(page);
    await send(page, "Hi local model");
    await idle(page);
    // Streamed: the partial answer showed before the run ended (recorded: a short stream can slip between polls).
    expect((await streamedTexts(page)).some((t) => t.includes("Hello from"))).toBe(true);
    await expect(lastAssistant(page)).toHaveText("Hello from the local server.");
    await expect(lastAssistant(page).locator("strong")).toHaveText("local");
    const [localChat] = await local.chatRequests();
    expect(localChat?.body.model).toBe("qwen2.5-7b-instruct");
    expect(localChat?.body.stream).toBe(true);
    // No key given: the OpenAI client needs one, so the placeholder llama.cpp and Ollama ignore goes instead.
    expect(localChat?.headers.authorization).toBe("Bearer no-key");
    expect(userTexts(localChat!)).toEqual(["Hi local model"]);

    // OpenAI with its key (the server refuses any other), on the same thread.
    await connect(page, { provider: "openai", baseUrl: openai.baseUrl, model: "gpt-4o-mini", key: "sk-e2e-openai-key" });
    await expect(page.getByTestId("model-chip")).toHaveText("openai · gpt-4o-mini");
    await turn(page, "And OpenAI?");
    await expect(lastAssistant(page)).toHaveText("OpenAI answers.");
    const [openaiChat] = await openai.chatRequests();
    expect(openaiChat?.headers.authorization).toBe("Bearer sk-e2e-openai-key");
    expect(userTexts(openaiChat!)).toEqual(["Hi local model", "And OpenAI?"]);

    // Anthropic with its key and the direct-browser-access header; it sees the whole conversation.
    await connect(page, { provider: "anthropic", baseUrl: anthropic.baseUrl, model: "claude-sonnet-4-5", key: "sk-ant-e2e-key" });
    await turn(page, "Now Claude");
    await expect(lastAssistant(page)).toHaveText("Claude remembers the thread.");
    const [anthropicChat] = await anthropic.chatRequests();
    expect(anthropicChat?.headers["x-api-key"]).toBe("sk-ant-e2e-key");
    expect(anthropicChat?.headers["anthropic-dangerous-direct-browser-access"]).toBe("true");
    expect(anthropicChat?.body.model).toBe("claude-sonnet-4-5");
    expect(userTexts(anthropicChat!)).toEqual(["Hi local model", "And OpenAI?", "Now Claude"]);
    await expect(page.getByTestId("assistant-message")).toHaveText([
      "Hello from the local server.",
      "OpenAI answers.",
      "Claude remembers the thread.",
    ]);

    // The thread remembers its model across a reload; a new thread starts with the last saved default.
    await page.reload();
    await expect(page.getByTestId("model-chip")).toHaveText("anthropic · claude-sonnet-4-5");
    await page.getByTestId("new-thread").click();
    await expect(page.getByTestId("user-message")).toHaveCount(0);
    await expect(page.getByTestId("model-chip")).toHaveText("anthropic · claude-sonnet-4-5");
    expect(errors).toEqual([]);
  },
);

test("a refused key says to check it and is not retried; with the right key, Try again answers", async ({ page }) => {
  const scope = providerScope("openai");
  await scope.configure({ requireKey: "sk-the-right-one" });
  await page.goto("/");
  await connect(page, { provider: "openai", baseUrl: scope.baseUrl, model: "gpt-4o-mini", key: "sk-a-wrong-one" });
  await turn(page, "Hello?");
  await expect(page.getByTestId("run-error")).toContainText("refused the API key (HTTP 401). Check the key in Settings.");
  await expect(page.getByTestId("run-error")).not.toContainText("sk-a-wrong-one");
  expect(await scope.chatRequests()).toHaveLength(1);
  // The message stays in the thread, and the composer works again.
  await expect(page.getByTestId("user-message")).toHaveText(["Hello?"]);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeEditable();
  // With the right key, "Try again" runs the same message.
  await scope.script([{ text: "Now I can answer." }]);
  await connect(page, { provider: "openai", baseUrl: scope.baseUrl, model: "gpt-4o-mini", key: "sk-the-right-one" });
  await page.getByTestId("run-error").getByRole("button", { name: "Try again" }).click();
  await idle(page);
  await expect(lastAssistant(page)).toHaveText("Now I can answer.");
  await expect(page.getByTestId("run-error")).toBeHidden();
  const chats = await scope.chatRequests();
  expect(chats).toHaveLength(2);
  expect(userTexts(chats[1]!)).toEqual(["Hello?"]);
});

test("a key without permission (Anthropic's 403) is handled like a refused one: check the key, no retry", async ({ page }) => {
  const errors = watchErrors(page);
  const scope = providerScope("anthropic");
  await scope.script([{ status: 403 }]);
  await page.goto("/");
  await connect(page, { provider: "anthropic", baseUrl: scope.baseUrl, model: "claude-sonnet-4-5", key: "sk-ant-limited" });
  await turn(page, "Hello?");
  const error = page.getByTestId("run-error");
  await expect(error).toContainText("refused the API key (HTTP 403). Check the key in Settings.");
  await expect(error).not.toContainText("sk-ant-limited");
  await expect(page.getByTestId("retry-notice")).toBeHidden();
  expect(await scope.chatRequests()).toHaveLength(1);
  await expect(page.getByTestId("user-message")).toHaveText(["Hello?"]);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeEditable();
  expect(errors).toEqual([]);
});

test("429 with Retry-After and a 503 are retried visibly, waiting as the server says", async ({ page }) => {
  test.setTimeout(60_000);
  const scope = providerScope("openai");
  await scope.script([{ status: 429, headers: { "retry-after": "2" } }, { status: 503 }, { chunks: ["Made it ", "after two retries."] }]);
  await page.goto("/");
  await connect(page, { provider: "openai-compatible", baseUrl: scope.baseUrl, model: "any-model" });
  await send(page, "Are you busy?");
  const notice = page.getByTestId("retry-notice");
  await expect(notice).toContainText("Rate limited (HTTP 429): retrying in 2 s (attempt 2 of 4).");
  await expect(notice).toContainText("Provider error (HTTP 503)");
  await idle(page);
  await expect(notice).toBeHidden();
  await expect(lastAssistant(page)).toHaveText("Made it after two retries.");
  await expect(page.getByTestId("run-error")).toBeHidden();
  const chats = await scope.chatRequests();
  expect(chats).toHaveLength(3);
  // Retry-After: 2 was honoured (not the 1 s first backoff).
  expect(chats[1]!.time - chats[0]!.time).toBeGreaterThanOrEqual(1_900);
});

test("an unreachable endpoint says it may not allow browser requests and how Ollama and LM Studio allow them", async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto("/");
  // Port 9 (discard) on loopback: nothing listens, so every request fails like a CORS refusal does (a TypeError).
  await connect(page, { provider: "openai-compatible", baseUrl: "http://127.0.0.1:9/v1", model: "llama3" });
  await send(page, "Anyone there?");
  await expect(page.getByTestId("retry-notice")).toContainText("Network failure");
  await idle(page, 45_000);
  const error = page.getByTestId("run-error");
  await expect(error).toContainText("Could not reach 127.0.0.1:9");
  await expect(error).toContainText("may not allow requests from a browser (CORS)");
  await expect(error).toContainText("OLLAMA_ORIGINS");
  await expect(error).toContainText("LM Studio: enable CORS");
  // After a reload the error is gone, but the message still says it has no answer and offers to try again.
  await page.reload();
  await expect(page.getByTestId("unanswered")).toContainText("This message has no answer");
  await expect(page.getByTestId("unanswered").getByRole("button", { name: "Try again" })).toBeEnabled();
  // The request log names the failed requests, with no status.
  await page.getByRole("button", { name: "Settings" }).click();
  const log = page.getByTestId("request-log");
  await log.locator("summary").click();
  await expect(log.locator("tbody tr").filter({ hasText: "127.0.0.1:9" }).first()).toContainText("failed");
});

test("a connection dropped mid-answer keeps the text shown, marked cut off, and says it dropped (no CORS advice)", async ({ page }) => {
  test.setTimeout(60_000);
  const errors = watchErrors(page);
  const scope = providerScope("openai");
  // The server answers, streams two chunks and goes away; every retry finds it gone.
  await scope.script([
    { chunks: ["The first part ", "of the answer, ", "and never the rest."], delayMs: 300, disconnectAfter: 2 },
    // The first retry hangs 4 s before it fails, so the notice about the drop stays up long enough to be read.
    { disconnect: true, delayMs: 4_000 },
    { disconnect: true },
    { disconnect: true },
    { text: "The whole answer, at last." },
  ]);
  await page.goto("/");
  await connect(page, { provider: "openai-compatible", baseUrl: scope.baseUrl, model: "any-model" });
  await send(page, "Tell me everything");
  await expect(page.getByTestId("assistant-live")).toContainText("The first part of the answer,", { timeout: 15_000 });
  await expect(page.getByTestId("retry-notice")).toContainText("Connection dropped", { timeout: 10_000 });
  await idle(page, 45_000);
  const error = page.getByTestId("run-error");
  await expect(error).toContainText("dropped in the middle of the answer, after the server had started answering");
  await expect(error).not.toContainText("CORS");
  await expect(lastAssistant(page)).toHaveText("The first part of the answer,");
  await expect(page.getByText("Cut off (the connection dropped or the provider failed)")).toBeVisible();
  // Kept in the thread: after a reload it is still there, marked.
  await page.reload();
  await expect(lastAssistant(page)).toHaveText("The first part of the answer,", AFTER_LOAD);
  await expect(page.getByText("Cut off (the connection dropped or the provider failed)")).toBeVisible();
  // Retry asks again (a new branch) and the answer completes.
  await page.getByRole("button", { name: "Retry" }).click();
  await idle(page);
  await expect(lastAssistant(page)).toHaveText("The whole answer, at last.");
  expect(await scope.chatRequests()).toHaveLength(5);
  expect(errors).toEqual([]);
});

test("a context overflow the harness cannot recover from says what to do", async ({ page }) => {
  const scope = providerScope("openai");
  const overflow = {
    status: 400,
    body: {
      error: {
        message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens.",
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    },
  };
  await scope.configure({ defaultReply: overflow });
  await page.goto("/");
  await connect(page, { provider: "openai-compatible", baseUrl: scope.baseUrl, model: "small-window" });
  await turn(page, "A message the server says is too long");
  await expect(page.getByTestId("run-error")).toContainText(
    "The conversation is too long for the model's context window, even after summarizing. " +
      "Start a new thread, or choose a model with a larger window.",
  );
  // Not retried like a 5xx: the harness's own recovery, then the message.
  expect((await scope.chatRequests()).length).toBeLessThanOrEqual(3);
  await expect(page.getByTestId("retry-notice")).toBeHidden();
});
