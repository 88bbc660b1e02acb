/**
 * PostgreSQL for the server's checkpointer and store (`@langchain/langgraph-checkpoint-postgres`, MIT), from
 * `POSTGRES_URI` or `DATABASE_URL`. Tables are created on first use (`setup()`); the URL never appears in an error.
 */
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";

type Env = Readonly<Record<string, string | undefined>>;

/** The PostgreSQL URL the environment names, if any (`POSTGRES_URI` first, as LangGraph's platform reads it). */
export function postgresUrlFromEnv(env: Env): string | undefined {
  return env.POSTGRES_URI?.trim() || env.DATABASE_URL?.trim() || undefined;
}

export interface PostgresStorage {
  checkpointer: PostgresSaver;
  store: PostgresStore;
  close(): Promise<void>;
}

/** Connects, creates the tables if needed, and returns both; a failure says what to check without the URL. */
export async function openPostgres(url: string): Promise<PostgresStorage> {
  if (!URL.canParse(url)) throw new Error("deeptab server: POSTGRES_URI/DATABASE_URL is not a URL (postgresql://user:pass@host:5432/db).");
  const checkpointer = PostgresSaver.fromConnString(url);
  const store = PostgresStore.fromConnString(url);
  try {
    await checkpointer.setup();
    await store.setup();
  } catch (cause) {
    const host = new URL(url).host;
    const why = cause instanceof Error ? cause.message.split(url).join("<url>") : String(cause);
    throw new Error(`deeptab server: cannot set up PostgreSQL at ${host}: ${why}`, { cause });
  }
  return {
    checkpointer,
    store,
    async close() {
      await store.stop();
      await checkpointer.end();
    },
  };
}
