/**
 * The npm package end to end, as a builder meets it: `npm pack` (which builds dist-lib/ and dist-app/ through
 * `prepack`), then in temporary folders and from the tarball only:
 *
 * - a Node script imports `deeptab` and runs createDeepAgent to a final answer (a scripted model calling `execute`
 *   on a ShellBackend, so the shell's runner, reached by `new URL(…, import.meta.url)`, resolves in the package);
 * - an empty Vite project builds a page that runs createDeepAgent in its own Web Worker (the shell in a nested
 *   worker that Vite builds from the package), checked in headless Chromium;
 * - `deeptab new my-agent` → `npm install` → `npm run build` gives a static site that, served under a sub-path as
 *   GitHub Pages serves it, opens the app on the agent `agents/index.json` lists, and runs a turn against a loopback
 *   OpenAI-compatible server (the real `@langchain/openai` client in the site's worker): the answer streams into the
 *   page and the request the server received carries the scaffolded AGENTS.md in its system prompt.
 *
 * Slow by nature (a production build of the app, two `npm install`s of deeptab's dependencies from npm's cache,
 * two Vite/Chromium runs): about 4–6 minutes on a loaded 2-core machine, so every step has its own explicit bound.
 * npm is the only network it needs (`--prefer-offline`: the cache that `npm ci` filled answers).
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { chromium, type Browser } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAgentBundle } from "../../src/agent-folders/bundle.ts";
import { parseSiteAgentIndex } from "../../src/agent-folders/site.ts";
import { PROVIDER_TABLE } from "../../src/models/catalog.ts";
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from "../../src/testing/provider-servers.ts";
import { chromiumArgs, chromiumPath } from "../chromium.ts";
import { appShell } from "../bundle-size.mjs";
import { manifestOf, precacheFiles } from "../vite/shell/precache.ts";
import { startStaticServer, type StaticServer } from "../static-server.ts";

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, "../..");
const MINUTE = 60_000;
const NPM_FLAGS = ["--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];

/** Runs a command with a bound; its output is part of the error when it fails. */
async function sh(cmd: string, args: string[], cwd: string, timeout: number, env: NodeJS.ProcessEnv = {}): Promise<string> {
  try {
    const { stdout } = await run(cmd, args, { cwd, timeout, maxBuffer: 64 << 20, env: { ...process.env, ...env } });
    return stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(" ")} (in ${cwd}) failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`, { cause: error });
  }
}

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: Array<{ path: string }>;
}

const temp = mkdtempSync(join(tmpdir(), "deeptab-package-"));
let tarball = "";
let packed: PackResult;
let browser: Browser | undefined;
const servers: Array<StaticServer | ScriptedServer> = [];
/** The system prompt of a recorded chat-completions request, as text (string content or text parts). */
function systemPrompt(request: RecordedRequest): string {
  const messages = (request.body.messages ?? []) as Array<{ role: string; content: string | Array<{ text?: string }> }>;
  return messages
    .filter((m) => m.role === "system")
    .map((m) => (typeof m.content === "string" ? m.content : m.content.map((part) => part.text ?? "").join("")))
    .join("\n");
}

/** The consumer project: deeptab from the tarball, and Vite. */
const project = join(temp, "consumer");

beforeAll(async () => {
  // `npm pack` runs prepack: the library's tsc emit and the app's production build (1–4 min here).
  const out = await sh("npm", ["pack", "--json", "--pack-destination", temp, "--loglevel=error"], repo, 10 * MINUTE);
  packed = (JSON.parse(out.slice(out.indexOf("["))) as PackResult[])[0]!;
  tarball = join(temp, packed.filename);
  console.log(
    `packed ${packed.filename}: ${(packed.size / 1024 / 1024).toFixed(2)} MiB, ` +
      `${packed.entryCount} files, ${(packed.unpackedSize / 1024 / 1024).toFixed(1)} MiB unpacked`,
  );
}, 10 * MINUTE);

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((s) => s.close()));
  rmSync(temp, { recursive: true, force: true });
}, 5 * MINUTE); // two node_modules of deeptab's dependencies to delete: over 2 minutes once on a loaded 2-core machine

async function page(url: string) {
  browser ??= await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const p = await browser.newPage();
  const errors: string[] = [];
  p.on("pageerror", (e) => errors.push(e.message));
  await p.goto(url);
  return { page: p, errors };
}

describe("the npm package", () => {
  it("packs built ESM, declarations, the command and the prebuilt app, and no TypeScript sources", () => {
    const paths = packed.files.map((f) => f.path);
    expect(paths).toContain("dist-lib/src/index.js");
    expect(paths).toContain("dist-lib/src/index.d.ts");
    expect(paths).toContain("dist-lib/src/backends/sandbox/shell.worker.js");
    expect(paths).toContain("dist-lib/scripts/cli/deeptab.js");
    expect(paths).toContain("dist-app/index.html");
    expect(paths).toContain("dist-app/sw.js");
    expect(paths.filter((p) => p.endsWith(".ts") && !p.endsWith(".d.ts"))).toEqual([]);
    expect(paths.filter((p) => /^(src|e2e|node_modules|patches)\/|\.map$|\.tgz$/.test(p) || p.startsWith("dist-app/agents/"))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest.private).toBeUndefined();
  });

  it(
    "a Node script imports deeptab from the tarball and runs createDeepAgent to a final answer",
    async () => {
      mkdirSync(project, { recursive: true });
      const vite = (createRequire(import.meta.url)("vite/package.json") as { version: string }).version;
      writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
      await sh("npm", ["install", tarball, `vite@${vite}`, ...NPM_FLAGS], project, 8 * MINUTE);
      writeFileSync(
        join(project, "run.mjs"),
        `import { createDeepAgent, ScriptedChatModel, ShellBackend } from "deeptab";
const model = new ScriptedChatModel({ script: [
  { toolCalls: [{ name: "execute", args: { command: "echo from-the-shell > /out.txt" } }] },
  { toolCalls: [{ name: "read_file", args: { file_path: "/out.txt" } }] },
  { text: "final answer" },
] });
const agent = createDeepAgent({ model, backend: new ShellBackend() });
const out = await agent.invoke({ messages: [{ role: "user", content: "go" }] });
console.log(JSON.stringify(out.messages.map((m) => [m.getType(), m.text])));
`,
      );
      const messages = JSON.parse(await sh("node", ["run.mjs"], project, 2 * MINUTE)) as Array<[string, string]>;
      expect(messages.at(-1)).toEqual(["ai", "final answer"]);
      expect(messages.filter(([type]) => type === "tool").map(([, text]) => text)).toEqual([
        expect.stringContaining("[Command succeeded with exit code 0]"),
        "     1\tfrom-the-shell",
      ]);
    },
    12 * MINUTE,
  );

  it(
    "an empty Vite project builds a page that runs createDeepAgent in a worker, in Chromium",
    async () => {
      writeFileSync(join(project, "vite.config.js"), `export default { worker: { format: "es" } };\n`);
      writeFileSync(
        join(project, "index.html"),
        `<!doctype html><meta charset="utf-8"><output id="answer"></output><script type="module" src="./main.js"></script>\n`,
      );
      writeFileSync(
        join(project, "main.js"),
        `const worker = new Worker(new URL("./agent.worker.js", import.meta.url), { type: "module" });
worker.onmessage = (e) => { document.querySelector("#answer").textContent = e.data; };
worker.onerror = (e) => { document.querySelector("#answer").textContent = "worker error: " + e.message; };
`,
      );
      writeFileSync(
        join(project, "agent.worker.js"),
        `import { createDeepAgent, ScriptedChatModel, ShellBackend } from "deeptab";
const model = new ScriptedChatModel({ script: [
  { toolCalls: [{ name: "execute", args: { command: "echo in-a-worker > /w.txt" } }] },
  { toolCalls: [{ name: "read_file", args: { file_path: "/w.txt" } }] },
  { text: "done in the worker" },
] });
try {
  const agent = createDeepAgent({ model, backend: new ShellBackend() });
  const out = await agent.invoke({ messages: [{ role: "user", content: "go" }] });
  const tools = out.messages.filter((m) => m.getType() === "tool").map((m) => m.text);
  postMessage(out.messages.at(-1).text + " | " + tools.at(-1).trim());
} catch (error) {
  postMessage("failed: " + (error?.stack ?? error));
}
`,
      );
      await sh("npx", ["vite", "build", "--logLevel", "error"], project, 5 * MINUTE);
      const server = await startStaticServer({ root: join(project, "dist") });
      servers.push(server);
      const { page: p, errors } = await page(server.url);
      await expect.poll(() => p.locator("#answer").textContent(), { timeout: 2 * MINUTE }).toBe("done in the worker | 1\tin-a-worker");
      expect(errors).toEqual([]);
    },
    8 * MINUTE,
  );

  it(
    "deeptab new → npm install → npm run build gives a site that, under a sub-path, runs a turn of its agent against a loopback provider",
    async () => {
      const site = join(temp, "my-agent");
      await sh(join(project, "node_modules/.bin/deeptab"), ["new", site, "--deeptab", `file:${tarball}`], temp, MINUTE);
      for (const file of [
        "agents/my-agent/AGENTS.md",
        "agents/my-agent/agent.yaml",
        ".github/workflows/pages.yml",
        "README.md",
        ".gitignore",
      ]) {
        expect(readFileSync(join(site, file), "utf8").length, file).toBeGreaterThan(0);
      }
      const workflow = readFileSync(join(site, ".github/workflows/pages.yml"), "utf8");
      expect(workflow).toContain("actions/upload-pages-artifact@");
      expect(workflow).toContain("actions/deploy-pages@");
      expect(readFileSync(join(site, "README.md"), "utf8")).toContain("https://<user>.github.io/<repo>/");
      // A demo recorded for the agent (here the data agent's, copied in) is published with it, byte for byte.
      const demo = readFileSync(join(repo, "agents/data/demos/total-the-sales-by-region-and-by-month.json"));
      mkdirSync(join(site, "agents/my-agent/demos"), { recursive: true });
      writeFileSync(join(site, "agents/my-agent/demos/sales.json"), demo);
      await sh("npm", ["install", ...NPM_FLAGS], site, 8 * MINUTE);
      await sh("npm", ["run", "build"], site, 2 * MINUTE);
      const dist = join(site, "dist");
      const bundled = parseAgentBundle(readFileSync(join(dist, "agents/my-agent.json"), "utf8"));
      expect(bundled.ok && Buffer.from(bundled.value.get("demos/sales.json")!)).toEqual(demo);
      // The service worker precaches exactly what the site serves: the site's agents, not the repository's examples.
      const served = readdirSync(dist, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => relative(dist, join(e.parentPath, e.name)));
      const precached = manifestOf(readFileSync(join(dist, "sw.js"), "utf8"))?.files;
      expect(precached).toEqual(precacheFiles(served, new Set(appShell(dist).files.map((f) => f.file))));
      expect(precached).toEqual(expect.arrayContaining(["agents/index.json", "agents/my-agent.json", "index.html"]));
      expect(precached?.filter((f) => f.startsWith("agents/"))).toEqual(["agents/index.json", "agents/my-agent.json"]);
      const server = await startStaticServer({ root: dist, base: "/my-agent/" });
      servers.push(server);
      const { page: p, errors } = await page(server.url);
      // Without server headers, the service worker isolates the page with one reload of its own: wait for it.
      await expect.poll(() => p.evaluate(() => crossOriginIsolated).catch(() => false), { timeout: 2 * MINUTE, interval: 500 }).toBe(true);
      const message = p.getByRole("textbox", { name: "Message" });
      await message.waitFor({ state: "visible", timeout: 2 * MINUTE });
      const index = parseSiteAgentIndex(await p.evaluate(async () => (await fetch("agents/index.json")).json()));
      expect(index.ok && index.value).toMatchObject({ default: "my-agent", agents: [{ folder: "my-agent", name: "my-agent" }] });
      expect(server.requests).toContain("GET /my-agent/agents/index.json");
      // The prebuilt app runs a turn in its worker under the sub-path, on the scaffolded agent, against a loopback
      // OpenAI-compatible server: Settings as a person fills them, then a message.
      const provider = await startScriptedServer("openai", [{ chunks: ["Streamed ", "from the ", "loopback server."], delayMs: 1_000 }]);
      servers.push(provider);
      await expect.poll(() => p.getByRole("combobox", { name: "Agent" }).inputValue(), { timeout: MINUTE }).toBe("site:my-agent");
      await p.getByRole("button", { name: "Settings" }).click();
      const settings = p.getByRole("dialog", { name: "Settings" });
      await settings.getByLabel("Provider").selectOption({ label: PROVIDER_TABLE["openai-compatible"].label });
      await settings.getByLabel("Base URL").fill(provider.baseUrl());
      await settings.getByLabel("Model", { exact: true }).fill("loopback-model");
      await settings.getByRole("button", { name: "Save" }).click();
      await settings.getByRole("status").filter({ hasText: "Saved." }).waitFor({ timeout: MINUTE });
      await p.keyboard.press("Escape");
      await settings.waitFor({ state: "hidden", timeout: MINUTE });
      await message.fill("Hello from a new site");
      await message.press("Enter");
      // Streamed: the live answer shows its first chunks a second apart before the whole answer lands.
      await p
        .getByTestId("assistant-live")
        .filter({ hasText: "Streamed" })
        .waitFor({ timeout: 2 * MINUTE });
      await p
        .getByTestId("assistant-message")
        .filter({ hasText: "Streamed from the loopback server." })
        .waitFor({ timeout: 2 * MINUTE });
      await expect.poll(() => p.getByTestId("messages").getAttribute("data-running"), { timeout: MINUTE }).toBe("false");
      const chats = provider.requests.filter((r) => r.method === "POST" && r.path.endsWith("/chat/completions"));
      expect(chats).toHaveLength(1);
      expect(chats[0]!.body).toMatchObject({ model: "loopback-model", stream: true });
      const instructions = readFileSync(join(site, "agents/my-agent/AGENTS.md"), "utf8").trim();
      expect(systemPrompt(chats[0]!)).toContain(instructions);
      expect(errors).toEqual([]);
    },
    12 * MINUTE,
  );

  it(
    "deeptab build refuses a broken agent folder, listing every problem, and leaves the last build as it was",
    async () => {
      const site = join(temp, "my-agent");
      writeFileSync(join(site, "agents/my-agent/agent.yaml"), "name: [unclosed\n");
      mkdirSync(join(site, "agents/second/agents"), { recursive: true });
      writeFileSync(join(site, "agents/second/AGENTS.md"), "Second.");
      writeFileSync(join(site, "agents/second/agents/critic.md"), "---\nname: critic\n---\nCheck.");
      const failure = await sh("npm", ["run", "build"], site, 2 * MINUTE).then(
        () => "built",
        (e: Error) => e.message,
      );
      expect(failure).toContain("agents/my-agent/agent.yaml");
      expect(failure).toContain("agents/second/agents/critic.md");
      expect(JSON.parse(readFileSync(join(site, "dist/agents/index.json"), "utf8"))).toMatchObject({ default: "my-agent" });
    },
    3 * MINUTE,
  );
});
