/**
 * `npm run bench`: each figure is a ratio against a baseline run in the same
 * process, so machine noise cancels out. The browser sections run last, in
 * headless Chromium (skipped when it is missing); the app section needs
 * `npm run build` first.
 *
 *   npm run bench                  every section, in the order below
 *   npm run bench -- loop shell    only the sections named
 *   npm run bench -- --help        the section names
 */
import { benchAgents } from "./agents.ts";
import { benchApp } from "./app.ts";
import { benchBrowser } from "./browser.ts";
import { benchCheckpoints } from "./checkpoint.ts";
import { benchContext } from "./context.ts";
import { benchDemos } from "./demos.ts";
import { benchExports } from "./exports.ts";
import { benchLoop } from "./loop.ts";
import { benchJs } from "./js.ts";
import { benchMcp } from "./mcp.ts";
import { benchPatterns } from "./patterns.ts";
import { benchPrompt } from "./prompt.ts";
import { benchPython } from "./python.ts";
import { benchRunaway } from "./runaway.ts";
import { benchServer } from "./server.ts";
import { benchShell } from "./shell.ts";
import { benchStop } from "./stop.ts";
import { benchStorage } from "./storage.ts";
import { benchWrites } from "./writes.ts";

/** Every section by name (its module's name in scripts/bench/), in the order a full run takes them. */
const SECTIONS: Record<string, () => Promise<string[]>> = {
  loop: benchLoop,
  context: benchContext,
  checkpoint: benchCheckpoints,
  storage: benchStorage,
  exports: benchExports,
  writes: benchWrites,
  patterns: benchPatterns,
  prompt: benchPrompt,
  shell: benchShell,
  runaway: benchRunaway,
  stop: benchStop,
  agents: benchAgents,
  demos: benchDemos,
  mcp: benchMcp,
  server: benchServer,
  js: benchJs,
  python: benchPython,
  browser: benchBrowser,
  app: benchApp,
};

const names = Object.keys(SECTIONS);
const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log(`usage: npm run bench [-- <section>...]\nsections: ${names.join(" ")}`);
  process.exit(0);
}
const unknown = args.filter((name) => !names.includes(name));
if (unknown.length > 0) {
  console.error(`unknown bench section: ${unknown.join(", ")} (sections: ${names.join(" ")})`);
  process.exit(1);
}

for (const name of args.length > 0 ? names.filter((n) => args.includes(n)) : names) {
  for (const line of await SECTIONS[name]()) console.log(line);
  console.log("");
}
