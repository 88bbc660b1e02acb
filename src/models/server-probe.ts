/**
 * Asking an OpenAI-compatible server what context its model is served with (server-window.ts has the rule that uses
 * the answer), in this order:
 *
 * - the OpenAI route every such server has, `<base URL>/models` (with the key when one is set for that origin):
 *   vLLM's `max_model_len` (its `--max-model-len`: what it serves) and OpenRouter's `context_length`, lowered to
 *   `top_provider.context_length` when that is smaller (the provider it routes to first), for the entry of the model;
 * - llama.cpp's `/props` (`default_generation_settings.n_ctx`, the context of one slot);
 * - LM Studio's `/api/v0/models/<id>` (`loaded_context_length` of a loaded model);
 * - Ollama's `/api/ps` (`context_length` of the running model), else the `num_ctx` its Modelfile sets (`/api/show`),
 *   else Ollama's default; never above `model_info["<arch>.context_length"]` (Ollama caps its runtime context at it).
 *
 * Never a family maximum as the window itself: not llama.cpp's `n_ctx_train`, LM Studio's `max_context_length` of a
 * model it has not loaded (it loads it with its own context setting) or Ollama's `model_info` context, because a
 * local server cuts a longer prompt silently at the context it runs with. Loaded when a server is first asked, not
 * with the worker.
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
  // The family maximum only caps: Ollama runs a model with num_ctx (or its default), never beyond what it was trained for.
  const info = record(show?.model_info);
  const family = positive(info?.[`${String(info?.["general.architecture"])}.context_length`]);
  const cap = (tokens: number) => (family ? Math.min(tokens, family) : tokens);
  return numCtx && Number(numCtx) > 0
    ? { tokens: cap(Number(numCtx)), source: "loaded" }
    : { tokens: cap(OLLAMA_DEFAULT_WINDOW), source: "default" };
}

/**
 * The window `<base URL>/models` gives for the model: vLLM's `max_model_len`, OpenRouter's `context_length` (lowered
 * to `top_provider.context_length` when smaller). llama.cpp, LM Studio and Ollama list ids only there (llama.cpp's
 * `meta.n_ctx_train` is the trained maximum, not used).
 */
async function listedWindow(base: string, model: string, get: GetJson, key: string | undefined): Promise<number | undefined> {
  const listed = record(await get(`${base}/models`, key ? { headers: { authorization: `Bearer ${key}` } } : {}));
  const entry = (Array.isArray(listed?.data) ? listed.data : []).map(record).find((m) => m?.id === model);
  if (!entry) return undefined;
  const served = positive(entry.max_model_len);
  if (served) return served;
  const whole = positive(entry.context_length);
  const routed = positive(record(entry.top_provider)?.context_length);
  return whole && routed ? Math.min(whole, routed) : (whole ?? routed);
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
 * Asks an OpenAI-compatible server for the context its model is served
 * with: its model list (vLLM, OpenRouter), then llama.cpp's server, LM
 * Studio and Ollama; and whether the server answered at all (a cached
 * answer is replaced only by one from a server that was up). `key` (the
 * one set for this server's origin, if any) goes with the model list only,
 * as it does when Settings lists the models.
 */
export async function probeServer(choice: ModelChoice, fetchImpl: typeof fetch = fetch, key?: string): Promise<ServerProbe> {
  const seen = { answered: false };
  const window = await probeWith(choice, jsonGetter(fetchImpl, seen), key);
  return { window, answered: seen.answered };
}

async function probeWith(choice: ModelChoice, get: GetJson, key: string | undefined): Promise<ServerWindow | undefined> {
  if (!providerInfo(choice.provider).serverWindow || !choice.baseUrl) return undefined;
  const base = choice.baseUrl.replace(/\/+$/, "");
  const root = base.replace(/\/v1$/, "");
  const listed = choice.model ? await listedWindow(base, choice.model, get, key) : undefined;
  if (listed) return { tokens: listed, source: "loaded" };
  const llama = await llamaCppWindow(root, get);
  if (llama) return { tokens: llama, source: "loaded" };
  if (!choice.model) return undefined;
  const lms = await lmStudioWindow(root, choice.model, get);
  if (lms) return { tokens: lms, source: "loaded" };
  return ollamaWindow(root, choice.model, get);
}

/**
 * The window an OpenAI-compatible server says its model is served with
 * (probeServer's window). Undefined when it does not tell (a server
 * without any of these routes, or one that is down).
 */
export async function probeServerWindow(
  choice: ModelChoice,
  fetchImpl: typeof fetch = fetch,
  key?: string,
): Promise<ServerWindow | undefined> {
  return (await probeServer(choice, fetchImpl, key)).window;
}
