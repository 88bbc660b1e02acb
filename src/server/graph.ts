/**
 * The graph `deeptab` of langgraph.json: the server's agent, configured from the environment.
 *
 * - `DEEPTAB_MODEL=<provider>:<model>` (required) with the provider's variables (server/model.ts);
 * - `DEEPTAB_INTERRUPT_ON=execute,write_file,…`: tool calls that pause for approval (default: `execute`, as the
 *   tab's default); `none` for no approvals;
 * - `POSTGRES_URI` or `DATABASE_URL`: checkpoints and store in PostgreSQL (`npm run serve`); unset, the graph uses
 *   the storage LangGraph's server gives it (`langgraph dev`: in memory, saved to files in the project folder).
 */
import { createServerAgent } from "./agent.ts";
import { interruptOnFromEnv, type Env } from "./graph-env.ts";
import { modelFromEnv } from "./model.ts";
import { openPostgres, postgresUrlFromEnv } from "./postgres.ts";

/** Builds the graph from `env` (the startup errors of model.ts and postgres.ts stop the server with their text). */
async function graphFromEnv(env: Env) {
  const model = await modelFromEnv(env);
  const url = postgresUrlFromEnv(env);
  const pg = url ? await openPostgres(url) : undefined;
  return createServerAgent({
    model,
    interruptOn: interruptOnFromEnv(env),
    ...(pg ? { checkpointer: pg.checkpointer, store: pg.store } : {}),
  });
}

export const graph = await graphFromEnv(process.env);
