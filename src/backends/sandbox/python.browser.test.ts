/**
 * The offline shell's `python3` in Chromium: Pyodide loaded on the shell's own
 * Web Worker from the site's own files (the dev server's /__pyodide/, the
 * build's assets/pyodide/), over the app's IndexedDB workspace as the worker
 * builds it; files both ways, and the sealed thread (no network, no storage,
 * no other threads even for a program that gets past the import guard).
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { CAPS_ERROR, CAPS_KEPT, CAPS_OUTPUT, CAPS_PROGRAM, CAPS_SIZES } from "../../testing/python-caps.ts";
import { ESCAPE, SEALED_OUTPUT } from "../../testing/python-escape.ts";
import { FIXED_NOW } from "../../testing/runtime.ts";
import { createLayout } from "../../worker/layout.ts";
import { createSandboxService } from "../../worker/sandbox.ts";
import { canExecute, isBackendError, type Outcome } from "../protocol.ts";
import { createBackendRuntime, resolveBackend } from "../runtime.ts";
import { PythonPackages } from "./python-packages.ts";
import { ShellBackend } from "./shell.ts";

function ok<T>(value: Outcome<T>): T {
  if (isBackendError(value)) throw new Error(`${value.error}: ${value.message}`);
  return value;
}

/** The app's filesystem for one thread with the offline shell as the workspace route (fresh databases). */
function appFilesystem(packages?: () => Promise<PythonPackages | undefined>) {
  const runtime = createBackendRuntime({}, { configurable: { thread_id: "thread-1" } }, () => FIXED_NOW);
  const layout = createLayout(`python-${crypto.randomUUID()}`);
  const shellRoute = createSandboxService(layout.workspace, packages).workspaceFor("shell");
  const fs = resolveBackend(layout.backend(shellRoute), runtime);
  if (!canExecute(fs)) throw new Error("the shell sandbox cannot execute");
  return fs;
}

describe("python3 in the offline shell (Chromium, Pyodide on the shell's Web Worker)", () => {
  const firstUse: string[] = [];
  beforeAll(async () => {
    // Pyodide's cold start from the site's own files, once for the file; a 2 s timeout: the load does not count.
    const res = await new ShellBackend().execute("python3 -c 'import sys; print(sys.version_info[:2])'", 2, {
      onOutput: (chunk) => firstUse.push(chunk),
    });
    expect(res).toMatchObject({ exitCode: 0, output: "(3, 14)\n" });
  }, 180_000);

  it("shows Python's first load in the terminal panel: loading, then ready", () => {
    expect(firstUse[0]).toBe("[python3: loading Python, first use on this thread (about 13 MB from this site, then cached)…]\n");
    expect(firstUse[1]).toMatch(/^\[python3: Python ready in \d+\.\d s\]\n$/);
    expect(firstUse.slice(2)).toEqual(["(3, 14)\n"]);
  });

  it("reads the agent's files at their paths and writes files the file tools see (IndexedDB workspace)", async () => {
    const fs = appFilesystem();
    ok(await fs.write("/data/sales.csv", "region,amount\nnorth,10\nsouth,5\nnorth,7\n"));
    ok(
      await fs.write(
        "/sum.py",
        [
          "import csv, collections, json",
          "totals = collections.Counter()",
          "for row in csv.DictReader(open('data/sales.csv')):",
          "    totals[row['region']] += int(row['amount'])",
          "json.dump(dict(sorted(totals.items())), open('/data/totals.json', 'w'))",
          "print('regions:', len(totals))",
          "",
        ].join("\n"),
      ),
    );
    const res = await fs.execute("cd / && python3 sum.py", 60);
    expect(res).toMatchObject({ output: "regions: 2\n", exitCode: 0 });
    expect(ok(await fs.read("/data/totals.json")).lines).toEqual(['{"north": 17, "south": 5}']);
    // Changed and deleted by Python, seen by the file tools.
    const edit = await fs.execute('python3 -c \'import os; os.remove("/data/sales.csv"); open("/sum.py", "a").write("# done\\n")\'', 60);
    expect(edit.exitCode).toBe(0);
    expect(isBackendError(await fs.read("/data/sales.csv"))).toBe(true);
    expect(ok(await fs.read("/sum.py")).lines.at(-1)).toBe("# done");
  }, 90_000);

  it("python3's writes stop at the caps in Python over the app's workspace: 10 MiB a file, 64 MiB of /tmp, none kept past", async () => {
    const fs = appFilesystem();
    ok(await fs.write("/caps.py", CAPS_PROGRAM));
    const res = await fs.execute("python3 /caps.py", 60);
    expect(res.output).toContain(CAPS_OUTPUT);
    expect(res.output).toMatch(CAPS_ERROR);
    expect(res.exitCode).toBe(1);
    expect((await fs.execute(CAPS_SIZES, 60)).output).toMatch(CAPS_KEPT);
  }, 90_000);

  it("refuses `import js` and leaves a program that gets past it no network, storage or other threads", async () => {
    const fs = appFilesystem();
    const refused = await fs.execute("python3 -c 'import js'", 60);
    expect(refused.output).toContain("ModuleNotFoundError: No module named 'js': Python in deeptab's sandbox has no access to JavaScript");
    ok(await fs.write("/escape.py", ESCAPE));
    const res = await fs.execute("python3 /escape.py", 60);
    expect(res.exitCode).toBe(0);
    for (const line of SEALED_OUTPUT) expect(res.output).toContain(line);
    // The shell itself still works on the sealed thread.
    expect((await fs.execute("echo sealed | tr a-z A-Z", 60)).output).toBe("SEALED\n");
  }, 90_000);

  it("installs a package a program imports from the chosen source, fetched by the caller; the thread stays sealed", async () => {
    const source = inject("pythonPackageSource");
    const seen: string[] = [];
    const packages = new PythonPackages(source, (input, init) => {
      seen.push(String(input));
      return fetch(input, init);
    });
    const fs = appFilesystem(async () => packages);
    ok(await fs.write("/use.py", `import deeptab_probe\nprint(deeptab_probe.hello())\n${ESCAPE}`));
    const chunks: string[] = [];
    const res = await fs.execute("python3 /use.py", 60, { onOutput: (c) => chunks.push(c) });
    expect(res.exitCode).toBe(0);
    expect(res.output).toContain("hello from a package (base 2.0)\n");
    for (const line of SEALED_OUTPUT) expect(res.output).toContain(line);
    expect(seen).toEqual([
      `${source}pyodide-lock.json`,
      `${source}deeptab_base-2.0-py3-none-any.whl`,
      `${source}deeptab_probe-1.0-py3-none-any.whl`,
    ]);
    expect(chunks.some((c) => c.startsWith("[python3: installed deeptab_base 2.0, deeptab_probe 1.0 from 127.0.0.1:"))).toBe(true);
    // Without a source (the setting off), a missing module's error names the setting (what a thread installed stays).
    const off = await appFilesystem().execute("python3 -c 'import deeptab_other'", 60);
    expect(off.output).toContain("No module named 'deeptab_other': only Python's standard library is available offline");
  }, 90_000);
});
