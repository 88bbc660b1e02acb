/**
 * just-bash's `grep -r` joins a directory operand and a name with "/" even when
 * the operand already ends with one, so `grep -r TODO /` prints `//README.md`
 * and `grep -r TODO src/` prints `src//a.md`. GNU grep prints `/README.md` and
 * `src/a.md`. This wraps the bundled grep (and egrep, fgrep): for a recursive
 * search, an operand ending in "/" loses its trailing slashes, and the root
 * ("/") is passed as "" with `resolvePath(cwd, "")` answering "/", which is
 * what makes the built-in print `/README.md`. Everything else is the built-in.
 *
 * The built-in is taken from a Bash instance's command table (just-bash has
 * no public way to wrap a bundled command); when it is not there, nothing is
 * wrapped. shell.test.ts guards the output, so a just-bash upgrade that
 * changes either side fails a test rather than printing `//` again.
 */
import { defineCommand, type Bash, type Command, type IFileSystem } from "just-bash/browser";

const GREPS = ["grep", "egrep", "fgrep"] as const;

/** Indexes of the file operands in grep's arguments, parsed as just-bash's grep parses them, and whether -r is on. */
function grepOperands(args: readonly string[]): { operands: number[]; recursive: boolean } {
  let options = true;
  let patternGiven = false;
  let recursive = false;
  const operands: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (options && arg === "--") {
      options = false;
      continue;
    }
    if (!options || !arg.startsWith("-") || arg === "-") {
      operands.push(i);
      continue;
    }
    if (["-e", "-m", "-A", "-B", "-C", "--file"].includes(arg)) {
      if (arg === "-e" || arg === "--file") patternGiven = true;
      i++;
    } else if (arg.startsWith("--")) {
      if (arg.startsWith("--file=")) patternGiven = true;
      if (arg === "--recursive") recursive = true;
    } else if (!/^-[ABCm]\d+$/.test(arg)) {
      const flags = arg.slice(1);
      const f = flags.indexOf("f");
      const group = f === -1 ? flags : flags.slice(0, f);
      if (/[rR]/.test(group)) recursive = true;
      if (f !== -1) {
        patternGiven = true;
        if (f === flags.length - 1) i++;
      }
    }
  }
  if (!patternGiven) operands.shift();
  return { operands, recursive };
}

/** A filesystem whose `resolvePath(base, "")` is "/" (the root operand passed as ""). */
function rootAsEmpty(fs: IFileSystem): IFileSystem {
  return new Proxy(fs, {
    get(target, prop) {
      if (prop === "resolvePath") return (base: string, path: string) => (path === "" ? "/" : target.resolvePath(base, path));
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function wrapped(builtin: Command): Command {
  return defineCommand(builtin.name, async (args, ctx) => {
    const { operands, recursive } = grepOperands(args);
    if (!recursive) return builtin.execute(args, ctx);
    const next = [...args];
    let root = false;
    for (const i of operands) {
      const arg = next[i]!;
      if (!arg.endsWith("/")) continue;
      const trimmed = arg.replace(/\/+$/, "");
      next[i] = trimmed;
      if (!trimmed) root = true;
    }
    return builtin.execute(next, root ? { ...ctx, fs: rootAsEmpty(ctx.fs) } : ctx);
  });
}

/** Replaces `bash`'s grep, egrep and fgrep by the wrapped ones. */
export function fixGrepPaths(bash: Bash): void {
  const table = (bash as unknown as { commands?: unknown }).commands;
  if (!(table instanceof Map)) return;
  for (const name of GREPS) {
    const builtin: unknown = table.get(name);
    if (builtin && typeof (builtin as Command).execute === "function") bash.registerCommand(wrapped(builtin as Command));
  }
}
