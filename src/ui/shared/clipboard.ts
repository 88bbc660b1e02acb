/** Copy text to the clipboard: the async Clipboard API, else a hidden-textarea `copy` command. */

/** Copies `text`; resolves true when the copy (probably) happened. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Permission denied or not a secure context: try the legacy path.
  }
  return legacyCopy(text);
}

function legacyCopy(text: string): boolean {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  area.style.pointerEvents = "none";
  const previous = document.activeElement;
  document.body.append(area);
  area.select();
  let ok: boolean;
  try {
    // Deprecated but still the only synchronous fallback where the Clipboard API is missing.
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  area.remove();
  if (previous instanceof HTMLElement) previous.focus();
  return ok;
}
