/**
 * xterm in the page, loaded on first use (the terminal panel imports this module dynamically, so the app's startup
 * bundle carries none of xterm: its code and CSS come in their own chunk, from this site, no CDN). It only renders:
 * what a key does is the line editor's (line-editor.ts, person-terminal.ts). Links in the output open in a new tab
 * without access to this one (the web-links add-on, http and https only). The fit add-on sizes it to its box.
 */
import { FitAddon } from "@xterm/addon-fit";
import { WebLinksAddon } from "@xterm/addon-web-links";
import { Terminal } from "@xterm/xterm";
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
  dispose(): void;
}

/** The page's theme colours (theme.css) as xterm's theme. */
function themeOf(el: HTMLElement): { background: string; foreground: string; cursor: string; selectionBackground: string } {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    background: v("--code-bg", "#111"),
    foreground: v("--code-fg", "#eee"),
    cursor: v("--code-fg", "#eee"),
    selectionBackground: v("--selection", "#4a6fa580"),
  };
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
  });
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
    dispose() {
      data.dispose();
      term.dispose();
    },
  };
}
