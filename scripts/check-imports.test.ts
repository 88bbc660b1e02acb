import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { resolveConfig } from "vite";
import { afterEach, describe, expect, it } from "vitest";
import { checkImports, UNFOLLOWED, VITE_RESOLVE } from "./check-imports.mjs";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/**
 * A project in a temporary folder: `files` under its src/, this repository's node_modules linked beside it (bare
 * names resolve as they do here) and a package.json naming it "deeptab" (so the package's own name resolves).
 * Returns the src/ folder.
 */
function tree(files: Record<string, string>): string {
  const project = mkdtempSync(join(tmpdir(), "layers-"));
  dirs.push(project);
  symlinkSync(resolve("node_modules"), join(project, "node_modules"), "dir");
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "deeptab", type: "module", exports: { ".": "./src/index.ts" } }));
  const src = join(project, "src");
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(src, path)), { recursive: true });
    writeFileSync(join(src, path), source);
  }
  return src;
}

/** Violations naming `file` (at any line) whose text contains `why`. */
const hits = (violations: string[], file: string, why: string) =>
  violations.filter((v) => (v.startsWith(`${file}:`) || v.startsWith(`${file} `)) && v.includes(why));

/** A module above middleware/ in the order, and middleware/ modules to point at. */
const LOW = {
  "middleware/hitl.ts": `export const x = 1;`,
  "middleware/index.ts": `export const i = 1;`,
  "agent/create.ts": `export const c = 1;`,
  "worker/agent.worker.ts": `export {};`,
  "worker/app.ts": `export const app = 1;`,
  "worker/threads/threads.ts": `export const threads = 1;`,
  "page/client.ts": `export const client = 1;`,
  "protocol/events.ts": `export const events = 1;`,
  "ui/a.ts": `export const a = 1;`,
  "ui/view.svelte": `<p>view</p>`,
  "index.ts": `export {};`,
};

interface Bypass {
  name: string;
  files: Record<string, string>;
  /** [file, part of the reason]: each must be reported. */
  caught: [string, string][];
}

/** Ways around the layer rules; each passed the regex-based check this replaced (see the commit that added this table). */
const BYPASSES: Bypass[] = [
  {
    name: "an extensionless upward import",
    files: { "harness/loop.ts": `import { x } from "../middleware/hitl";\nexport const y = x;` },
    caught: [["harness/loop.ts", "harness/ may not import middleware/"]],
  },
  {
    name: "an upward import written with .js for a .ts file",
    files: { "harness/loop.ts": `import { x } from "../middleware/hitl.js";\nexport const y = x;` },
    caught: [["harness/loop.ts", "harness/ may not import middleware/"]],
  },
  {
    name: "an upward import of a folder (its index)",
    files: { "harness/loop.ts": `import { i } from "../middleware";\nexport const y = i;` },
    caught: [["harness/loop.ts", "harness/ may not import middleware/"]],
  },
  {
    name: "an extensionless dynamic import()",
    files: { "harness/loop.ts": `export const load = () => import("../agent/create");` },
    caught: [["harness/loop.ts", "harness/ may not import agent/"]],
  },
  {
    name: "a dynamic import() written as a template literal",
    files: { "harness/loop.ts": "export const load = () => import(`../agent/create.ts`);" },
    caught: [["harness/loop.ts", "harness/ may not import agent/"]],
  },
  {
    name: "a dynamic import() of a module named at run time",
    files: { "harness/loop.ts": `export const load = (name: string) => import(name);` },
    caught: [["harness/loop.ts", "named at run time"]],
  },
  {
    name: "new Worker(new URL(...)) pointing up",
    files: { "models/spawn.ts": `export const w = new Worker(new URL("../worker/agent.worker.ts", import.meta.url), { type: "module" });` },
    caught: [["models/spawn.ts", "models/ may not import worker/"]],
  },
  {
    name: "an import with a query suffix (?worker)",
    files: { "models/spawn.ts": `import W from "../worker/agent.worker.ts?worker";\nexport const w = new W();` },
    caught: [["models/spawn.ts", "models/ may not import worker/"]],
  },
  {
    name: "a re-export, a require and an import = require, extensionless",
    files: {
      "harness/a.ts": `export * from "../middleware/hitl";`,
      "harness/b.ts": `export const b = require("../middleware/hitl");`,
      "harness/c.ts": `import c = require("../middleware/hitl");\nexport const d = c;`,
    },
    caught: [
      ["harness/a.ts", "harness/ may not import middleware/"],
      ["harness/b.ts", "harness/ may not import middleware/"],
      ["harness/c.ts", "harness/ may not import middleware/"],
    ],
  },
  {
    name: "an import from the project root (/src/...) and through the package's own name",
    files: {
      "agent/a.ts": `import { a } from "/src/ui/a.ts";\nexport const b = a;`,
      "agent/b.ts": `export * from "deeptab";`,
    },
    caught: [
      ["agent/a.ts", "ui/"],
      ["agent/b.ts", "nothing but tests imports the entry files"],
    ],
  },
  {
    name: "import.meta.glob over a higher room",
    files: { "agent/all.ts": `export const views = import.meta.glob("../ui/*.ts");` },
    caught: [["agent/all.ts", "agent/ may not import ui/"]],
  },
  {
    name: "a file at the src/ root other than the entries, and an entry importing past its rooms",
    files: {
      "extra.ts": `import { a } from "./ui/a.ts";\nexport const e = a;`,
      "main.ts": `import { c } from "./agent/create.ts";\nexport const m = c;`,
    },
    caught: [
      ["extra.ts", "is a file at the src/ root"],
      ["main.ts", "the page entry"],
    ],
  },
  {
    name: "the page reaching the worker's room: extensionless, .js, import(), a re-export, a glob, a type import",
    files: {
      "ui/a1.ts": `import { app } from "../worker/app";\nexport const b = app;`,
      "ui/a2.ts": `import { threads } from "../worker/threads/threads.js";\nexport const b = threads;`,
      "ui/a3.ts": `export const load = () => import("../worker/app.ts");`,
      "page/b1.ts": `export * from "../worker/app";`,
      "page/b2.ts": `export const all = import.meta.glob("../worker/threads/*.ts");`,
      "page/b3.ts": `import type { T } from "../worker/threads/threads.ts";\nexport type U = T;`,
    },
    caught: [
      ["ui/a1.ts", "ui/ reaches the agent only through page/ and protocol/"],
      ["ui/a2.ts", "ui/ reaches the agent only through page/ and protocol/"],
      ["ui/a3.ts", "ui/ reaches the agent only through page/ and protocol/"],
      ["page/b1.ts", "page/ and worker/ sit beside each other"],
      ["page/b2.ts", "page/ and worker/ sit beside each other"],
      ["page/b3.ts", "page/ and worker/ sit beside each other"],
    ],
  },
  {
    name: "the page starting the worker anywhere but page/spawn.ts, or spawn.ts loading it any other way",
    files: {
      "ui/w.ts": `export const w = new Worker(new URL("../worker/agent.worker.ts", import.meta.url), { type: "module" });`,
      "page/other.ts": `export const w = new Worker(new URL("../worker/agent.worker.ts", import.meta.url), { type: "module" });`,
      "page/vite.ts": `import W from "../worker/agent.worker.ts?worker";\nexport const w = new W();`,
      "page/spawn.ts": [
        `import "../worker/agent.worker.ts";`,
        `export const app = new URL("../worker/app.ts", import.meta.url);`,
        `export const w = new Worker(new URL("../worker/agent.worker.ts", import.meta.url), { type: "module" });`,
      ].join("\n"),
    },
    caught: [
      ["ui/w.ts", "ui/ reaches the agent only through page/ and protocol/"],
      ["page/other.ts", "page/ and worker/ sit beside each other"],
      ["page/vite.ts", "page/ and worker/ sit beside each other"],
      ["page/spawn.ts:1", "page/ and worker/ sit beside each other"],
      ["page/spawn.ts:2", "page/ and worker/ sit beside each other"],
    ],
  },
  {
    name: "the worker reaching the page-side clients, and the protocol reaching either side",
    files: {
      "worker/runs/runs.ts": `import { client } from "../../page/client";\nexport const r = client;`,
      "worker/agent.worker.ts": `export * from "../page/client.js";`,
      "worker/lazy.ts": `export const load = () => import("../ui/a.ts");`,
      "protocol/api.ts": [
        `import type { T } from "../worker/app.ts";`,
        `import { client } from "../page/client.ts";`,
        `export type U = T;`,
        `export const c = client;`,
      ].join("\n"),
    },
    caught: [
      ["worker/runs/runs.ts", "worker/ and page/ sit beside each other"],
      ["worker/agent.worker.ts", "worker/ and page/ sit beside each other"],
      ["worker/lazy.ts", "worker/ may not import ui/"],
      ["protocol/api.ts", "protocol/ may not import worker/"],
      ["protocol/api.ts", "protocol/ may not import page/"],
    ],
  },
  {
    name: "an import that does not resolve",
    files: { "ui/b.ts": `import { nope } from "../worker/nope.ts";\nexport const b = nope;` },
    caught: [["ui/b.ts", "does not resolve"]],
  },
  {
    name: "a .svelte component imported without its extension (the bundler does not find it either)",
    files: { "ui/host.ts": `import View from "./view";\nexport default View;` },
    caught: [["ui/host.ts", "does not resolve"]],
  },
  {
    name: "a .svelte component importing past page/ and protocol/, in its script and in its template",
    files: {
      "ui/panel.svelte": `<script lang="ts">\n  import { c } from "../agent/create";\n</script>\n\n<p>{c}</p>`,
      "ui/lazy.svelte": `{#await import("../agent/create.ts") then m}<p>{m.c}</p>{/await}`,
      "ui/app.svelte": `<script lang="ts">\n  import { app } from "../worker/app";\n</script>\n\n<p>{app}</p>`,
    },
    caught: [
      ["ui/panel.svelte", "ui/ reaches the agent only through page/ and protocol/"],
      ["ui/lazy.svelte", "ui/ reaches the agent only through page/ and protocol/"],
      ["ui/app.svelte", "ui/ reaches the agent only through page/ and protocol/"],
    ],
  },
  {
    name: "a Node built-in outside server/, testing/ and tests",
    files: {
      "agent/fs.ts": `import { readFileSync } from "node:fs";\nimport { join } from "path";\nexport const r = [readFileSync, join];`,
    },
    caught: [
      ["agent/fs.ts", `imports "node:fs": Node-only`],
      ["agent/fs.ts", `imports "path": Node-only`],
    ],
  },
  {
    name: "code from another origin",
    files: { "agent/cdn.ts": `export const m = () => import("https://cdn.example/x.js");` },
    caught: [["agent/cdn.ts", "only from the app's own origin"]],
  },
];

describe("the import check", () => {
  it("passes on src/ as it is", { timeout: 60_000 }, () => {
    const report = checkImports(resolve("src"));
    expect(report.violations).toEqual([]);
    expect(report.cycles).toEqual([]);
    expect(report.modules).toBeGreaterThan(150);
  });

  it.each(BYPASSES)("catches $name", ({ files, caught }) => {
    const { violations } = checkImports(tree({ ...LOW, ...files }));
    for (const [file, why] of caught) expect(hits(violations, file, why), `${file}: ${why}\n${violations.join("\n")}`).toHaveLength(1);
  });

  it("lets a load named at run time pass only where UNFOLLOWED lists its file and kind", () => {
    const root = tree({
      ...LOW,
      "harness/loop.ts": `export const load = (name: string) => [import(name), new URL(name, import.meta.url)];`,
    });
    UNFOLLOWED.push({ file: "harness/loop.ts", kind: "dynamic", why: "a plugin named in the settings" });
    try {
      const { violations } = checkImports(root);
      expect(violations).toEqual([expect.stringMatching(/^harness\/loop\.ts:1 loads a module named at run time \(url\)/)]);
    } finally {
      UNFOLLOWED.pop();
    }
  });

  it("does not count imports in comments and strings, anywhere", () => {
    const root = tree({
      ...LOW,
      "harness/loop.ts": [
        `// import { x } from "../middleware/hitl.ts";`,
        `/* export * from "../ui/a.ts"; import("../agent/create.ts") */`,
        `export const text = "import { x } from '../middleware/hitl.ts'";`,
        "export const tpl = `new Worker(new URL('../worker/agent.worker.ts', import.meta.url))`;",
      ].join("\n"),
      "ui/note.svelte": [
        `<!-- import { c } from "../agent/create.ts" -->`,
        `<script lang="ts">\n  // import("../agent/create.ts")\n</script>`,
        `<p>import("../agent/create.ts")</p>`,
      ].join("\n"),
    });
    expect(checkImports(root).violations).toEqual([]);
  });

  it("reports a line: an upward import as file:line, with the room order's reason", () => {
    const root = tree({
      ...LOW,
      "harness/loop.ts": `export const a = 1;\n\nimport { x } from "../middleware/hitl.ts";\nexport const y = x;`,
    });
    expect(checkImports(root).violations).toEqual([
      "harness/loop.ts:3 imports middleware/hitl.ts: harness/ may not import middleware/ (it is above harness/ in the layer order)",
    ]);
  });

  it("counts type-only imports for the rooms, and follows every load in ui/ to page/ and protocol/ only", () => {
    const root = tree({
      ...LOW,
      "ui/chat.svelte.ts": `import type { HarnessError } from "../harness/errors";\ntype T = typeof import("../agent/create.ts");`,
      "ui/ok.ts": [
        `import { client } from "../page/client.ts";`,
        `import type { E } from "../protocol/events.ts";`,
        `export const b: E = client;`,
      ].join("\n"),
      "harness/errors.ts": `export class HarnessError {}`,
    });
    const { violations } = checkImports(root);
    expect(hits(violations, "ui/chat.svelte.ts", "ui/ reaches the agent only through page/ and protocol/")).toHaveLength(2);
    expect(hits(violations, "ui/ok.ts", "")).toEqual([]);
  });

  it("lets page/spawn.ts alone name the worker's entry, by URL; worker/'s folders are one room; both sides use protocol/", () => {
    const lines = (...l: string[]) => l.join("\n");
    const root = tree({
      ...LOW,
      "page/spawn.ts": `export const w = new Worker(new URL("../worker/agent.worker.ts", import.meta.url), { type: "module" });`,
      "page/runtime.ts": lines(
        `import { client } from "./client.ts";`,
        `import { events } from "../protocol/events.ts";`,
        `export const r = [client, events];`,
      ),
      "worker/runs/runs.ts": lines(
        `import { threads } from "../threads/threads.ts";`,
        `import { events } from "../../protocol/events.ts";`,
        `export const r = [threads, events];`,
      ),
      "protocol/agents.ts": lines(
        `import { c } from "../agent/create.ts";`,
        `import { events } from "./events.ts";`,
        `export const a = [c, events];`,
      ),
      "main.ts": lines(
        `import { w } from "./page/spawn.ts";`,
        `import { a } from "./ui/a.ts";`,
        `import { events } from "./protocol/events.ts";`,
        `export const m = [w, a, events];`,
      ),
    });
    expect(checkImports(root).violations).toEqual([]);
  });

  it("keeps core/ a leaf and testing/ for tests; tests may import anything", () => {
    const root = tree({
      "core/errors.ts": `import { a } from "../storage/a.ts";`,
      "storage/a.ts": `import { s } from "../testing/scripted.ts";\nexport const a = s;`,
      "storage/a.test.ts": `import { s } from "../testing/scripted.ts";\nimport { readFileSync } from "node:fs";\nimport("./" + "x");`,
      "testing/scripted.ts": `import { a } from "../storage/a.ts";\nimport { join } from "node:path";\nexport const s = [a, join];`,
    });
    const { violations } = checkImports(root);
    expect(hits(violations, "core/errors.ts", "core/ is a leaf")).toHaveLength(1);
    expect(hits(violations, "storage/a.ts", "only tests and testing/ may import testing/")).toHaveLength(1);
    expect(hits(violations, "storage/a.test.ts", "")).toEqual([]);
    expect(hits(violations, "testing/scripted.ts", "")).toEqual([]);
  });

  it("places the new rooms: agent-folders above models, tools between agent and middleware, sandbox above backends", () => {
    const root = tree({
      "agent-folders/load.ts": `import { m } from "../models/m.ts";\nimport { c } from "../agent/c.ts";\nexport const f = [m, c];`,
      "models/m.ts": `import { f } from "../agent-folders/load.ts";\nexport const m = f;`,
      "agent/c.ts": `import { t } from "../tools/fetch-url.ts";\nexport const c = t;`,
      "tools/fetch-url.ts": `import { h } from "../middleware/h.ts";\nimport { c } from "../agent/c.ts";\nexport const t = [h, c];`,
      "middleware/h.ts": `import { t } from "../tools/fetch-url.ts";\nexport const h = t;`,
      "backends/sandbox/quickjs/engine.ts": [
        `import { p } from "../../protocol.ts";`,
        `import { l } from "../../../harness/l.ts";`,
        `export const q = [p, l];`,
      ].join("\n"),
      "backends/protocol.ts": `import { q } from "./sandbox/quickjs/engine.ts";\nexport const p = q;`,
      "harness/l.ts": `export const l = 1;`,
      "worker/a.ts": `import { f } from "../agent-folders/load.ts";\nimport { g } from "../server/graph.ts";\nexport const a = [f, g];`,
      "server/graph.ts": `import { f } from "../agent-folders/load.ts";\nimport { a } from "../worker/a.ts";\nexport const g = [f, a];`,
      "plugins/x.ts": `export const x = 1;`,
    });
    const { violations } = checkImports(root);
    expect(hits(violations, "agent-folders/load.ts", "")).toEqual([]);
    expect(hits(violations, "models/m.ts", "models/ may not import agent-folders/")).toHaveLength(1);
    expect(hits(violations, "agent/c.ts", "")).toEqual([]);
    expect(hits(violations, "tools/fetch-url.ts", "tools/ may not import agent/")).toHaveLength(1);
    expect(hits(violations, "tools/fetch-url.ts", "middleware/")).toEqual([]);
    expect(hits(violations, "middleware/h.ts", "middleware/ may not import tools/")).toHaveLength(1);
    expect(hits(violations, "backends/sandbox/quickjs/engine.ts", "backends/sandbox/ may not import harness/")).toHaveLength(1);
    expect(hits(violations, "backends/sandbox/quickjs/engine.ts", "protocol")).toEqual([]);
    expect(hits(violations, "backends/protocol.ts", "backends/ may not import backends/sandbox/")).toHaveLength(1);
    expect(hits(violations, "worker/a.ts", "nothing but tests imports server/")).toHaveLength(1);
    expect(hits(violations, "server/graph.ts", "server/ and worker/ sit beside each other")).toHaveLength(1);
    expect(hits(violations, "plugins/x.ts", "plugins/ is not a room")).toHaveLength(1);
  });

  it("keeps server/ off everything browser-only, through any chain of value imports, and lets it use Node", () => {
    const root = tree({
      "server/graph.ts": [
        `import { readFileSync } from "node:fs";`,
        `import type { Saver } from "../storage/saver.ts";`,
        `import { c } from "../agent/c.ts";`,
        `export const g = [readFileSync, c] as unknown as Saver;`,
      ].join("\n"),
      "agent/c.ts": `import { b } from "../backends/idb.ts";\nexport const c = b;`,
      "backends/idb.ts": `import { openDB } from "idb";\nimport { s } from "../storage/saver.ts";\nexport const b = [openDB, s];`,
      "storage/saver.ts": `export type Saver = object;\nexport const s = 1;`,
    });
    const { violations } = checkImports(root);
    expect(violations).toEqual([
      'server/graph.ts reaches "idb" (browser-only) through server/graph.ts -> agent/c.ts -> backends/idb.ts: ' +
        "server/ imports nothing browser-only",
      "server/graph.ts reaches storage/saver.ts (browser-only) through " +
        "server/graph.ts -> agent/c.ts -> backends/idb.ts -> storage/saver.ts: server/ imports nothing browser-only",
    ]);
  });

  it("keeps the MCP SDK's Node-only parts (stdio, the server side) and @langchain/mcp-adapters out of the bundles", () => {
    const root = tree({
      "tools/mcp.ts": [
        `import { Client } from "@modelcontextprotocol/sdk/client/index.js";`,
        `import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";`,
        `import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";`,
        `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";`,
        `import { MultiServerMCPClient } from "@langchain/mcp-adapters";`,
        `export const m = [Client, StreamableHTTPClientTransport, StdioClientTransport, McpServer, MultiServerMCPClient];`,
      ].join("\n"),
      "testing/mcp-servers.ts": `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nexport const s = McpServer;`,
    });
    const { violations } = checkImports(root);
    const nodeOnly = hits(violations, "tools/mcp.ts", "Node-only");
    expect(nodeOnly.map((v) => /imports "([^"]+)"/.exec(v)?.[1])).toEqual([
      "@modelcontextprotocol/sdk/client/stdio.js",
      "@modelcontextprotocol/sdk/server/mcp.js",
      "@langchain/mcp-adapters",
    ]);
    expect(hits(violations, "testing/mcp-servers.ts", "")).toEqual([]);
  });

  it("finds cycles, ignoring type-only imports", () => {
    const root = tree({
      "backends/a.ts": `import { b } from "./b";\nexport const a = b;`,
      "backends/b.ts": `import { a } from "./a.ts";\nexport const b = a;`,
      "backends/c.ts": `import type { D } from "./d.ts";\nexport type C = D;`,
      "backends/d.ts": `import type { C } from "./c.ts";\nexport type D = C;`,
    });
    expect(checkImports(root).cycles).toEqual(["backends/a.ts -> backends/b.ts -> backends/a.ts"]);
  });

  it("resolves with the options Vite resolves vite.config.ts's client build with", async () => {
    const config = await resolveConfig({ configFile: resolve("vite.config.ts"), logLevel: "silent" }, "build");
    const client = config.environments.client!.resolve;
    expect({ extensions: client.extensions, conditions: client.conditions, mainFields: client.mainFields }).toEqual({
      extensions: VITE_RESOLVE.extensions,
      conditions: VITE_RESOLVE.conditions,
      mainFields: VITE_RESOLVE.mainFields,
    });
    // Vite's own aliases (its client runtime, /@vite/env and /@vite/client) and none of the project's.
    expect(config.resolve.alias.filter((a) => !a.replacement.includes("/vite/dist/client/"))).toEqual(VITE_RESOLVE.alias);
  }, 30_000);
});
