// `npm run serve`: the graphs of langgraph.json on LangGraph's API server (@langchain/langgraph-api, MIT), with
// checkpoints and the store in PostgreSQL (POSTGRES_URI or DATABASE_URL), so threads survive a restart.
//
//   DATABASE_URL=postgresql://user:pass@127.0.0.1:5432/deeptab DEEPTAB_MODEL=anthropic:claude-sonnet-4-5 \
//     ANTHROPIC_API_KEY=… npm run serve            # PORT (default 2024), HOST (default 127.0.0.1)
//
// The graph module (src/server/graph.ts) opens PostgreSQL itself and keeps its state there whatever the API holds in
// memory; the API's own records of threads and runs are kept in .langgraph_api/ in this folder. Scale-out over
// machines is LangGraph's platform with the same langgraph.json (docs/server.md).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, StartServerSchema } from "@langchain/langgraph-api/server";
import { postgresUrlFromEnv } from "../../src/server/postgres.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

function fail(message: string): never {
  console.error(`npm run serve: ${message}`);
  process.exit(1);
}

if (!postgresUrlFromEnv(process.env)) {
  fail(
    "set DATABASE_URL (or POSTGRES_URI) to a PostgreSQL URL, e.g. postgresql://postgres@127.0.0.1:5432/deeptab. For a server without PostgreSQL: npx @langchain/langgraph-cli dev",
  );
}
const config = JSON.parse(readFileSync(join(root, "langgraph.json"), "utf8")) as { graphs: Record<string, string>; http?: unknown };
const port = Number(process.env.PORT ?? 2024);
if (!Number.isInteger(port) || port <= 0 || port > 65_535) fail(`PORT '${process.env.PORT}' is not a port number.`);
const options = StartServerSchema.parse({
  port,
  nWorkers: Number(process.env.N_JOBS_PER_WORKER ?? 10),
  host: process.env.HOST ?? "127.0.0.1",
  cwd: root,
  graphs: config.graphs,
  ...(config.http ? { http: config.http } : {}),
});
try {
  const { host, cleanup } = await startServer(options);
  console.log(`deeptab server on http://${host} (PostgreSQL); graphs: ${Object.keys(config.graphs).join(", ")}`);
  const stop = () => {
    void cleanup().finally(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} catch (cause) {
  fail(cause instanceof Error ? cause.message : String(cause));
}
