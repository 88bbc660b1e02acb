/**
 * The names MCP tools get in an agent: `<server>__<tool>`, in the characters every provider accepts
 * (`[A-Za-z0-9_-]`, at most {@link MAX_TOOL_NAME} long), distinct from each other, from other servers' tools and
 * from the built-in tools (no built-in name holds `__`; a test keeps it so, as agent/ sits above tools/).
 */

/** OpenAI's limit on a function name (Anthropic allows 128): the smaller, so every provider accepts the name. */
export const MAX_TOOL_NAME = 64;
/** A server's prefix is cut to this length, so the tool's own name keeps most of the room. */
const MAX_SERVER_PREFIX = 24;

/** Characters outside `[A-Za-z0-9_-]` become `_`; runs of `_` are kept (they may separate words). */
function sanitizeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_");
}

/** A server's namespace: its name sanitized, cut, never empty. */
export function serverPrefix(name: string): string {
  const clean = sanitizeName(name.trim())
    .replace(/^_+|_+$/g, "")
    .slice(0, MAX_SERVER_PREFIX);
  return clean || "mcp";
}

/** A short stable hash of a string (base 36), to keep cut names apart. */
function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/**
 * The agent's name for `tool` of the server named `server`: `<prefix>__<tool>`, sanitized; when that is too long, or
 * is taken (by `taken`, which it joins), it is cut and ends in a hash of the original names.
 */
export function mcpToolName(server: string, tool: string, taken: Set<string>): string {
  const plain = `${serverPrefix(server)}__${sanitizeName(tool)}`;
  let name = plain;
  for (let attempt = 0; name.length > MAX_TOOL_NAME || taken.has(name); attempt++) {
    const suffix = `_${shortHash(`${server}\u0000${tool}\u0000${attempt}`)}`;
    name = plain.slice(0, MAX_TOOL_NAME - suffix.length) + suffix;
  }
  taken.add(name);
  return name;
}
