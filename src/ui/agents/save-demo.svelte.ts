/**
 * The Save as demo dialog's state: what a demo of the shown thread keeps (demo-preview.ts), the title (the first
 * prompt unless the person writes one) and who recorded it (shown to visitors), the worker's answer to `saveDemo`
 * (a refusal: `not_recorded`, `thread_busy`, `invalid_agent` with its problems; or the new version of the agent with
 * the demo's file), and sharing that version. The worker records and stores; nothing here touches the DOM.
 */
import { toErrorInfo } from "../../core/errors.ts";
import type { AgentClient } from "../../page/client.ts";
import type { AgentSummary } from "../../protocol/agents.ts";
import type { AgentError, ErrorInfo } from "../../protocol/errors.ts";
import type { MessageInfo } from "../../protocol/messages.ts";
import { demoPreview, type DemoPreview } from "./demo-preview.ts";

/** What the dialog needs of the page: the shown thread, the worker, and the agents' list and Share. */
export interface SaveDemoHost {
  readonly client: Pick<AgentClient, "saveDemo">;
  readonly threadId: string;
  readonly messages: readonly MessageInfo[];
  readonly running: boolean;
  /** The shown thread's agent's name. */
  readonly agentName: string;
  /** The list shows the new version. */
  refresh(): Promise<void>;
  /** Share (the zip and the JSON bundle) of an agent. */
  share(agentId: string): Promise<void>;
}

export class SaveDemo {
  readonly #host: SaveDemoHost;
  open = $state(false);
  title = $state("");
  /** Kept from one save to the next while the page lives (the same person records them). */
  recordedBy = $state("");
  saving = $state(false);
  error: AgentError | ErrorInfo | null = $state.raw(null);
  /** The new version of the agent and the demo's file in it, once saved. */
  saved: { agent: AgentSummary; file: string } | null = $state.raw(null);
  /** What the demo keeps, read when the dialog opened. */
  preview: DemoPreview = $state.raw({ prompts: [], replies: 0, tools: [] });
  agentName = $state("");

  constructor(host: SaveDemoHost) {
    this.#host = host;
  }

  get running(): boolean {
    return this.#host.running;
  }

  /** Opens the dialog on the shown thread: its title is its first prompt until the person changes it. */
  show(): void {
    this.preview = demoPreview(this.#host.messages);
    this.title = this.preview.prompts[0] ?? "";
    this.agentName = this.#host.agentName;
    this.error = null;
    this.saved = null;
    this.open = true;
  }

  close(): void {
    this.open = false;
  }

  /** Asks the worker to save the thread as a demo; true when a new version holds it. */
  async save(): Promise<boolean> {
    if (this.saving) return false;
    this.saving = true;
    this.error = null;
    const title = this.title.trim();
    const recordedBy = this.recordedBy.trim();
    try {
      const result = await this.#host.client.saveDemo(this.#host.threadId, {
        ...(title ? { title } : {}),
        ...(recordedBy ? { recordedBy } : {}),
      });
      if (!result.ok) {
        this.error = result.error;
        return false;
      }
      this.saved = result.value;
      await this.#host.refresh();
      return true;
    } catch (error) {
      this.error = toErrorInfo(error);
      return false;
    } finally {
      this.saving = false;
    }
  }

  /** Share of the new version: its zip (which carries the demo) and its JSON bundle. */
  async share(): Promise<void> {
    if (this.saved) await this.#host.share(this.saved.agent.id);
  }
}

/** What {@link saveDemoFor} reads of the page's chat: its worker, the shown thread, its messages, its agent. */
export interface SaveDemoChat {
  readonly client: Pick<AgentClient, "saveDemo">;
  readonly threadId: string;
  readonly live: { readonly messages: readonly MessageInfo[] };
  readonly running: boolean;
  readonly view: { readonly agent: { readonly name: string } } | null;
}

/**
 * The dialog's state over the page's chat and agents list (the app's wiring, shared with the tests). `client` stands
 * in for the chat's own worker where a test answers `saveDemo` itself.
 */
export function saveDemoFor(
  chat: SaveDemoChat,
  agents: Pick<SaveDemoHost, "refresh" | "share">,
  client: SaveDemoHost["client"] = chat.client,
): SaveDemo {
  return new SaveDemo({
    client,
    get threadId() {
      return chat.threadId;
    },
    get messages() {
      return chat.live.messages;
    },
    get running() {
      return chat.running;
    },
    get agentName() {
      return chat.view?.agent.name ?? "the agent";
    },
    refresh: () => agents.refresh(),
    share: (agentId) => agents.share(agentId),
  });
}
