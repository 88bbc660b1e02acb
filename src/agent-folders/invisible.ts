/**
 * Characters that change how a name reads without showing themselves: bidi controls (U+202A–U+202E, U+2066–U+2069,
 * U+200E/F, U+061C, which can make `gpj.exe` read as `exe.jpg`), zero-width characters (U+200B–U+200D, U+2060,
 * U+FEFF), every other format character (Unicode category Cf, tag characters included), controls (Cc), line and
 * paragraph separators, and what Unicode says to draw as nothing (Default_Ignorable_Code_Point: Hangul fillers,
 * U+034F, variation selectors). An agent's names and paths may hold none of them: the review would show a name that is not the one the
 * agent has. Messages name them escaped (`U+202E`), never raw.
 */

/** Cf, Cc, the separators, and Unicode's Default_Ignorable_Code_Point (the fillers, U+034F, variation selectors). */
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, "gu");

/** A code point as `U+202E`. */
function codePointName(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** True when `text` holds an invisible or format character. */
export function hasInvisible(text: string): boolean {
  return INVISIBLE.test(text);
}

/** The distinct invisible characters of `text`, in order, as `U+202E`. */
function invisibleCharacters(text: string): string[] {
  return [...new Set([...text.matchAll(INVISIBLE_ALL)].map(([char]) => codePointName(char)))];
}

/** `text` with each invisible character shown as `<U+202E>`, safe to put in a message (`keepLines`: not \n, \r, \t). */
export function showInvisible(text: string, keepLines = false): string {
  return text.replace(INVISIBLE_ALL, (char) => (keepLines && /[\n\r\t]/.test(char) ? char : `<${codePointName(char)}>`));
}

/** `text` without its invisible characters (for a name taken from outside the folder, such as a link's file name). */
export function withoutInvisible(text: string): string {
  return text.replace(INVISIBLE_ALL, "");
}

/** Why a name or path holding invisible characters is refused, naming them; undefined when it holds none. */
export function invisibleProblem(text: string): string | undefined {
  const found = invisibleCharacters(text);
  if (!found.length) return undefined;
  const list = found.length > 8 ? `${found.slice(0, 8).join(", ")} and ${found.length - 8} more` : found.join(", ");
  return `invisible or direction-changing characters (${list}): they make a name read as something else`;
}
