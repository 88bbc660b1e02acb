/**
 * Commands the offline shell does not have, answering as a shell does for a
 * missing command (exit 127) and saying which sandbox would run them.
 */
import { defineCommand, type Command } from "just-bash/browser";

const IN_WEBCONTAINER = ["node", "npm", "npx", "yarn", "pnpm", "corepack"];
const NOWHERE = ["python", "python3", "pip", "pip3", "git", "apt", "apt-get", "sudo", "docker"];
const NETWORK = ["curl", "wget", "ssh", "scp"];

function missing(name: string, why: string): Command {
  return defineCommand(name, async () => ({ stdout: "", stderr: `bash: ${name}: command not found: ${why}\n`, exitCode: 127 }));
}

/** The replacements, to pass as just-bash `customCommands`. */
export function missingCommands(): Command[] {
  return [
    ...IN_WEBCONTAINER.map((n) =>
      missing(
        n,
        "the offline shell has no Node.js; it runs in the WebContainer sandbox (Node.js and npm in the tab), when that sandbox can start",
      ),
    ),
    ...NOWHERE.map((n) => missing(n, "no sandbox in this browser tab provides it (neither the offline shell nor WebContainer)")),
    ...NETWORK.map((n) => missing(n, "the sandbox has no network access")),
  ];
}
