/** Display helpers for code viewers: cutting very long lines. Pure; no DOM. */

/** Lines longer than this are cut for display (the file itself is untouched). */
export const MAX_DISPLAY_LINE = 2000;

export interface DisplayLine {
  /** The text to show: the line, or its first `max` characters. */
  text: string;
  /** Characters not shown (0 when the line is whole). */
  cut: number;
}

/** `line` cut to `max` characters for display, with how many were left out. */
export function cutLine(line: string, max = MAX_DISPLAY_LINE): DisplayLine {
  if (line.length <= max) return { text: line, cut: 0 };
  // Never split a surrogate pair.
  const code = line.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return { text: line.slice(0, end), cut: line.length - end };
}
