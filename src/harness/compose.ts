import type { AgentMiddleware, ModelHandler, ToolHandler } from "./types.ts";

/** Builds the model-call chain: the first middleware is outermost. */
export function composeModelCall(middleware: readonly AgentMiddleware[], inner: ModelHandler): ModelHandler {
  let handler = inner;
  for (let i = middleware.length - 1; i >= 0; i--) {
    const mw = middleware[i]!;
    if (!mw.wrapModelCall) continue;
    const next = handler;
    handler = (request) => mw.wrapModelCall!(request, next);
  }
  return handler;
}

/** Builds the tool-call chain: the first middleware is outermost. */
export function composeToolCall(middleware: readonly AgentMiddleware[], inner: ToolHandler): ToolHandler {
  let handler = inner;
  for (let i = middleware.length - 1; i >= 0; i--) {
    const mw = middleware[i]!;
    if (!mw.wrapToolCall) continue;
    const next = handler;
    handler = (request) => mw.wrapToolCall!(request, next);
  }
  return handler;
}
