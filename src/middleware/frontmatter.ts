/**
 * A small YAML-frontmatter parser for SKILL.md files (no dependency).
 *
 * Supported, which is what skill files use in practice:
 * - `key: value` with plain, 'single'- or "double"-quoted scalars (plain
 *   scalars may continue on more-indented lines and are folded with spaces);
 * - `|` and `>` block scalars (with `-` / `+` chomping);
 * - lists as `- item` lines or `[a, b]` flow sequences;
 * - a nested map one level deep (`metadata:` followed by indented `k: v`).
 *
 * Every scalar stays a string (no number/boolean coercion). Anything else
 * (deeper nesting, flow maps, anchors, tabs, duplicate keys) is reported as an
 * error value; the parser never throws.
 */

export type FrontmatterScalar = string;
export type FrontmatterList = string[];
export type FrontmatterMap = { [key: string]: FrontmatterScalar | FrontmatterList };
export type FrontmatterValue = FrontmatterScalar | FrontmatterList | FrontmatterMap;
export type FrontmatterData = Record<string, FrontmatterValue>;

export type FrontmatterResult =
  | { ok: true; data: FrontmatterData; body: string }
  | { ok: false; error: string };

interface Line {
  no: number;
  indent: number;
  text: string;
}

class YamlError extends Error {}

const KEY_LINE = /^([A-Za-z0-9_][\w.-]*)\s*:(?:\s+(.*))?$/;

/** Splits `---\n…\n---` off the top of a Markdown file and parses it. */
export function parseFrontmatter(content: string): FrontmatterResult {
  const text = content.replace(/^\uFEFF/, "");
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trimEnd() !== "---") return { ok: false, error: "no YAML frontmatter (the file must start with a '---' line)" };
  const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === "---" || l.trimEnd() === "..."));
  if (end < 0) return { ok: false, error: "the frontmatter is not closed by a '---' line" };
  try {
    const data = parseYamlBlock(lines.slice(1, end));
    return { ok: true, data, body: lines.slice(end + 1).join("\n") };
  } catch (err) {
    if (err instanceof YamlError) return { ok: false, error: `invalid YAML: ${err.message}` };
    throw err;
  }
}

/** Parses the frontmatter lines (without the `---` fences) into a mapping. */
export function parseYamlBlock(raw: readonly string[]): FrontmatterData {
  const lines: Line[] = raw.map((text, i) => {
    const lead = /^[ \t]*/.exec(text)![0];
    if (lead.includes("\t") && text.trim()) throw new YamlError(`line ${i + 1}: tabs are not allowed for indentation`);
    return { no: i + 1, indent: lead.length, text: text.slice(lead.length) };
  });
  const data: FrontmatterData = {};
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }
    if (line.indent > 0) throw new YamlError(`line ${line.no}: unexpected indentation`);
    const m = KEY_LINE.exec(line.text.trimEnd());
    if (!m) throw new YamlError(`line ${line.no}: expected 'key: value'`);
    const key = m[1]!;
    if (key in data) throw new YamlError(`line ${line.no}: duplicate key '${key}'`);
    const { value, next } = parseValue(lines, i, 0, m[2] ?? "", true);
    data[key] = value;
    i = next;
  }
  return data;
}

function isListItem(line: Line | undefined, indent: number): boolean {
  return line !== undefined && line.indent === indent && (line.text.startsWith("- ") || line.text.trimEnd() === "-");
}

function sameIndentListEnd(lines: readonly Line[], from: number, indent: number): number {
  let j = from;
  let end = from;
  while (j < lines.length) {
    const l = lines[j]!;
    if (l.text.trim() === "") {
      j++;
      continue;
    }
    if (!isListItem(l, indent) && l.indent <= indent) break;
    end = ++j;
  }
  return end;
}

function isBlank(line: Line): boolean {
  return line.text.trim() === "" || line.text.startsWith("#");
}

/** The indented lines after `start` (blank ones included), until indentation returns to `indent` or less. */
function childLines(lines: readonly Line[], start: number, indent: number): { block: Line[]; next: number } {
  let j = start + 1;
  let last = start;
  while (j < lines.length) {
    const l = lines[j]!;
    if (l.text.trim() === "") {
      j++;
      continue;
    }
    if (l.indent <= indent) break;
    last = j;
    j++;
  }
  return { block: lines.slice(start + 1, last + 1), next: last + 1 };
}

function parseValue(
  lines: readonly Line[],
  at: number,
  indent: number,
  rest: string,
  allowMap: boolean,
): { value: FrontmatterValue; next: number } {
  const inline = stripComment(rest).trim();
  let { block, next } = childLines(lines, at, indent);
  let first = next;
  while (first < lines.length && lines[first]!.text.trim() === "") first++;
  if (inline === "" && block.every((l) => isBlank(l)) && isListItem(lines[first], indent)) {
    // A list whose items sit at the key's own indentation ("key:\n- a\n- b").
    const end = sameIndentListEnd(lines, first, indent);
    block = lines.slice(at + 1, end);
    next = end;
  }
  const content = block.filter((l) => !isBlank(l));
  const where = lines[at]!.no;
  if (/^[|>][+-]?$/.test(inline)) return { value: blockScalar(inline, block), next };
  if (inline === "") {
    if (content.length === 0) return { value: "", next };
    if (content[0]!.text.startsWith("- ") || content[0]!.text === "-") return { value: blockList(content), next };
    if (!allowMap) throw new YamlError(`line ${content[0]!.no}: nesting deeper than one level is not supported`);
    return { value: nestedMap(lines, block), next };
  }
  if (inline.startsWith("[")) {
    if (content.length) throw new YamlError(`line ${content[0]!.no}: unexpected indented line after a flow list`);
    return { value: flowList(inline, where), next };
  }
  if (inline.startsWith("{")) throw new YamlError(`line ${where}: flow mappings ({...}) are not supported`);
  if (/^[&*!]/.test(inline)) throw new YamlError(`line ${where}: anchors, aliases and tags are not supported`);
  // A scalar, possibly continued on more-indented lines.
  const continued = [rest.trim(), ...content.map((l) => l.text.trim())].join(" ");
  return { value: scalar(content.length ? continued : inline, where), next };
}

function nestedMap(all: readonly Line[], block: readonly Line[]): FrontmatterMap {
  const map: FrontmatterMap = {};
  const first = block.find((l) => !isBlank(l))!;
  const indent = first.indent;
  const start = all.indexOf(block[0]!);
  let i = start;
  const end = start + block.length;
  while (i < end) {
    const line = all[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }
    if (line.indent !== indent) throw new YamlError(`line ${line.no}: inconsistent indentation`);
    const m = KEY_LINE.exec(line.text.trimEnd());
    if (!m) throw new YamlError(`line ${line.no}: expected 'key: value'`);
    const key = m[1]!;
    if (key in map) throw new YamlError(`line ${line.no}: duplicate key '${key}'`);
    const { value, next } = parseValue(all, i, indent, m[2] ?? "", false);
    map[key] = value as FrontmatterScalar | FrontmatterList;
    i = Math.min(next, end);
  }
  return map;
}

function blockList(content: readonly Line[]): FrontmatterList {
  const indent = content[0]!.indent;
  const items: string[] = [];
  for (const l of content) {
    if (l.indent === indent && (l.text.startsWith("- ") || l.text === "-")) {
      const item = stripComment(l.text.slice(1)).trim();
      if (/^[-[{]/.test(item) || KEY_LINE.test(item)) throw new YamlError(`line ${l.no}: list items must be plain scalars`);
      items.push(scalar(item, l.no));
    } else if (l.indent > indent && items.length) {
      items[items.length - 1] = `${items[items.length - 1]} ${l.text.trim()}`.trim();
    } else {
      throw new YamlError(`line ${l.no}: expected a '- item' line`);
    }
  }
  return items;
}

function blockScalar(header: string, block: readonly Line[]): string {
  const folded = header.startsWith(">");
  const chomp = header[1] ?? "";
  const nonBlank = block.filter((l) => l.text.trim() !== "");
  const indent = nonBlank.length ? Math.min(...nonBlank.map((l) => l.indent)) : 0;
  const body = block.map((l) => (l.text.trim() === "" ? "" : " ".repeat(l.indent - indent) + l.text));
  const text = folded ? fold(body) : body.join("\n");
  const trimmed = text.replace(/\n+$/, "");
  if (chomp === "-") return trimmed;
  if (chomp === "+") return text + "\n";
  return trimmed + "\n";
}

/** YAML folding: a break between two text lines becomes a space; blank and more-indented lines keep breaks. */
function fold(body: readonly string[]): string {
  let out = "";
  let prev: "none" | "text" | "blank" | "indented" = "none";
  for (const line of body) {
    if (line === "") {
      out += "\n";
      prev = "blank";
      continue;
    }
    const indented = line.startsWith(" ");
    if (prev === "none" || (prev === "blank" && !indented)) out += line;
    else if (prev === "text" && !indented) out += " " + line;
    else out += "\n" + line;
    prev = indented ? "indented" : "text";
  }
  return out;
}

function flowList(inline: string, no: number): FrontmatterList {
  if (!inline.endsWith("]")) throw new YamlError(`line ${no}: unterminated flow list`);
  const inner = inline.slice(1, -1).trim();
  if (inner === "") return [];
  const items: string[] = [];
  let cur = "";
  let quote: string | undefined;
  for (const ch of inner) {
    if (quote) {
      cur += ch;
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      cur += ch;
    } else if (ch === ",") {
      items.push(cur.trim());
      cur = "";
    } else if (ch === "[" || ch === "{") {
      throw new YamlError(`line ${no}: nested flow collections are not supported`);
    } else {
      cur += ch;
    }
  }
  if (quote) throw new YamlError(`line ${no}: unterminated quoted string`);
  if (cur.trim() !== "") items.push(cur.trim());
  return items.map((item) => scalar(item, no));
}

/** Removes a trailing ` # comment` outside quotes. */
function stripComment(text: string): string {
  let quote: string | undefined;
  for (let k = 0; k < text.length; k++) {
    const ch = text[k]!;
    if (quote) {
      if (ch === "\\" && quote === '"') k++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") {
      if (k === 0 || /\s/.test(text[k - 1]!)) quote = ch;
    } else if (ch === "#" && (k === 0 || /\s/.test(text[k - 1]!))) {
      return text.slice(0, k);
    }
  }
  return text;
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", '"': '"', "\\": "\\", "/": "/", "0": "\0", " ": " " };

function scalar(raw: string, no: number): string {
  const text = stripComment(raw).trim();
  if (text.startsWith('"')) {
    let out = "";
    for (let k = 1; k < text.length; k++) {
      const ch = text[k]!;
      if (ch === '"') {
        if (text.slice(k + 1).trim() !== "") throw new YamlError(`line ${no}: unexpected text after a quoted string`);
        return out;
      }
      if (ch !== "\\") {
        out += ch;
        continue;
      }
      const esc = text[++k];
      if (esc === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(k + 1, k + 5))) {
        out += String.fromCharCode(parseInt(text.slice(k + 1, k + 5), 16));
        k += 4;
      } else if (esc !== undefined && esc in ESCAPES) {
        out += ESCAPES[esc];
      } else {
        throw new YamlError(`line ${no}: unknown escape '\\${esc ?? ""}'`);
      }
    }
    throw new YamlError(`line ${no}: unterminated quoted string`);
  }
  if (text.startsWith("'")) {
    const m = /^'((?:[^']|'')*)'\s*$/.exec(text);
    if (!m) throw new YamlError(`line ${no}: unterminated or malformed quoted string`);
    return m[1]!.replace(/''/g, "'");
  }
  if (/^[&*!|>%@`]/.test(text)) throw new YamlError(`line ${no}: a plain value cannot start with '${text[0]}'`);
  if (/:\s/.test(text)) throw new YamlError(`line ${no}: ': ' inside a plain value; quote the value`);
  return text;
}
