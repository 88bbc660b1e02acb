/**
 * Asking a local OpenAI-compatible server what context its model is loaded with (server-window.ts has the rule that
 * uses the answer): llama.cpp's `/props` (`default_generation_settings.n_ctx`, the context of one slot), LM Studio's
 * `/api/v0/models/<id>` (`loaded_context_length`), Ollama's `/api/ps` (`context_length` of the running model), else
 * the `num_ctx` its Modelfile sets (`/api/show`), else Ollama's default. Never a family maximum: not llama.cpp's
 * `n_ctx_train`, LM Studio's `max_context_length` or Ollama's `model_info["<arch>.context_length"]`. Loaded when a
 * server is first asked, not with the worker.
 */
import { providerInfo, type ModelChoice } from "./catalog.ts";
import { OLLAMA_DEFAULT_WINDOW, type ServerWindow } from "./server-window.ts";

/** A GET (or POST) of JSON within 3 s: the body when the server answers 2xx, else undefined; `answered` notes any HTTP answer. */
type GetJson = (url: string, init?: RequestInit) => Promise<unknown>;

function jsonGetter(fetchImpl: typeof fetch, seen: { answered: boolean }): GetJson {
  return async (url, init = {}) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 3_000);
    try {
      const res = await fetchImpl(url, { ...init, signal: controller.signal });
      seen.answered = true;
      return res.ok ? ((await res.json()) as unknown) : undefined;
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  };
}

const positive = (n: unknown): number | undefined => (typeof n === "number" && Number.isInteger(n) && n > 0 ? n : undefined);
const record = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** llama.cpp's server: the context of one slot (`--ctx-size` divided by `--parallel`). */
async function llamaCppWindow(root: string, get: GetJson): Promise<number | undefined> {
  const props = record(await get(`${root}/props`));
  return positive(record(props?.default_generation_settings)?.n_ctx);
}

/** LM Studio: the loaded instance's context; a model that is not loaded says only its maximum, which is not used. */
async function lmStudioWindow(root: string, model: string, get: GetJson): Promise<number | undefined> {
  const info = record(await get(`${root}/api/v0/models/${encodeURIComponent(model)}`));
  return positive(info?.loaded_context_length);
}

/** Ollama: the running model's context, else its Modelfile's num_ctx, else the default; undefined when it is not Ollama. */
async function ollamaWindow(root: string, model: string, get: GetJson): Promise<ServerWindow | undefined> {
  if (!record(await get(`${root}/api/version`))) return undefined;
  // Ollama names a model without a tag "<name>:latest".
  const names = new Set([model, model.includes(":") ? model : `${model}:latest`]);
  const ps = record(await get(`${root}/api/ps`));
  const running = (Array.isArray(ps?.models) ? ps.models : [])
    .map(record)
    .find((m) => names.has(String(m?.name)) || names.has(String(m?.model)));
  const loaded = positive(running?.context_length);
  if (loaded) return { tokens: loaded, source: "loaded" };
  const show = record(
    await get(`${root}/api/show`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model }),
    }),
  );
  const numCtx = typeof show?.parameters === "string" ? /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(show.parameters)?.[1] : undefined;
  return numCtx && Number(numCtx) > 0 ? { tokens: Number(numCtx), source: "loaded" } : { tokens: OLLAMA_DEFAULT_WINDOW, source: "default" };
}

/** What one probe of a server found: its window when it tells, and whether it answered at all. */
export interface ServerProbe {
  window: ServerWindow | undefined;
  /**
   * Some request got an HTTP answer: the server is up, so an undefined
   * window means it does not tell (vLLM, OpenRouter), not that it was down.
   */
  answered: boolean;
}

/**
 * Asks an OpenAI-compatible server for the context its model is loaded
 * with: llama.cpp's server, then LM Studio, then Ollama; and whether the
 * server answered at all (a cached answer is replaced only by one from a
 * server that was up).
 */
export async function probeServer(choice: ModelChoice, fetchImpl: typeof fetch = fetch): Promise<ServerProbe> {
  const seen = { answered: false };
  const window = await probeWith(choice, jsonGetter(fetchImpl, seen));
  return { window, answered: seen.answered };
}

async function probeWith(choice: ModelChoice, get: GetJson): Promise<ServerWindow | undefined> {
  if (!providerInfo(choice.provider).serverWindow || !choice.baseUrl) return undefined;
  const root = choice.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
  const llama = await llamaCppWindow(root, get);
  if (llama) return { tokens: llama, source: "loaded" };
  if (!choice.model) return undefined;
  const lms = await lmStudioWindow(root, choice.model, get);
  if (lms) return { tokens: lms, source: "loaded" };
  return ollamaWindow(root, choice.model, get);
}

/**
 * The window an OpenAI-compatible server says its model is loaded with
 * (probeServer's window). Undefined when it does not tell (vLLM,
 * OpenRouter, a server that is down).
 */
export async function probeServerWindow(choice: ModelChoice, fetchImpl: typeof fetch = fetch): Promise<ServerWindow | undefined> {
  return (await probeServer(choice, fetchImpl)).window;
}
