/**
 * The offline shell's `python3` (Pyodide from node_modules) on the shell's own
 * thread, in Node (worker_threads running the browser's thread code).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeShellThreads } from "../../testing/node-shell-threads.ts";
import { isBackendError, type Outcome } from "../protocol.ts";
import { Bash } from "just-bash/browser";
import { parsePythonArgs, pythonCommands } from "./python-command.ts";
import { CAPS_ERROR, CAPS_KEPT, CAPS_OUTPUT, CAPS_PROGRAM, CAPS_SIZES } from "../../testing/python-caps.ts";
import { ESCAPE, SEALED_OUTPUT } from "../../testing/python-escape.ts";
import { startPackageSource, type PackageSourceServer } from "../../testing/python-package-source.ts";
import { PythonPackages } from "./python-packages.ts";
import { ShellBackend } from "./shell.ts";

const NO_SOURCE = (name: string) =>
  `No module named '${name}': only Python's standard library is available offline (packages such as numpy or pandas load once a ` +
  "package source is chosen: Settings, Python packages)";

function ok<T>(value: Outcome<T>): T {
  if (isBackendError(value)) throw new Error(value.message);
  return value;
}

describe("python3 argument parsing", () => {
  const noFile = () => Promise.reject(new Error("No such file or directory"));
  it("reads -c, -m, a script, stdin and -V as CPython does", async () => {
    expect(await parsePythonArgs(["-c", "print(1)", "a"], "", noFile)).toEqual({
      source: "print(1)",
      filename: "<string>",
      argv: ["-c", "a"],
    });
    expect(await parsePythonArgs(["-u", "-"], "print(2)", noFile)).toMatchObject({ source: "print(2)", filename: "<stdin>" });
    expect(await parsePythonArgs(["-V"], "", noFile)).toEqual({ version: true });
    expect(await parsePythonArgs(["-m", "json.tool"], "", noFile)).toMatchObject({ argv: ["json.tool"] });
    expect(await parsePythonArgs(["s.py", "x"], "", async () => "print(3)")).toEqual({
      source: "print(3)",
      filename: "s.py",
      argv: ["s.py", "x"],
    });
    expect(await parsePythonArgs(["nope.py"], "", noFile)).toEqual({ error: "can't open file 'nope.py': No such file or directory" });
    expect(await parsePythonArgs(["-c"], "", noFile)).toEqual({ error: "Argument expected for the -c option" });
  });
});

describe("python3's first load", () => {
  it("shows a status line in the terminal panel while Python loads, and not in the command's output", async () => {
    const threads = nodeShellThreads();
    try {
      const chunks: string[] = [];
      const res = await new ShellBackend({ threads }).execute("python3 -c 'print(1)'", 1, { onOutput: (chunk) => chunks.push(chunk) });
      // A 1 s timeout does not cut the first load (seconds) short: it does not count, and the output is the program's alone.
      expect(res).toEqual({ output: "1\n", exitCode: 0, truncated: false });
      expect(chunks[0]).toBe("[python3: loading Python, first use on this thread (about 13 MB from this site, then cached)…]\n");
      expect(chunks[1]).toMatch(/^\[python3: Python ready in \d+\.\d s\]\n$/);
      expect(chunks.slice(2)).toEqual(["1\n"]);
      // Warm: no status line.
      const warm: string[] = [];
      await new ShellBackend({ threads }).execute("python3 -c 'print(2)'", 5, { onOutput: (chunk) => warm.push(chunk) });
      expect(warm).toEqual(["2\n"]);
    } finally {
      threads.close();
    }
  }, 180_000);

  it("is a clear error when Pyodide's files cannot be loaded (offline before the first use)", async () => {
    const missing = createServer((_req, res) => res.writeHead(404).end()).listen(0, "127.0.0.1");
    await new Promise((resolve) => missing.once("listening", resolve));
    const site = `http://127.0.0.1:${(missing.address() as AddressInfo).port}/assets/pyodide/`;
    const res = await new Bash({ customCommands: pythonCommands({ indexURL: site }) })
      .exec("python3 -c 'print(1)'")
      .finally(() => missing.close());
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toMatch(/^python3: Python could not be loaded from the site's own files: http:.*\/pyodide-lock\.json: HTTP 404\n/);
    expect(res.stderr).toContain(
      "Python is downloaded from this site the first time python3 runs; if the tab was offline then, retry once online",
    );
  }, 60_000);
});

describe("python3 in the offline shell (Pyodide on the shell's thread)", () => {
  const threads = nodeShellThreads();
  let server: Server;
  let url = "";
  let connections = 0;
  beforeAll(async () => {
    // Pyodide's cold start, once for the file (later tests are warm unless a timeout killed the thread).
    await new ShellBackend({ threads }).execute("python3 -c pass", 120);
    server = createServer((_req, res) => res.end("served-by-the-test")).listen(0, "127.0.0.1");
    server.on("connection", () => connections++);
    await new Promise((resolve) => server.once("listening", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  }, 180_000);
  afterAll(() => {
    threads.close();
    server?.close();
  });
  const shell = () => new ShellBackend({ threads });

  it("reads the agent's files at their paths and writes files the file tools then see", async () => {
    const sh = shell();
    ok(await sh.write("/data.csv", "name,n\na,2\nb,3\n"));
    const code = [
      "import csv, os",
      "rows = list(csv.DictReader(open('/data.csv')))",
      "total = sum(int(r['n']) for r in rows)",
      "os.makedirs('/out', exist_ok=True)",
      "open('/out/total.txt', 'w').write(f'total={total}\\n')",
      "print(len(rows), 'rows')",
    ].join("\n");
    const res = await sh.execute(`python3 -c "${code.replaceAll('"', '\\"')}"`, 60);
    expect(res).toEqual({ output: "2 rows\n", exitCode: 0, truncated: false });
    expect(ok(await sh.read("/out/total.txt")).lines).toEqual(["total=5"]);
    // A file left open (no close, no with; held in a cycle) is flushed as at a process's exit.
    ok(await sh.write("/cycle.py", "class A: pass\na = A()\na.me = a\na.f = open('/unclosed.txt', 'w')\na.f.write('kept')\n"));
    expect((await sh.execute("python3 /cycle.py", 60)).exitCode).toBe(0);
    expect(ok(await sh.read("/unclosed.txt")).lines).toEqual(["kept"]);
    // The shell sees the same files, and a script file runs from the workspace with argv.
    ok(await sh.write("/s.py", "import sys\nprint(open('/out/total.txt').read().strip(), sys.argv[1:])\n"));
    expect((await sh.execute("python3 /s.py x y | tr a-z A-Z", 60)).output).toBe("TOTAL=5 ['X', 'Y']\n");
  }, 60_000);

  it("deletes in Python reach the workspace; stdin programs and exit codes work as in CPython", async () => {
    const sh = shell();
    ok(await sh.write("/gone.txt", "x"));
    expect((await sh.execute("echo 'import os; os.remove(\"/gone.txt\")' | python3", 60)).exitCode).toBe(0);
    expect(isBackendError(await sh.read("/gone.txt"))).toBe(true);
    expect(await sh.execute("python3 -c 'import sys; sys.exit(3)'", 60)).toMatchObject({ exitCode: 3 });
    const err = await sh.execute("python3 -c '1/0'", 60);
    expect(err.exitCode).toBe(1);
    expect(err.output).toMatch(/Traceback \(most recent call last\):[\s\S]*ZeroDivisionError: division by zero/);
    expect(err.output).not.toContain("_deeptab_run");
  }, 60_000);

  it("a second run does not see the first's globals (nor its files left in Pyodide's memory)", async () => {
    const sh = shell();
    expect((await sh.execute('python3 -c \'secret = 42; open("/tmp/keep.txt", "w").write("k")\'', 60)).exitCode).toBe(0);
    const res = await sh.execute("python3 -c 'print(\"secret\" in globals(), __name__)'", 60);
    expect(res.output).toBe("False __main__\n");
    // /tmp is the shell session's: written back, seen by cat.
    expect((await sh.execute("cat /tmp/keep.txt", 60)).output).toBe("k");
  }, 60_000);

  it("has no network: urllib fails with a clear error", async () => {
    const sh = shell();
    const urllib = await sh.execute(`python3 -c 'import urllib.request; urllib.request.urlopen("${url}")'`, 60);
    expect(urllib.exitCode).toBe(1);
    expect(urllib.output).not.toContain("served-by-the-test");
    expect(urllib.output).toContain("URLError: <urlopen error [Errno 101] Network is unreachable: the sandbox has no network access>");
    expect(connections).toBe(0);
  }, 60_000);

  it("refuses `import js`, pyodide.ffi, pyodide.http and pyodide_js to the program with a clear error", async () => {
    const sh = shell();
    for (const statement of [
      "import js",
      "from js import fetch",
      "import pyodide.ffi",
      "from pyodide.http import pyfetch",
      "import pyodide_js",
    ]) {
      const res = await sh.execute(`python3 -c '${statement}'`, 60);
      expect(res.exitCode, statement).toBe(1);
      expect(res.output, statement).toMatch(
        /ModuleNotFoundError: No module named '\w+(\.\w+)?': Python in deeptab's sandbox has no access to JavaScript/,
      );
    }
    // A program that catches it carries on (ImportError, as a missing module).
    expect((await sh.execute(`python3 -c 'exec("try:\\n import js\\nexcept ImportError:\\n print(\\"no js\\")")'`, 60)).output).toBe(
      "no js\n",
    );
  }, 60_000);

  it("a program that gets past the import guard reaches JavaScript without network or storage (the sealed thread)", async () => {
    const sh = shell();
    ok(await sh.write("/escape.py", ESCAPE));
    const res = await sh.execute("python3 /escape.py", 60);
    expect(res.exitCode).toBe(0);
    // The bypass works (Python has no in-process sandbox): it found JavaScript's globalThis, and nothing on it.
    for (const line of SEALED_OUTPUT) expect(res.output).toContain(line);
    expect(connections).toBe(0);
  }, 60_000);

  it("says that only the standard library is there when a package such as numpy is imported, and where packages come from", async () => {
    const res = await shell().execute("python3 -c 'import numpy as np'", 60);
    expect(res.exitCode).toBe(1);
    expect(res.output).toContain(`ModuleNotFoundError: ${NO_SOURCE("numpy")}`);
    expect((await shell().execute("python3 -c 'import json, csv, sqlite3, statistics; print(\"ok\")'", 60)).output).toBe("ok\n");
  }, 60_000);

  it("cuts output over the cap and says so", async () => {
    const res = await new ShellBackend({ threads, maxOutputBytes: 1000 }).execute("python3 -c 'print(\"x\" * 5000)'", 60);
    expect(res.truncated).toBe(true);
    expect(res.output.length).toBeLessThanOrEqual(1100);
  }, 60_000);

  it("python3's writes stop at the caps in Python: 10 MiB a file (EFBIG), 64 MiB of /tmp (ENOSPC), none past them kept", async () => {
    const sh = shell();
    ok(await sh.write("/caps.py", CAPS_PROGRAM));
    const res = await sh.execute("python3 /caps.py", 60);
    expect(res.output).toContain(CAPS_OUTPUT);
    expect(res.output).toMatch(CAPS_ERROR);
    expect(res.exitCode).toBe(1);
    expect((await sh.execute(CAPS_SIZES, 60)).output).toMatch(CAPS_KEPT);
  }, 60_000);

  it("stops a memory bomb with MemoryError and keeps working", async () => {
    const sh = shell();
    const res = await sh.execute("python3 -c 'x = [0] * (10 ** 9)'", 60);
    expect(res.exitCode).toBe(1);
    expect(res.output).toContain("MemoryError");
    expect((await sh.execute("python3 -c 'print(6 * 7)'", 60)).output).toBe("42\n");
  }, 60_000);

  it("stops an infinite loop at the shell's timeout, and the next python3 runs (cold again)", async () => {
    const sh = shell();
    const started = performance.now();
    const res = await sh.execute("python3 -c 'while True: pass'", 2);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(res.exitCode).toBeNull();
    expect(res.output).toMatch(/^Error: Command timed out after 2 seconds/);
    expect((await sh.execute("python3 -c 'print(\"again\")'", 120)).output).toBe("again\n");
  }, 180_000);
});

describe("python3 with a package source (Pyodide wheels from a loopback source; the shell's thread stays sealed)", () => {
  const threads = nodeShellThreads();
  let source: PackageSourceServer;
  let packages: PythonPackages;
  beforeAll(async () => {
    source = await startPackageSource();
    packages = new PythonPackages(source.url);
  });
  afterAll(async () => {
    threads.close();
    await source?.close();
  });
  const requests = async () => (await (await fetch(`${source.url}requests`)).json()) as Record<string, number>;

  it("installs what a program imports, dependencies first, once per thread, with status lines in the terminal panel", async () => {
    const sh = new ShellBackend({ threads, pythonPackages: async () => packages });
    const chunks: string[] = [];
    const res = await sh.execute(`python3 -c 'import deeptab_probe; print(deeptab_probe.hello())'`, 60, {
      onOutput: (c) => chunks.push(c),
    });
    expect(res).toEqual({ output: "hello from a package (base 2.0)\n", exitCode: 0, truncated: false });
    const host = new URL(source.url).host;
    expect(chunks).toContain(`[python3: fetching packages for deeptab_probe from ${host}…]\n`);
    expect(
      chunks.some((c) =>
        new RegExp(`^\\[python3: installed deeptab_base 2\\.0, deeptab_probe 1\\.0 from ${host} in \\d+\\.\\d s\\]\\n$`).test(c),
      ),
    ).toBe(true);
    // Warm: installed on the thread already, nothing asked again.
    const warm: string[] = [];
    const again = await sh.execute(`python3 -c 'import deeptab_base; print(deeptab_base.VERSION)'`, 60, { onOutput: (c) => warm.push(c) });
    expect(again.output).toBe("2.0\n");
    expect(warm).toEqual(["2.0\n"]);
    expect((await requests())["/deeptab_base-2.0-py3-none-any.whl"]).toBe(1);
  }, 180_000);

  it("keeps the thread sealed: the program still reaches no fetch, network or storage once packages are installed", async () => {
    const sh = new ShellBackend({ threads, pythonPackages: packages });
    ok(await sh.write("/escape.py", `import deeptab_probe\n${ESCAPE}`));
    const res = await sh.execute("python3 /escape.py", 60);
    expect(res.exitCode).toBe(0);
    for (const line of SEALED_OUTPUT) expect(res.output).toContain(line);
    const net = await sh.execute(`python3 -c 'import urllib.request; urllib.request.urlopen("${source.url}pyodide-lock.json")'`, 60);
    expect(net.output).toContain("Network is unreachable: the sandbox has no network access");
  }, 60_000);

  it("says which source lacks a module, and why a package was not installed (bad checksum, another Pyodide)", async () => {
    const host = new URL(source.url).host;
    const sh = new ShellBackend({ threads, pythonPackages: packages });
    const missing = await sh.execute("python3 -c 'import nothere'", 60);
    expect(missing.exitCode).toBe(1);
    expect(missing.output).toContain(
      `ModuleNotFoundError: No module named 'nothere': not in Python's standard library, and the package source (${host}) ` +
        "has no package that provides it",
    );
    const tampered = await sh.execute("python3 -c 'import deeptab_tampered'", 60);
    expect(tampered.exitCode).toBe(1);
    expect(tampered.output).toContain(
      `ModuleNotFoundError: No module named 'deeptab_tampered': its package could not be installed from ${host} (see above)`,
    );
    expect(tampered.output).toMatch(
      new RegExp(
        `^python3: packages could not be installed from ${host}: .*deeptab_tampered-1\\.0-py3-none-any\\.whl does not match its SHA-256`,
      ),
    );
    const other = new ShellBackend({ threads, pythonPackages: new PythonPackages(`${source.url}other-abi/`) });
    const abi = await other.execute("python3 -c 'import deeptab_other_abi'", 60);
    expect(abi.output).toMatch(
      new RegExp(
        `^python3: packages could not be installed from ${host}: ${host} has packages for Pyodide's ABI 1999_0; ` +
          "this Python needs \\d+_\\d+",
      ),
    );
    // Without a source, the same program's error names the setting.
    expect((await new ShellBackend({ threads }).execute("python3 -c 'import nothere'", 60)).output).toContain(NO_SOURCE("nothere"));
  }, 60_000);
});
