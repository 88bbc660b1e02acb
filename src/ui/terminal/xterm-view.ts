/**
 * xterm in the page, loaded on first use (the terminal panel imports this module dynamically, so the app's startup
 * bundle carries none of xterm: its code and CSS come in their own chunk, from this site, no CDN). It only renders:
 * what a key does is the line editor's (line-editor.ts, person-terminal.ts). Links in the output open in a new tab
 * without access to this one (the web-links add-on, http and https only). The fit add-on sizes it to its box. Its
 * colours are the page's theme, read again when the theme switch (◐, `data-theme` on the root) or the system's scheme
 * changes. Characters take the cells of Unicode 11 (the unicode11 add-on): CJK and emoji two, as the line editor
 * counts them (cell-width.ts).
 */
import { FitAddon } from "@xterm/addon-fit";
import { Unicode11Addon } from "@xterm/addon-unicode11";
import { WebLinksAddon } from "@xterm/addon-web-links";
import { Terminal, type ITheme } from "@xterm/xterm";
import "@xterm/xterm/css/xterm.css";
import type { Screen } from "./person-terminal.ts";

/** A mounted xterm: its screen for the terminal's logic, and the page's controls of it. */
export interface XtermView {
  readonly screen: Screen;
  /** Sizes it to its box again (after the box changed). */
  fit(): void;
  /** xterm's screen-reader mode (its output is kept as text a screen reader reads; the input announces characters). */
  setScreenReader(on: boolean): void;
  focus(): void;
  /** Where xterm's cursor is: its column (in cells) and its row in the viewport. */
  cursor(): { col: number; row: number };
  dispose(): void;
}

/** The page's theme colours (theme.css, resolved for the current scheme: its variables hold `light-dark()`) for xterm. */
function themeOf(el: HTMLElement): ITheme {
  const probe = document.createElement("span");
  el.append(probe);
  const colour = (name: string) => {
    probe.style.color = `var(${name})`;
    return getComputedStyle(probe).color;
  };
  const [fg, bg, red, yellow, green] = ["--code-fg", "--code-bg", "--danger", "--warning", "--success"].map(colour);
  probe.remove();
  // Red, yellow and green are the page's own (legible on its background: xterm's defaults are not, in light mode).
  return { foreground: fg, background: bg, cursor: fg, red, brightRed: red, yellow, brightYellow: yellow, green, brightGreen: green };
}

/** Mounts xterm in `el`; `onData` hears keys and pastes. */
export function mountXterm(el: HTMLElement, onData: (data: string) => void, screenReader: boolean): XtermView {
  const term = new Terminal({
    screenReaderMode: screenReader,
    cursorBlink: !matchMedia("(prefers-reduced-motion: reduce)").matches,
    fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
    fontSize: 13,
    scrollback: 5_000,
    theme: themeOf(el),
    // The unicode add-on's API (term.unicode) is "proposed" in xterm's terms.
    allowProposedApi: true,
  });
  term.loadAddon(new Unicode11Addon());
  term.unicode.activeVersion = "11";
  const fit = new FitAddon();
  term.loadAddon(fit);
  term.loadAddon(new WebLinksAddon((_event, uri) => void window.open(uri, "_blank", "noopener,noreferrer")));
  // Tab is the browser's: it moves focus on, out of the terminal (no keyboard trap; the shell has no completion).
  term.attachCustomKeyEventHandler((event) => event.key !== "Tab");
  term.open(el);
  const refit = () => {
    // A hidden panel (display: none) has no size: fit when it shows again.
    if (el.clientWidth > 0 && el.clientHeight > 0) fit.fit();
  };
  refit();
  const data = term.onData(onData);
  // The theme switch sets `data-theme` on the root; "system" follows the OS's scheme: the colours are read again on both.
  const retheme = () => (term.options.theme = themeOf(el));
  const themeSwitch = new MutationObserver(retheme);
  themeSwitch.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  const scheme = matchMedia("(prefers-color-scheme: dark)");
  scheme.addEventListener("change", retheme);
  return {
    screen: {
      write: (text) => term.write(text),
      clear: () => term.clear(),
      get cols() {
        return term.cols;
      },
    },
    fit: refit,
    setScreenReader: (on) => (term.options.screenReaderMode = on),
    focus: () => term.focus(),
    cursor: () => ({ col: term.buffer.active.cursorX, row: term.buffer.active.cursorY }),
    dispose() {
      themeSwitch.disconnect();
      scheme.removeEventListener("change", retheme);
      data.dispose();
      term.dispose();
    },
  };
}
