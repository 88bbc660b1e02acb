/**
 * What the scripted OpenAI server (provider-servers.ts) also answers when it
 * plays a local server, in each server's own response shape, so the app's
 * window probe (models/server-window.ts) meets what it meets for real:
 *
 *   llama.cpp's server  GET /props        default_generation_settings.n_ctx (one slot's context)
 *                       GET /v1/models    data[].meta.n_ctx_train (the trained maximum)
 *   LM Studio           GET /api/v0/models, /api/v0/models/<id>
 *                                         state, max_context_length, loaded_context_length when loaded
 *   Ollama              GET /api/version, GET /api/ps (models[].context_length of running models,
 *                       absent before Ollama 0.11), POST /api/show (parameters with num_ctx when the
 *                       Modelfile sets it; model_info["<arch>.context_length"], the family maximum)
 *   vLLM                GET /v1/models    data[].max_model_len (the context it serves, `--max-model-len`)
 *   OpenRouter          GET /api/v1/models (also /v1/models)
 *                                         data[].context_length, data[].top_provider.context_length
 *
 * Routes of the other servers answer 404, as the real servers do.
 */

export interface LlamaCppServer {
  kind: "llama.cpp";
  /** The model path the server reports (its id in /v1/models). */
  model: string;
  /** The context of one slot: `--ctx-size` divided by `--parallel`. */
  nCtx: number;
  /** The model's trained context (`n_ctx_train`): a family maximum, not what is loaded. */
  nCtxTrain: number;
}

export interface LmStudioModel {
  id: string;
  arch: string;
  /** The model's maximum context (its family's). */
  maxContextLength: number;
  /** The context it is loaded with; undefined: not loaded. */
  loadedContextLength?: number;
}

export interface LmStudioServer {
  kind: "lmstudio";
  models: LmStudioModel[];
}

export interface OllamaModel {
  /** `qwen2.5:0.5b`, `llama3.2:latest`, … */
  name: string;
  /** `general.architecture` (qwen2, llama, …). */
  arch: string;
  /** `model_info["<arch>.context_length"]`: the family maximum. */
  familyContextLength: number;
  /** `PARAMETER num_ctx` of its Modelfile, if any. */
  numCtx?: number;
  /** Running with this context (/api/ps); undefined: not loaded. */
  runningContextLength?: number;
}

export interface OllamaServer {
  kind: "ollama";
  /** e.g. "0.12.6"; servers before 0.11 leave context_length out of /api/ps (`psContextLength: false`). */
  version: string;
  psContextLength?: boolean;
  models: OllamaModel[];
}

export interface VllmServer {
  kind: "vllm";
  /** The served model name (its id in /v1/models). */
  model: string;
  /** `max_model_len`: the context vLLM serves it with. */
  maxModelLen: number;
}

export interface OpenRouterModel {
  /** `meta-llama/llama-3.3-70b-instruct`, … */
  id: string;
  /** `context_length`: the model's window. */
  contextLength: number;
  /** `top_provider.context_length`: the window of the provider it is routed to first (null when unknown). */
  topProviderContextLength: number | null;
}

export interface OpenRouterServer {
  kind: "openrouter";
  models: OpenRouterModel[];
}

/** The local server (or hosted service) the OpenAI dialect plays, if any. */
export type LocalServer = LlamaCppServer | LmStudioServer | OllamaServer | VllmServer | OpenRouterServer;

export interface LocalReply {
  status: number;
  body: unknown;
}

const json = (body: unknown, status = 200): LocalReply => ({ status, body });

function llamaCpp(server: LlamaCppServer, method: string, path: string): LocalReply | undefined {
  if (method === "GET" && path === "/props") {
    return json({
      default_generation_settings: {
        id: 0,
        id_task: -1,
        n_ctx: server.nCtx,
        speculative: false,
        is_processing: false,
        params: { n_predict: -1, seed: 4294967295, temperature: 0.8, top_k: 40, top_p: 0.95, min_p: 0.05, samplers: ["top_k", "top_p"] },
        prompt: "",
        next_token: { has_next_token: true, has_new_line: false, n_remain: -1, n_decoded: 0 },
      },
      total_slots: 1,
      model_path: server.model,
      chat_template: "{{ messages }}",
      chat_template_caps: { supports_tools: true },
      modalities: { vision: false, audio: false },
      build_info: "b6500-scripted",
      is_sleeping: false,
    });
  }
  if (method === "GET" && (path === "/v1/models" || path === "/models")) {
    return json({
      object: "list",
      data: [
        {
          id: server.model,
          object: "model",
          created: 1_735_142_223,
          owned_by: "llamacpp",
          meta: { vocab_type: 2, n_vocab: 151_936, n_ctx_train: server.nCtxTrain, n_embd: 896, n_params: 494_032_768, size: 491_400_032 },
        },
      ],
    });
  }
  return undefined;
}

function lmStudioModel(m: LmStudioModel): Record<string, unknown> {
  return {
    id: m.id,
    object: "model",
    type: "llm",
    publisher: "lmstudio-community",
    arch: m.arch,
    compatibility_type: "gguf",
    quantization: "Q4_K_M",
    state: m.loadedContextLength === undefined ? "not-loaded" : "loaded",
    max_context_length: m.maxContextLength,
    ...(m.loadedContextLength === undefined ? {} : { loaded_context_length: m.loadedContextLength }),
  };
}

function lmStudio(server: LmStudioServer, method: string, path: string): LocalReply | undefined {
  if (method !== "GET") return undefined;
  if (path === "/api/v0/models") return json({ object: "list", data: server.models.map(lmStudioModel) });
  const one = /^\/api\/v0\/models\/(.+)$/.exec(path);
  if (!one) return undefined;
  const id = decodeURIComponent(one[1]!);
  const model = server.models.find((m) => m.id === id);
  return model ? json(lmStudioModel(model)) : json({ error: `Model "${id}" not found` }, 404);
}

const DETAILS = {
  parent_model: "",
  format: "gguf",
  family: "",
  families: [] as string[],
  parameter_size: "494.03M",
  quantization_level: "Q4_K_M",
};

function ollama(server: OllamaServer, method: string, path: string, body: Record<string, unknown>): LocalReply | undefined {
  if (method === "GET" && path === "/api/version") return json({ version: server.version });
  if (method === "GET" && path === "/api/ps") {
    const running = server.models.filter((m) => m.runningContextLength !== undefined);
    return json({
      models: running.map((m) => ({
        name: m.name,
        model: m.name,
        size: 492_523_008,
        digest: "a8b0c51577010a279d933d14c2a8ab4b268079d44c5c8830c0a93900f1827c67",
        details: { ...DETAILS, family: m.arch, families: [m.arch] },
        expires_at: "2030-01-01T00:05:00.000000000Z",
        size_vram: 0,
        ...(server.psContextLength === false ? {} : { context_length: m.runningContextLength }),
      })),
    });
  }
  if (method === "POST" && path === "/api/show") {
    const name = typeof body.model === "string" ? body.model : typeof body.name === "string" ? body.name : "";
    const model = server.models.find((m) => m.name === name || m.name === `${name}:latest`);
    if (!model) return json({ error: `model '${name}' not found` }, 404);
    const parameters = [
      ...(model.numCtx === undefined ? [] : [`num_ctx${" ".repeat(24)}${model.numCtx}`]),
      `stop${" ".repeat(27)}"<|im_end|>"`,
    ].join("\n");
    return json({
      license: "Apache License 2.0",
      modelfile: `FROM /models/blobs/sha256-a8b0\n${model.numCtx === undefined ? "" : `PARAMETER num_ctx ${model.numCtx}\n`}`,
      parameters,
      template: "{{ .Prompt }}",
      details: { ...DETAILS, family: model.arch, families: [model.arch] },
      model_info: {
        "general.architecture": model.arch,
        "general.parameter_count": 494_032_768,
        [`${model.arch}.context_length`]: model.familyContextLength,
        [`${model.arch}.embedding_length`]: 896,
      },
      capabilities: ["completion", "tools"],
      modified_at: "2025-01-01T00:00:00.000000000Z",
    });
  }
  return undefined;
}

function vllm(server: VllmServer, method: string, path: string): LocalReply | undefined {
  if (method !== "GET" || (path !== "/v1/models" && path !== "/models")) return undefined;
  return json({
    object: "list",
    data: [
      {
        id: server.model,
        object: "model",
        created: 1_760_000_000,
        owned_by: "vllm",
        root: server.model,
        parent: null,
        max_model_len: server.maxModelLen,
        permission: [{ id: "modelperm-1", object: "model_permission", allow_sampling: true, allow_view: true, is_blocking: false }],
      },
    ],
  });
}

function openRouter(server: OpenRouterServer, method: string, path: string): LocalReply | undefined {
  if (method !== "GET" || (path !== "/api/v1/models" && path !== "/v1/models")) return undefined;
  return json({
    data: server.models.map((m) => ({
      id: m.id,
      canonical_slug: m.id,
      name: m.id,
      created: 1_733_506_137,
      description: "A model routed by OpenRouter.",
      context_length: m.contextLength,
      architecture: { modality: "text->text", input_modalities: ["text"], output_modalities: ["text"], tokenizer: "Llama3" },
      pricing: { prompt: "0.00000013", completion: "0.0000004", request: "0", image: "0" },
      top_provider: { context_length: m.topProviderContextLength, max_completion_tokens: 16_384, is_moderated: false },
      per_request_limits: null,
      supported_parameters: ["max_tokens", "temperature", "tools", "tool_choice"],
    })),
  });
}

/** The reply of the local server to a request, or undefined when the route is not one of its own. */
export function localServerReply(server: LocalServer, method: string, path: string, body: Record<string, unknown>): LocalReply | undefined {
  switch (server.kind) {
    case "llama.cpp":
      return llamaCpp(server, method, path);
    case "lmstudio":
      return lmStudio(server, method, path);
    case "ollama":
      return ollama(server, method, path, body);
    case "vllm":
      return vllm(server, method, path);
    case "openrouter":
      return openRouter(server, method, path);
  }
}
