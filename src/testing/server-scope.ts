/**
 * A scope of a loopback provider server (provider-servers.ts) driven over its
 * HTTP control API, from wherever the test runs (Chromium included, where the
 * server object itself is out of reach): its own reply queue, config and
 * request log.
 */
import type { RecordedRequest, ServerConfig, ServerReply } from "./provider-servers.ts";

export interface ServerScope {
  /** The OpenAI-dialect base URL a client takes (`…/s/<scope>/v1`). */
  baseUrl: string;
  /** The scope's root (`…/s/<scope>`): the base URL an Anthropic client takes. */
  root: string;
  script(replies: ServerReply[]): Promise<void>;
  configure(config: Partial<ServerConfig>): Promise<void>;
  requests(): Promise<RecordedRequest[]>;
}

/** A fresh scope of the server (OpenAI or Anthropic dialect) at `serverUrl` (`http://127.0.0.1:<port>`). */
export function serverScope(serverUrl: string, scope = `s${crypto.randomUUID().replaceAll("-", "")}`): ServerScope {
  const root = `${serverUrl}/s/${scope}`;
  const control = async (route: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${root}/__control/${route}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${root}/__control/${route}: HTTP ${res.status} ${await res.text()}`);
    return res.json();
  };
  return {
    baseUrl: `${root}/v1`,
    root,
    script: async (replies) => void (await control("script", { replies })),
    configure: async (config) => void (await control("config", config)),
    requests: async () => (await control("requests")) as RecordedRequest[],
  };
}
