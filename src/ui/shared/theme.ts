/** The theme toggle: follow the system, or force light or dark (stored per browser). */
export type ThemeChoice = "system" | "light" | "dark";

const ORDER: readonly ThemeChoice[] = ["system", "light", "dark"];

export function nextTheme(current: ThemeChoice): ThemeChoice {
  return ORDER[(ORDER.indexOf(current) + 1) % ORDER.length]!;
}

/** The toggle's accessible name: what it shows now and what a press does. */
export function themeLabel(current: ThemeChoice): string {
  const now = current === "system" ? "system theme" : `${current} theme`;
  return `Theme: ${now} (switch to ${nextTheme(current) === "system" ? "system" : nextTheme(current)})`;
}
