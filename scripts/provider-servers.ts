/**
 * The scripted OpenAI and Anthropic servers of src/testing/provider-servers.ts
 * on fixed ports, for trying the app by hand against the real wire protocols:
 *
 *   node --import tsx scripts/provider-servers.ts [--openai-port 4421] [--anthropic-port 4422]
 *     [--host 127.0.0.1] [--key KEY] [--reply TEXT] [--models id,id]
 *
 * The environment works too: DEEPTAB_OPENAI_PORT, DEEPTAB_ANTHROPIC_PORT,
 * DEEPTAB_PROVIDER_KEY, DEEPTAB_PROVIDER_REPLY (flags win). Port 0 takes any
 * free port. The defaults stay clear of the e2e servers (4411, 4412). Prints
 * one `<dialect>: <url>` line per server, then how to point the app at it and
 * script it; runs until interrupted.
 */
import { parseArgs } from "node:util";
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from "../src/testing/provider-servers.ts";

const { values } = parseArgs({
  options: {
    "openai-port": { type: "string" },
    "anthropic-port": { type: "string" },
    host: { type: "string" },
    key: { type: "string" },
    reply: { type: "string" },
    models: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});

if (values.help) {
  console.log(
    "usage: node --import tsx scripts/provider-servers.ts " +
      "[--openai-port N] [--anthropic-port N] [--host H] [--key KEY] [--reply TEXT] [--models a,b]",
  );
  process.exit(0);
}

function port(flag: string | undefined, env: string | undefined, fallback: number): number {
  const raw = flag ?? env;
  const n = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new Error(`not a port: ${raw}`);
  return n;
}

const host = values.host ?? "127.0.0.1";
const key = values.key ?? process.env.DEEPTAB_PROVIDER_KEY;
const reply = values.reply ?? process.env.DEEPTAB_PROVIDER_REPLY;
const models = values.models
  ?.split(",")
  .map((m) => m.trim())
  .filter(Boolean);
const common: ScriptedServerOptions = {
  host,
  ...(key ? { requireKey: key } : {}),
  ...(reply ? { defaultReply: { text: reply } } : {}),
};

const servers: ScriptedServer[] = [];
try {
  servers.push(
    await startScriptedServer("openai", [], {
      ...common,
      port: port(values["openai-port"], process.env.DEEPTAB_OPENAI_PORT, 4421),
      ...(models ? { models } : {}),
    }),
  );
  servers.push(
    await startScriptedServer("anthropic", [], {
      ...common,
      port: port(values["anthropic-port"], process.env.DEEPTAB_ANTHROPIC_PORT, 4422),
      ...(models ? { models } : {}),
    }),
  );
} catch (cause) {
  await Promise.all(servers.map((s) => s.close()));
  console.error(`provider-servers: ${cause instanceof Error ? cause.message : String(cause)}`);
  process.exit(1);
}

const [openai, anthropic] = servers as [ScriptedServer, ScriptedServer];
console.log(`openai: ${openai.url}`);
console.log(`anthropic: ${anthropic.url}`);
console.log(
  `
In the app: "OpenAI-compatible" with base URL ${openai.baseUrl()}; Anthropic with base URL ${anthropic.baseUrl()}.
${key ? `Both accept only the key ${key}.` : "Any key (or none) is accepted."} ` +
    `With nothing scripted they answer: ${reply ?? "(the default reply)"}
Script replies:  curl -X POST ${openai.url}/__control/script -H 'content-type: application/json' \\
                   -d '{"replies":[{"chunks":["Hel","lo"],"delayMs":300},{"status":429,"headers":{"retry-after":"2"}}]}'
Requests seen:   curl ${openai.url}/__control/requests
Ctrl-C stops.`,
);

async function stop() {
  await Promise.all(servers.map((s) => s.close()));
  process.exit(0);
}
process.once("SIGINT", () => void stop());
process.once("SIGTERM", () => void stop());
