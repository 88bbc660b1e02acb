/**
 * Glob patterns compiled to regular expressions, matched against paths
 * relative to the search root. Supports `*` (within a segment), `**` (any
 * number of segments), `?`, character classes `[abc]` / `[!abc]` and
 * alternatives `{a,b}`. With `basename`, a pattern without a slash is
 * matched against any path suffix (`*.md` finds `a/b/c.md`), as ripgrep's
 * `--glob` does; otherwise it is anchored at the search root.
 */
const cache = new Map<string, RegExp>();

export function globToRegExp(pattern: string, basename = false): RegExp {
  const key = (basename ? "b:" : "a:") + pattern;
  const cached = cache.get(key);
  if (cached) return cached;
  let body = "";
  let i = 0;
  let braceDepth = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === "*") {
      if (pattern[i + 1] === "*") {
        const slashAfter = pattern[i + 2] === "/";
        body += slashAfter ? "(?:.*/)?" : ".*";
        i += slashAfter ? 3 : 2;
        continue;
      }
      body += "[^/]*";
    } else if (c === "?") {
      body += "[^/]";
    } else if (c === "[") {
      const end = pattern.indexOf("]", i + 1);
      if (end === -1) {
        body += "\\[";
      } else {
        let cls = pattern.slice(i + 1, end);
        if (cls.startsWith("!")) cls = "^" + cls.slice(1);
        body += "[" + cls.replace(/\\/g, "\\\\") + "]";
        i = end;
      }
    } else if (c === "{") {
      braceDepth++;
      body += "(?:";
    } else if (c === "}" && braceDepth > 0) {
      braceDepth--;
      body += ")";
    } else if (c === "," && braceDepth > 0) {
      body += "|";
    } else {
      body += c.replace(/[.+^$()|\\]/g, "\\$&");
    }
    i++;
  }
  const anyDepth = basename && !pattern.includes("/");
  const re = new RegExp("^" + (anyDepth ? "(?:.*/)?" : "") + body + "$");
  if (cache.size > 500) cache.clear();
  cache.set(key, re);
  return re;
}

/** Does `relativePath` (no leading slash) match the glob? */
export function globMatch(pattern: string, relativePath: string, basename = false): boolean {
  const p = pattern.startsWith("/") ? pattern.slice(1) : pattern;
  return globToRegExp(p, basename).test(relativePath);
}
