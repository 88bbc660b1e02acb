/**
 * The theme toggle's state: the choice (follow the system, or force light or dark), kept per browser, and put on
 * the page as `data-theme` on the root element (theme.css reads it).
 */
import { nextTheme, themeLabel, type ThemeChoice } from "./theme.ts";

/** Where the choice is kept (localStorage). */
export const THEME_KEY = "deeptab:theme";

export class ThemeToggle {
  readonly #storage: Storage;
  choice: ThemeChoice;

  constructor(storage: Storage = localStorage) {
    this.#storage = storage;
    this.choice = $state((storage.getItem(THEME_KEY) as ThemeChoice | null) ?? "system");
  }

  /** The button's accessible name: what it shows now and what a press does. */
  get label(): string {
    return themeLabel(this.choice);
  }

  /** The button's face. */
  get icon(): string {
    return this.choice === "dark" ? "☾" : this.choice === "light" ? "☀" : "◐";
  }

  next(): void {
    this.choice = nextTheme(this.choice);
  }

  /** Puts the choice on `root` and keeps it; run in an effect, it follows every change. */
  apply(root: HTMLElement = document.documentElement): void {
    if (this.choice === "system") root.removeAttribute("data-theme");
    else root.setAttribute("data-theme", this.choice);
    this.#storage.setItem(THEME_KEY, this.choice);
  }
}
