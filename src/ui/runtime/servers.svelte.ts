/** Servers the agent started in WebContainer (`server-ready`), for the preview pane. */
export interface ServerEntry {
  port: number;
  url: string;
}

export class Servers {
  #list: ServerEntry[] = $state.raw([]);

  get list(): readonly ServerEntry[] {
    return this.#list;
  }

  /** A server is ready (a port already listed gets its new URL). */
  add(server: ServerEntry): void {
    this.#list = [...this.#list.filter((s) => s.port !== server.port), { port: server.port, url: server.url }].sort(
      (a, b) => a.port - b.port,
    );
  }
}
