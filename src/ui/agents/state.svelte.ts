/**
 * The agents' reactive state: the gallery's list (the general agent, the site's, the stored ones), the review of an
 * agent from a link (`?agent=<url>`), a drop or a picker before it is used, and what a person does with an agent:
 * use it (a thread with it), remove it, share it (its zip and JSON bundle, its link). Components read it through
 * context (context.ts) and call its methods; the worker validates and stores (protocol/agents.ts AgentLibraryApi).
 *
 * A link's agent already stored with the same content opens without a second review; a changed one (same URL, new
 * hash) is reviewed again. Leaving a review stores nothing and takes `?agent=` out of the address.
 */
import { SvelteSet } from "svelte/reactivity";
import { toErrorInfo } from "../../core/errors.ts";
import type { AgentClient } from "../../page/client.ts";
import { GENERAL_AGENT_ID, type AgentReview, type AgentSummary } from "../../protocol/agents.ts";
import type { AgentError, AgentResult, ErrorInfo } from "../../protocol/errors.ts";
import type { Chat } from "../chat/chat.svelte.ts";
import { saveBlob } from "../files/files.svelte.ts";
import { copyText } from "../shared/clipboard.ts";
import type { Threads } from "../threads/threads.svelte.ts";
import { addAgentServers, mcpChoiceKey, type AgentMcpServer } from "./agent-mcp.ts";
import { AgentEditor } from "./editor.svelte.ts";
import { checkSize, pickFrom, readPick } from "./upload.ts";

/** The address's parameter that names an agent's link. */
const AGENT_PARAM = "agent";

/** Where a reviewed agent comes from. */
export type ReviewSource = { kind: "link"; url: string } | { kind: "upload"; name: string } | { kind: "listed" } | { kind: "imported" };

/** What the review dialog shows: an agent to use, or why it cannot be opened. */
export type ReviewShown = { source: ReviewSource; review: AgentReview } | { source: ReviewSource; error: AgentError | ErrorInfo };

/** The page's address and how to change it (a test passes its own). */
export interface AddressBar {
  get(): URL;
  replace(url: URL): void;
}

const windowAddress: AddressBar = {
  get: () => new URL(location.href),
  replace: (url) => history.replaceState(history.state, "", url),
};

export class AgentsState {
  readonly #client: AgentClient;
  readonly #chat: Chat;
  readonly #threads: Threads;
  readonly #address: AddressBar;
  #list: AgentSummary[] = $state.raw([]);
  #loaded = $state.raw(false);
  /** `start` is done: the address's link (or the default agent) has been dealt with. */
  #started = $state.raw(false);
  #shown: ReviewShown | null = $state.raw(null);
  /** What is being done right now ("Fetching the agent…"), for a status line. */
  #working: string | null = $state.raw(null);
  /** The outcome of the last action (a share, a removal), or its error. */
  #notice: { text: string; error: boolean } | null = $state.raw(null);
  /** The thread an agent was just chosen for (Use, **Use this agent**, a starter prompt), and what to announce. */
  #landed: { threadId: string; text: string; seq: number; focus: boolean } | null = $state.raw(null);
  /** The agent's MCP servers the person ticked on the review shown (by {@link mcpChoiceKey}): added on Use. */
  readonly #mcpChosen = new SvelteSet<string>();
  /** The agent editor (the side panel shows it while an agent is open in it). */
  readonly editor: AgentEditor;

  constructor(client: AgentClient, chat: Chat, threads: Threads, address: AddressBar = windowAddress) {
    this.#client = client;
    this.#chat = chat;
    this.#threads = threads;
    this.#address = address;
    this.editor = new AgentEditor(client, (from, saved) => this.#edited(from, saved));
  }

  /** The general agent first, then the site's, then the stored ones (newest first). */
  get list(): readonly AgentSummary[] {
    return this.#list;
  }
  get loaded(): boolean {
    return this.#loaded;
  }
  /** Nothing is going on: the page's start is over and no call is waiting. */
  get settled(): boolean {
    return this.#started && this.#working === null;
  }
  get shown(): ReviewShown | null {
    return this.#shown;
  }
  get working(): string | null {
    return this.#working;
  }
  /** Is the review's MCP server `name` ticked to be added on Use? */
  mcpChosen(review: AgentReview, name: string): boolean {
    return this.#mcpChosen.has(mcpChoiceKey(review.summary.hash, name));
  }

  /** Ticks or unticks the review's MCP server `name` (nothing is connected until Use). */
  chooseMcp(review: AgentReview, name: string, on: boolean): void {
    const key = mcpChoiceKey(review.summary.hash, name);
    if (on) this.#mcpChosen.add(key);
    else this.#mcpChosen.delete(key);
  }

  get notice(): { text: string; error: boolean } | null {
    return this.#notice;
  }
  /** The shown thread's agent as the gallery lists it; undefined for the general agent (or one no longer listed). */
  get current(): AgentSummary | undefined {
    const id = this.currentId;
    return id === GENERAL_AGENT_ID ? undefined : this.#list.find((a) => a.id === id);
  }
  /**
   * While the shown thread is the empty one an agent was just chosen for: "Now using <name>" for the polite live
   * region, a number that changes with each choice, and whether the landing takes focus when it does (not when the
   * person chose one of the agent's prompts: the message box has it); otherwise null.
   */
  get landed(): { text: string; seq: number; focus: boolean } | null {
    const landed = this.#landed;
    if (!landed || landed.threadId !== this.#chat.threadId || this.#chat.live.messages.length > 0) return null;
    return { text: landed.text, seq: landed.seq, focus: landed.focus };
  }
  /** The shown thread's agent id (the general agent when it has none yet). */
  get currentId(): string {
    return this.#chat.view?.agent?.id ?? GENERAL_AGENT_ID;
  }

  async refresh(): Promise<void> {
    try {
      this.#list = await this.#client.listAgents();
    } catch (error) {
      this.#notice = { text: toErrorInfo(error).message, error: true };
    } finally {
      this.#loaded = true;
    }
  }

  /**
   * On page load: the list, then the agent the address names (`?agent=`), else the site's default agent when the
   * person has no threads yet (the empty thread shown takes it). `shown`: the shown thread's first load (the agent
   * goes to that thread when it is empty).
   */
  async start(shown: Promise<unknown>): Promise<void> {
    try {
      await this.#start(shown);
    } finally {
      this.#started = true;
    }
  }

  async #start(shown: Promise<unknown>): Promise<void> {
    await Promise.all([this.refresh(), shown]);
    const link = this.#address.get().searchParams.get(AGENT_PARAM);
    if (link) return this.openLink(link);
    try {
      const [chosen, threads] = await Promise.all([this.#client.defaultAgent(), this.#client.listThreads()]);
      if (chosen && threads.length === 0 && this.#chatIsEmpty() && this.currentId !== chosen)
        await this.#setAgent(this.#chat.threadId, chosen, { land: false });
    } catch (error) {
      this.#notice = { text: toErrorInfo(error).message, error: true };
    }
  }

  /** Fetches and validates a link's agent: its review, or straight to it when this exact agent is already stored. */
  async openLink(url: string): Promise<void> {
    const source: ReviewSource = { kind: "link", url };
    const result = await this.#busy("Fetching the agent…", () => this.#client.previewAgentUrl(url));
    if (!result) return;
    if (!result.ok) {
      this.#shown = { source, error: result.error };
      return;
    }
    const review = result.value;
    if (review.stored && !review.changedFrom) {
      // Used before with this very content: no second review. A thread already on it stays where it is.
      if (this.currentId === review.summary.id) return;
      await this.#use(review.summary.hash);
      return;
    }
    this.#shown = { source, review };
  }

  /** Validates a dropped or picked agent (files with their paths; see upload.ts) and shows its review. */
  async openUpload(files: ReadonlyArray<{ path: string; file: File }>, folderPicked: boolean): Promise<void> {
    const name = folderPicked ? (files[0]?.path.split("/")[0] ?? "folder") : (files[0]?.file.name ?? "upload");
    const source: ReviewSource = { kind: "upload", name };
    const pick = pickFrom(files, folderPicked);
    const checked = pick.ok ? checkSize(pick.value) : pick;
    if (!checked.ok) {
      this.#shown = { source, error: checked.error };
      return;
    }
    const result = await this.#busy("Checking the agent…", async () => this.#client.previewAgentUpload(await readPick(checked.value)));
    if (!result) return;
    this.#shown = result.ok ? { source, review: result.value } : { source, error: result.error };
  }

  /** The review of a listed agent (its "About"). */
  async about(agentId: string): Promise<void> {
    const result = await this.#busy("Opening the agent…", () => this.#client.reviewAgent(agentId));
    if (!result) return;
    this.#shown = result.ok ? { source: { kind: "listed" }, review: result.value } : { source: { kind: "listed" }, error: result.error };
  }

  /** The review of the agent an imported thread brought (the thread does not run until the person uses it). */
  async reviewImported(agentId: string): Promise<void> {
    const result = await this.#busy("Opening the agent…", () => this.#client.reviewAgent(agentId));
    if (!result) return;
    this.#shown = result.ok
      ? { source: { kind: "imported" }, review: result.value }
      : { source: { kind: "imported" }, error: result.error };
  }

  /**
   * **Use this agent**: stores the reviewed agent (pinned by the hash shown) and opens a thread with it; an imported
   * thread's agent is kept for that thread, which stays shown.
   */
  async accept(): Promise<void> {
    const shown = this.#shown;
    if (!shown || !("review" in shown)) return;
    const servers = shown.review.mcpServers.filter((s) => this.mcpChosen(shown.review, s.name));
    this.#mcpChosen.clear();
    if (await this.#accept(shown)) await this.#addServers(servers);
  }

  /** Stores and opens the reviewed agent; true when it is in use. */
  async #accept(shown: Extract<ReviewShown, { review: AgentReview }>): Promise<boolean> {
    if (shown.source.kind === "imported") {
      const used = await this.#busy("Storing the agent…", () => this.#client.useAgent(shown.review.summary.hash ?? ""));
      if (!used) return false;
      if (!used.ok) {
        this.#shown = { source: shown.source, error: used.error };
        return false;
      }
      this.#shown = null;
      await Promise.all([this.refresh(), this.#chat.reload()]);
      return true;
    }
    if (shown.source.kind === "listed") {
      this.#shown = null;
      return this.startWith(shown.review.summary.id);
    }
    if (!(await this.#use(shown.review.summary.hash))) return false;
    this.#shown = null;
    return true;
  }

  /** Adds the ticked MCP servers of an agent now in use; the notice says what happened to each. */
  async #addServers(servers: readonly AgentMcpServer[]): Promise<void> {
    if (!servers.length) return;
    this.#working = `Adding ${servers.length === 1 ? "its MCP server" : "its MCP servers"}…`;
    try {
      this.#notice = await addAgentServers(await this.#client.mcpServers(), servers);
    } catch (error) {
      this.#notice = { text: toErrorInfo(error).message, error: true };
    } finally {
      this.#working = null;
    }
  }

  /** Closes the review; nothing is stored, and a link's `?agent=` leaves the address (a reload does not ask again). */
  leave(): void {
    const shown = this.#shown;
    this.#shown = null;
    this.#mcpChosen.clear();
    if (shown?.source.kind !== "link") return;
    const url = this.#address.get();
    url.searchParams.delete(AGENT_PARAM);
    this.#address.replace(url);
  }

  /**
   * Shows a thread with the agent: the shown thread when it has no messages yet (its agent is not fixed), else a new
   * one. Resolves false when the worker refused (the notice says why). `focus: false`: the landing is announced but
   * leaves focus alone (a starter prompt goes into the message box, which takes it).
   */
  async startWith(agentId: string, { focus = true }: { focus?: boolean } = {}): Promise<boolean> {
    if (this.#chat.running) return false;
    if (this.#chatIsEmpty()) {
      if (this.currentId !== agentId) return this.#setAgent(this.#chat.threadId, agentId, { focus });
      this.#land(agentId, focus);
      return true;
    }
    await this.#threads.create();
    return this.#setAgent(this.#chat.threadId, agentId, { focus });
  }

  /** The shown thread is the one the person just chose `agentId` for: the page says so (and moves to it). */
  #land(agentId: string, focus: boolean): void {
    const name = this.#chat.view?.agent?.name ?? this.#list.find((a) => a.id === agentId)?.name ?? "the agent";
    this.#landed = { threadId: this.#chat.threadId, text: `Now using ${name}`, seq: (this.#landed?.seq ?? 0) + 1, focus };
  }

  /** Opens an agent's folder in the editor (the notice says why when it cannot). */
  async edit(agentId: string): Promise<void> {
    this.#notice = null;
    const opened = await this.editor.edit(agentId);
    if (!opened.ok) this.#notice = { text: opened.error.message, error: true };
  }

  /**
   * A saved edit: the list shows the new version, and the shown thread takes it while it has no messages (the person
   * tries what they edit); a thread that ran keeps the version it ran with.
   */
  async #edited(_from: string, saved: AgentSummary): Promise<void> {
    await this.refresh();
    if (this.#chat.running || this.#chat.live.messages.length > 0) return;
    // The worker decides (the page's copy may be reloading): a thread with messages refuses, and keeps its version.
    const result = await this.#busy("Opening the agent…", () => this.#client.setThreadAgent(this.#chat.threadId, saved.id));
    if (result?.ok) await this.#chat.reload();
    else if (result && result.error.code !== "thread_started") this.#notice = { text: result.error.message, error: true };
  }

  /** Forgets a stored agent (refused while a thread uses it). */
  async remove(agentId: string): Promise<void> {
    const name = this.#list.find((a) => a.id === agentId)?.name ?? "The agent";
    const result = await this.#busy("Removing the agent…", () => this.#client.removeAgent(agentId));
    if (!result) return;
    if (!result.ok) {
      this.#notice = { text: result.error.message, error: true };
      return;
    }
    this.#notice = { text: `${name} was removed from this browser.`, error: false };
    await this.refresh();
  }

  /** Downloads the agent as a zip and as a JSON bundle, and copies its link when it came from one. */
  async share(agentId: string): Promise<void> {
    const result = await this.#busy("Preparing the agent's files…", () => this.#client.exportAgent(agentId));
    if (!result) return;
    if (!result.ok) {
      this.#notice = { text: result.error.message, error: true };
      return;
    }
    const { slug, zip, bundle, url } = result.value;
    saveBlob(new Blob([zip as Uint8Array<ArrayBuffer>], { type: "application/zip" }), `${slug}.zip`);
    saveBlob(new Blob([bundle], { type: "application/json" }), `${slug}.json`);
    const copied = url ? await copyText(this.linkOf(url)) : false;
    const files = `Downloaded ${slug}.zip and ${slug}.json.`;
    this.#notice = {
      text: url
        ? copied
          ? `${files} The link to open it was copied.`
          : `${files} Copy the link: ${this.linkOf(url)}`
        : `${files} ${this.linkHowTo()}`,
      error: false,
    };
  }

  /** How a downloaded agent becomes a link (docs/agent-folders.md): where the zip goes, and the address that opens it. */
  linkHowTo(): string {
    const page = this.#address.get();
    const link = `${page.origin}${page.pathname}?${AGENT_PARAM}=`;
    return `To share it as a link, put the zip on a web host that allows this site (CORS) and send ${link} followed by the zip's address.`;
  }

  /** The address of this page that opens the agent at `url` (what "Share agent" copies). */
  linkOf(url: string): string {
    const page = this.#address.get();
    return `${page.origin}${page.pathname}?${AGENT_PARAM}=${encodeURIComponent(url)}`;
  }

  dismissNotice(): void {
    this.#notice = null;
  }

  #chatIsEmpty(): boolean {
    return !this.#chat.running && !this.#chat.loading && this.#chat.live.messages.length === 0;
  }

  async #use(hash: string | undefined): Promise<boolean> {
    if (!hash) return false;
    const used = await this.#busy("Storing the agent…", () => this.#client.useAgent(hash));
    if (!used) return false;
    if (!used.ok) {
      this.#shown = { source: this.#shown?.source ?? { kind: "listed" }, error: used.error };
      return false;
    }
    await this.refresh();
    return this.startWith(used.value.id);
  }

  /**
   * Gives the thread its agent; `land`: the person chose it (not the site's default at the start), so say so, and
   * (`focus`) move to it.
   */
  async #setAgent(
    threadId: string,
    agentId: string,
    { land = true, focus = true }: { land?: boolean; focus?: boolean } = {},
  ): Promise<boolean> {
    const result = await this.#busy("Opening the agent…", () => this.#client.setThreadAgent(threadId, agentId));
    if (!result) return false;
    if (!result.ok) {
      this.#notice = { text: result.error.message, error: true };
      return false;
    }
    await this.#chat.reload();
    if (land) this.#land(agentId, focus);
    return true;
  }

  /** Runs a worker call with a status line; a thrown failure (the worker died) becomes the notice, and undefined. */
  async #busy<T>(what: string, call: () => Promise<AgentResult<T>>): Promise<AgentResult<T> | undefined> {
    this.#working = what;
    this.#notice = null;
    try {
      return await call();
    } catch (error) {
      this.#notice = { text: toErrorInfo(error).message, error: true };
      return undefined;
    } finally {
      this.#working = null;
    }
  }
}
