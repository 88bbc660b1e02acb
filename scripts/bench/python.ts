/**
 * `python3` in the offline shell (Pyodide on the shell's own thread): the cold start (a fresh thread: Pyodide's wasm
 * compiled, the standard library mounted) and a warm call, each against a trivial shell command (`true`) on the same
 * threads; a small data step (sum a 1,000-row CSV from the workspace) warm; and a package from a source (the test's
 * loopback source: two small wheels, one a dependency) on its first import (lock and wheels fetched by the caller,
 * checked, installed) and once installed.
 *
 *   node --import tsx scripts/bench/python.ts
 */
import { pathToFileURL } from "node:url";
import { ShellBackend } from "../../src/backends/sandbox/shell.ts";
import { PythonPackages } from "../../src/backends/sandbox/python-packages.ts";
import { nodeShellThreads } from "../../src/testing/node-shell-threads.ts";
import { startPackageSource } from "../../src/testing/python-package-source.ts";

const WARM_RUNS = 10;

async function ms(shell: ShellBackend, command: string): Promise<number> {
  const start = performance.now();
  const res = await shell.execute(command, 300);
  if (res.exitCode !== 0) throw new Error(`bench-python: ${command} failed: ${res.output}`);
  return performance.now() - start;
}

async function mean(shell: ShellBackend, command: string): Promise<number> {
  let total = 0;
  for (let i = 0; i < WARM_RUNS; i++) total += await ms(shell, command);
  return total / WARM_RUNS;
}

export async function benchPython(): Promise<string[]> {
  const threads = nodeShellThreads();
  const source = await startPackageSource();
  try {
    const shell = new ShellBackend({ threads, pythonPackages: new PythonPackages(source.url) });
    await ms(shell, "true"); // the thread and just-bash loaded, so the cold figure is Python's alone
    const cold = await ms(shell, "python3 -c pass");
    const bash = await mean(shell, "true");
    const warm = await mean(shell, "python3 -c pass");
    const rows = Array.from({ length: 1_000 }, (_, i) => `r${i},${i % 13}`).join("\n");
    await shell.write("/data.csv", `name,n\n${rows}\n`);
    const csv = await mean(shell, `python3 -c 'import csv; print(sum(int(r["n"]) for r in csv.DictReader(open("/data.csv"))))'`);
    const probe = "python3 -c 'import deeptab_probe'";
    const install = await ms(shell, probe);
    const installed = await mean(shell, probe);
    const f = (t: number) => `${t.toFixed(1)} ms`.padStart(11);
    return [
      "python3: Pyodide on the offline shell's thread (Node worker_threads, files from node_modules)",
      `  a trivial shell command (true)          ${f(bash)}`,
      `  python3 -c pass, cold (first on thread) ${f(cold)}  (${(cold / bash).toFixed(0)}x true; once per shell thread)`,
      `  python3 -c pass, warm                   ${f(warm)}  (${(warm / bash).toFixed(1)}x true; cold/warm ${(cold / warm).toFixed(0)}x)`,
      `  sum a 1,000-row CSV with csv, warm      ${f(csv)}  (${(csv / warm).toFixed(2)}x python3 -c pass)`,
      `  import a package, first (2 wheels)      ${f(install)}  (${(install / warm).toFixed(1)}x python3 -c pass; loopback source)`,
      `  import a package, installed             ${f(installed)}  (${(installed / warm).toFixed(2)}x python3 -c pass)`,
    ];
  } finally {
    threads.close();
    await source.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const line of await benchPython()) console.log(line);
}
