/** URLs from untrusted text (model output, stored settings): only http(s) passes. */

/** `value` as an http(s) URL's href, or undefined (javascript:, data:, relative or malformed URLs). */
export function safeHttpUrl(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 2_000) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The origin (scheme, host and port) of `value` as an http(s) URL, or undefined (see {@link safeHttpUrl}). */
export function httpOrigin(value: unknown): string | undefined {
  const href = safeHttpUrl(value);
  return href === undefined ? undefined : new URL(href).origin;
}
