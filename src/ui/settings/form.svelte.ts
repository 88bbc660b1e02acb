/**
 * The settings dialog's state: what the fields hold, what follows from them
 * (the provider's row, problems, the choice, the provider's model list) and
 * what the dialog does (fill on open, save, forget a key, forget
 * everything). Created by the dialog during its setup, so its effects live
 * as long as the dialog: on open it reloads the settings and fills the form
 * once they are known; while open it looks up the model's default window
 * (debounced: the base URL and model are typed) and the provider's model
 * list (once per provider and base URL).
 *
 * The key leaves this class on Save: it goes to the worker and the field is
 * emptied; nothing here keeps it.
 */
import { tick, untrack } from "svelte";
import { providerInfo, wllamaSupport } from "../../protocol/catalog.ts";
import {
  PYTHON_PACKAGES_CDN,
  type ModelChoice,
  type ProviderId,
  type SandboxChoice,
  type ToolProfileChoice,
} from "../../protocol/settings.ts";
import type { Chat } from "../chat/chat.svelte.ts";
import type { RuntimeState } from "../runtime/runtime.svelte.ts";
import type { SettingsState } from "./settings.svelte.ts";
import { checkContextWindow, checkPackageSource } from "./checks.ts";
import { fillSettings, readSettings } from "./setting-controls.ts";
import {
  baseUrlError,
  canList,
  choiceOf,
  endpointOf,
  fieldsOf,
  modelError,
  onlyListed,
  providerOptions,
  suggestionsOf,
  switchProvider,
  withWebSearch,
  type HarnessProfileChoice,
  type ModelFields,
} from "./model-form.ts";

/** Debounces of the typed fields' lookups. */
const WINDOW_DELAY_MS = 300;
const LIST_DELAY_MS = 400;

/** The dialog's props, as getters (they are read inside effects and deriveds, so they stay current). */
export interface SettingsFormProps {
  open: () => boolean;
  settings: () => SettingsState;
  /** The shown thread: the form starts from its model, and Save switches it. */
  chat: () => Chat;
  /** The field to focus when it opens: "key" when a run asked for the key; otherwise the provider. */
  focus?: () => "key" | undefined;
  /** Settings → Runtime, which Forget everything also forgets (the server key, URL and choice); none in the tab only. */
  runtime?: () => RuntimeState | undefined;
}

export class SettingsForm {
  readonly #props: SettingsFormProps;

  provider: ProviderId = $state("demo");
  baseUrl = $state("");
  model = $state("");
  /** The key being typed; emptied on Save and on every provider switch. */
  key = $state("");
  remember = $state(false);
  windowText = $state("");
  /** The user typed a window (or the thread had one): a new default no longer replaces it. */
  windowEdited = $state(false);
  /** The model's own window, when the worker knows it. */
  defaultWindow: number | undefined = $state(undefined);
  sandbox: SandboxChoice = $state("shell");
  approveExecute = $state(true);
  approveWrites = $state(false);
  /** Python packages switched on, and from where (Pyodide's CDN unless the person types another source). */
  pythonPackages = $state(false);
  packageSource = $state(PYTHON_PACKAGES_CDN);
  toolProfile: ToolProfileChoice = $state("auto");
  harnessProfile: HarnessProfileChoice = $state("auto");
  /** The thread's "Web search" switch (kept only where the provider has a search of its own). */
  webSearch = $state(false);
  saving = $state(false);
  notice = $state("");
  failure = $state("");
  confirmForget = $state(false);
  logOpen = $state(false);
  /** The form element (bound by the dialog): the fill puts the focus in it. */
  element: HTMLFormElement | undefined = $state();

  /** Whether this opening has filled the form (not reactive: a later load, e.g. the app's own, must not refill it). */
  #filled = false;

  readonly fields: ModelFields = $derived({
    provider: this.provider,
    baseUrl: this.baseUrl,
    model: this.model,
    windowText: this.windowText,
  });
  readonly info = $derived(providerInfo(this.provider));
  /** Until the settings are known the form is disabled, so nothing the user chose is overwritten by the fill. */
  readonly ready = $derived(this.settings.settings !== null);
  readonly keyStatus = $derived(this.settings.keyStatus(this.provider));
  readonly baseUrlError = $derived(baseUrlError(this.info, this.baseUrl));
  readonly windowError = $derived(checkContextWindow(this.windowText));
  readonly modelError = $derived(modelError(this.info, this.model));
  readonly packageSourceError = $derived(this.pythonPackages ? checkPackageSource(this.packageSource) : null);
  readonly invalid = $derived(Boolean(this.baseUrlError || this.windowError || this.modelError || this.packageSourceError));
  /** The choice the fields describe. */
  readonly choice: ModelChoice = $derived(withWebSearch(choiceOf(this.fields, this.defaultWindow), this.webSearch));
  /** The provider's model list, when it was asked for (never for models in the tab). */
  readonly listed = $derived(this.info.runsIn === "tab" ? undefined : this.settings.providerModels(this.choice));
  readonly suggestions = $derived(suggestionsOf(this.info, this.listed));
  readonly localModels = $derived(this.settings.models.filter((m) => m.complete));
  readonly options = $derived(
    providerOptions(this.provider, { promptApi: typeof window !== "undefined" && "LanguageModel" in window, tab: wllamaSupport() }),
  );

  constructor(props: SettingsFormProps) {
    this.#props = props;

    // On open: refresh from the worker; the form is filled once per opening, as soon as the settings are known.
    let wasOpen = false;
    $effect(() => {
      const isOpen = this.#open();
      if (isOpen && !wasOpen) {
        untrack(() => {
          this.notice = "";
          this.#filled = false;
          void this.settings.load();
          if (this.logOpen) void this.settings.refreshLog();
        });
      }
      wasOpen = isOpen;
    });
    $effect(() => {
      if (!this.#open() || !this.ready || this.#filled) return;
      this.#filled = true;
      untrack(() => this.reset());
      // When the settings arrived after the dialog opened, the Provider select was disabled and could not take focus then.
      void tick().then(() => {
        const form = this.element;
        if (!this.#open() || !form) return;
        const key = this.#props.focus?.() === "key" ? form.querySelector<HTMLElement>("[data-key-field]") : null;
        if (key) key.focus();
        else if (!form.contains(document.activeElement)) form.querySelector<HTMLElement>("[data-autofocus]")?.focus();
      });
    });
    $effect(() => this.#followDefaultWindow());
    $effect(() => this.#followModelList());
    // A server that lists one model: that is the model, when none is typed (once per listing: emptying it again stays empty).
    $effect(() => {
      const only = onlyListed(
        this.listed,
        untrack(() => this.model),
      );
      if (only) untrack(() => (this.model = only));
    });
  }

  get settings(): SettingsState {
    return this.#props.settings();
  }
  get chat(): Chat {
    return this.#props.chat();
  }
  #open(): boolean {
    return this.#props.open();
  }

  /** The model's default window (debounced); it fills the field until the user types one. */
  #followDefaultWindow(): (() => void) | undefined {
    if (!this.#open() || this.baseUrlError) return undefined;
    const target = endpointOf(this.fields);
    let live = true;
    const timer = setTimeout(async () => {
      const value = await this.settings.defaultWindow(target);
      if (!live) return;
      this.defaultWindow = value;
      if (!untrack(() => this.windowEdited)) this.windowText = value === undefined ? "" : String(value);
    }, WINDOW_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }

  /** The provider's model list (/v1/models), once per provider and base URL; not without a key the listing needs. */
  #followModelList(): (() => void) | undefined {
    if (!this.#open() || this.baseUrlError || !canList(this.info, this.keyStatus)) return undefined;
    const target: ModelChoice = { ...endpointOf(this.fields), model: "" };
    const timer = setTimeout(() => void this.settings.loadModels(target), LIST_DELAY_MS);
    return () => clearTimeout(timer);
  }

  /** The form shows the saved settings, each through its control (setting-controls.ts); the model is the shown thread's. */
  reset(): void {
    const settings = this.settings.settings;
    if (settings) fillSettings(this, settings);
    else if (this.chat.view) this.fillModel(this.chat.view.model);
    this.key = "";
    this.remember = false;
    this.failure = "";
  }

  /** The model fields from `choice`: its provider, base URL, model, window and web search. */
  fillModel(choice: ModelChoice): void {
    this.#setFields(fieldsOf(choice));
    this.windowEdited = choice.contextWindow !== undefined;
    this.webSearch = choice.webSearch === true;
  }

  #setFields(fields: ModelFields): void {
    this.provider = fields.provider;
    this.baseUrl = fields.baseUrl;
    this.model = fields.model;
    this.windowText = fields.windowText;
  }

  /** Another provider: its defaults, the window back to the model's, and no key typed for the previous one. */
  chooseProvider(next: ProviderId): void {
    this.#setFields(
      switchProvider(
        this.fields,
        next,
        this.localModels.map((m) => m.id),
      ),
    );
    this.windowEdited = false;
    this.defaultWindow = undefined;
    this.key = "";
  }

  /** The user typed a window: it stays when the model's default changes. */
  typeWindow(text: string): void {
    this.windowText = text;
    this.windowEdited = true;
  }

  async save(): Promise<void> {
    if (this.invalid || this.saving) return;
    this.saving = true;
    this.notice = "";
    this.failure = "";
    const values = readSettings(this);
    const chosen = values.defaultModel;
    // The key leaves the page's state at once: only the worker keeps it.
    const typed = this.info.key !== "none" ? this.key.trim() : "";
    this.key = "";
    try {
      const saved = await this.settings.save(values);
      if (!saved) {
        this.failure = this.settings.error ?? "The settings could not be saved.";
        return;
      }
      if (typed) {
        const status = await this.settings.setKey(chosen.provider, typed, this.remember, chosen.baseUrl);
        this.remember = false;
        if (!status) {
          this.failure = this.settings.error ?? "The key could not be saved.";
          return;
        }
      }
      await this.chat.setModel(chosen);
      this.windowEdited = chosen.contextWindow !== undefined;
      const model = chosen.model ? ` · ${chosen.model}` : "";
      this.notice = `Saved. This thread and new threads use ${providerInfo(chosen.provider).label}${model}.`;
    } catch (cause) {
      this.failure = cause instanceof Error ? cause.message : String(cause);
    } finally {
      this.saving = false;
    }
  }

  async forgetKey(): Promise<void> {
    const label = this.info.label;
    const status = await this.settings.forgetKey(this.provider);
    this.notice = status ? `The ${label} key was forgotten.` : "";
  }

  async forgetEverything(): Promise<void> {
    this.confirmForget = false;
    this.notice = "";
    // The page's own part first (the LangGraph server key, URL and choice): it goes even if the worker fails.
    await this.#props.runtime?.()?.forget();
    const done = await this.settings.forgetEverything();
    if (!done) {
      this.failure = this.settings.error ?? "Forgetting failed.";
      return;
    }
    await this.chat.reload();
    this.reset();
    this.notice = "Everything was forgotten: keys, threads, files, memories and settings. Downloaded models stay.";
  }

  /** The request log was opened or closed; opening refreshes it. */
  toggleLog(open: boolean): void {
    this.logOpen = open;
    if (open) void this.settings.refreshLog();
  }
}
