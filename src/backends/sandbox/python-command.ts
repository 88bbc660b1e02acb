/**
 * The offline shell's `python3` (and `python`) command: CPython through
 * Pyodide (see python-run.ts), loaded on the first call on the shell's own
 * thread. Where no such thread runs (the "inline" shell), it answers as a
 * missing command: there a runaway program could not be stopped.
 *
 * Accepted: `python3 -c CODE [ARG…]`, `python3 -m MODULE [ARG…]`,
 * `python3 FILE [ARG…]`, `python3 [-]` with the program on stdin,
 * `python3 -V`/`--version`; `-u`, `-B`, `-I`, `-E`, `-s`, `-S` are accepted and
 * ignored (output is unbuffered anyway, no bytecode is written).
 */
import { defineCommand, type Command } from "just-bash/browser";
import type { PyodideInterface } from "pyodide";
import { loadPython, runPython, type PythonHost } from "./python-run.ts";
import { installWheels, neededImports, packageRequest } from "./python-wheels.ts";

/** Bytes of stdout (and of stderr) a run keeps; the shell's own output cap cuts the result further. */
const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;
const IGNORED = new Set(["-u", "-B", "-I", "-E", "-s", "-S"]);

type Program = { source: string; filename: string; argv: string[] } | { version: true } | { error: string };

/** just-bash's stdin: at run time a string of one char per byte (its browser entry exports no decoder). */
const latin1 = (stdin: unknown) => String(stdin);

/** Bytes as one char each, decoded as UTF-8 text. */
const utf8 = (bytes: string) => new TextDecoder().decode(Uint8Array.from(bytes, (c) => c.charCodeAt(0)));

/** Reads python3's arguments (pure). `readFile` reads a script. */
export async function parsePythonArgs(args: string[], stdin: string, readFile: (path: string) => Promise<string>): Promise<Program> {
  let i = 0;
  while (i < args.length && IGNORED.has(args[i] ?? "")) i++;
  const flag = args[i];
  if (flag === "-V" || flag === "--version") return { version: true };
  if (flag === "-c") {
    const code = args[i + 1];
    if (code === undefined) return { error: "Argument expected for the -c option" };
    return { source: code, filename: "<string>", argv: ["-c", ...args.slice(i + 2)] };
  }
  if (flag === "-m") {
    const name = args[i + 1];
    if (name === undefined) return { error: "Argument expected for the -m option" };
    const source = `import runpy\nrunpy.run_module(${JSON.stringify(name)}, run_name="__main__", alter_sys=True)\n`;
    return { source, filename: "<runpy>", argv: [name, ...args.slice(i + 2)] };
  }
  if (flag === undefined || flag === "-") return { source: utf8(stdin), filename: "<stdin>", argv: [flag ?? "", ...args.slice(i + 1)] };
  if (flag.startsWith("-")) return { error: `unknown option ${flag} (the tab's python3 takes -c, -m, -V, a script or stdin)` };
  try {
    return { source: await readFile(flag), filename: flag, argv: args.slice(i) };
  } catch (err) {
    return { error: `can't open file '${flag}': ${err instanceof Error ? err.message : String(err)}`, ...{} };
  }
}

/**
 * Installs what `source` imports and nothing installed provides, from the host's package source (none: nothing
 * happens, and the import fails with its own clear error). Returns a problem for stderr, or "".
 */
async function installImports(py: PyodideInterface, host: PythonHost, source: string, name: string): Promise<string> {
  const packages = host.packages;
  if (!packages) return "";
  const imports = neededImports(py, source);
  if (imports.length === 0) return "";
  const started = performance.now();
  host.onStatus?.("loading", `[python3: fetching packages for ${imports.join(", ")} from ${packages.host}…]\n`);
  try {
    const delivery = await packages.deliver(packageRequest(py, imports));
    host.onStatus?.("loaded", await installWheels(py, delivery, (performance.now() - started) / 1000));
    return "";
  } catch (err) {
    host.onStatus?.("loaded", "");
    return `${name}: packages could not be installed from ${packages.host}: ${err instanceof Error ? err.message : String(err)}\n`;
  }
}

/** `python3` and `python` for just-bash, over the host's Pyodide. */
export function pythonCommands(host: PythonHost): Command[] {
  const command = (name: string) =>
    defineCommand(name, async (args, ctx) => {
      const program = await parsePythonArgs(args, latin1(ctx.stdin), (path) => ctx.fs.readFile(ctx.fs.resolvePath(ctx.cwd, path)));
      if ("error" in program) return { stdout: "", stderr: `${name}: ${program.error}\n`, exitCode: 2 };
      let py;
      try {
        py = await loadPython(host);
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        const hint = "Python is downloaded from this site the first time python3 runs; if the tab was offline then, retry once online";
        return { stdout: "", stderr: `${name}: Python could not be loaded from the site's own files: ${why}\n(${hint}.)\n`, exitCode: 1 };
      }
      if ("version" in program)
        return { stdout: `Python ${String(py.runPython("import sys; sys.version.split()[0]"))}\n`, stderr: "", exitCode: 0 };
      const problem = await installImports(py, host, program.source, name);
      const packagesFrom = host.packages && { packagesFrom: host.packages.host, packagesFailed: problem !== "" };
      const result = await runPython(py, ctx.fs, { ...program, cwd: ctx.cwd, maxOutputBytes: MAX_OUTPUT_BYTES, ...packagesFrom });
      return problem ? { ...result, stderr: problem + result.stderr } : result;
    });
  return [command("python3"), command("python")];
}
