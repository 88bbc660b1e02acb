/**
 * scripts/provider-servers.ts as one runs it by hand: it starts both servers
 * (any free ports here), prints their URLs, requires the key it is given,
 * answers with the given default reply, and exits cleanly on SIGTERM.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";

let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
  child = undefined;
});

it("starts both servers, prints their URLs, and stops on SIGTERM", async () => {
  const proc = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      fileURLToPath(new URL("./provider-servers.ts", import.meta.url)),
      "--openai-port",
      "0",
      "--anthropic-port",
      "0",
      "--key",
      "sk-hand",
      "--reply",
      "by hand",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  child = proc;
  let out = "";
  proc.stdout!.on("data", (c: Buffer) => (out += c.toString("utf8")));
  proc.stderr!.on("data", (c: Buffer) => (out += c.toString("utf8")));
  const urls = await new Promise<{ openai: string; anthropic: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URLs printed:\n${out}`)), 20_000);
    proc.stdout!.on("data", () => {
      const openai = /^openai: (http:\/\/\S+)$/m.exec(out)?.[1];
      const anthropic = /^anthropic: (http:\/\/\S+)$/m.exec(out)?.[1];
      if (openai && anthropic) {
        clearTimeout(timer);
        resolve({ openai, anthropic });
      }
    });
  });

  const chat = await fetch(`${urls.openai}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: "Bearer sk-hand" },
    body: JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }),
  });
  expect(((await chat.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).toBe("by hand");
  expect((await fetch(`${urls.openai}/v1/models`)).status).toBe(401);
  const models = await fetch(`${urls.anthropic}/v1/models`, { headers: { "x-api-key": "sk-hand" } });
  expect(models.status).toBe(200);
  expect(out).toContain(`base URL ${urls.openai}/v1`);

  proc.kill("SIGTERM");
  const [code] = (await once(proc, "exit")) as [number | null];
  expect(code).toBe(0);
}, 30_000);
