/**
 * The app shell's own state (Chromium, for the runes): the layout's drawer, sheet and Settings with the field they
 * open on, and the theme toggle kept per browser and put on the page.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Layout } from "./layout.svelte.ts";
import { THEME_KEY, ThemeToggle } from "./shared/theme.svelte.ts";

describe("the layout", () => {
  it("shows a panel as a sheet, and Escape closes the drawer first, then the sheet", () => {
    const layout = new Layout<"files" | "todos">("todos");
    layout.show("files");
    expect([layout.panel, layout.sheet]).toEqual(["files", true]);
    layout.drawer = true;
    layout.escape();
    expect([layout.drawer, layout.sheet]).toEqual([false, true]);
    layout.escape();
    expect(layout.sheet).toBe(false);
  });

  it("opens Settings on a field, and closing forgets it", () => {
    const layout = new Layout("files");
    layout.openSettings("key");
    expect([layout.settingsOpen, layout.settingsFocus]).toEqual([true, "key"]);
    layout.closeSettings();
    expect([layout.settingsOpen, layout.settingsFocus]).toEqual([false, undefined]);
  });
});

describe("the theme toggle", () => {
  afterEach(() => {
    localStorage.removeItem(THEME_KEY);
    document.documentElement.removeAttribute("data-theme");
  });

  it("starts on the stored choice, cycles system → light → dark, and puts it on the page and in storage", () => {
    localStorage.setItem(THEME_KEY, "dark");
    const theme = new ThemeToggle();
    expect([theme.choice, theme.icon]).toEqual(["dark", "☾"]);
    expect(theme.label).toBe("Theme: dark theme (switch to system)");
    theme.next();
    theme.apply();
    expect([theme.choice, document.documentElement.hasAttribute("data-theme"), localStorage.getItem(THEME_KEY)]).toEqual([
      "system",
      false,
      "system",
    ]);
    theme.next();
    theme.apply();
    expect([theme.icon, document.documentElement.getAttribute("data-theme"), localStorage.getItem(THEME_KEY)]).toEqual([
      "☀",
      "light",
      "light",
    ]);
    localStorage.removeItem(THEME_KEY);
    expect(new ThemeToggle().choice).toBe("system");
  });
});
