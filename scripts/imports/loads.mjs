// What a module of src/ loads, read from its syntax tree (so a load written in a comment or a string is no load):
// static `import`/`export … from`, `import x = require(…)`, type imports (`import type`, `typeof import("…")`),
// dynamic `import()`, `require()`, `new URL("…", import.meta.url)` (which is how `new Worker(new URL(…))` and
// assets are written), `import.meta.resolve()` and `import.meta.glob()`. TypeScript and JavaScript go through
// rolldown's parser (the bundler's own); a .svelte file through the Svelte compiler's parser, whose script blocks
// are then read by rolldown's parser and whose template expressions are read as they are.
import { parseAst } from "rolldown/parseAst";
import { parse as parseSvelte } from "svelte/compiler";

/**
 * @typedef {"import" | "type" | "dynamic" | "require" | "url" | "resolve" | "glob"} LoadKind
 * @typedef {object} Load
 * @property {LoadKind} kind
 * @property {string | undefined} spec the module named, or undefined when it is not a string literal
 * @property {boolean} typeOnly erased when compiled (`import type`, `export type … from`, `import("…")` types)
 * @property {number} line 1-based line of the load in the file
 */

/** The string value of a literal or of an expression-free template literal, else undefined. */
function stringValue(node) {
  if (!node) return undefined;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** `import.meta.<name>` */
function isImportMeta(node, name) {
  return (
    node?.type === "MemberExpression" &&
    !node.computed &&
    node.object?.type === "MetaProperty" &&
    node.object.meta?.name === "import" &&
    node.object.property?.name === "meta" &&
    node.property?.name === name
  );
}

/** The loads in one syntax tree; `at(offset)` gives the line of an offset in the tree's source. */
function collect(program, at) {
  /** @type {Load[]} */
  const out = [];
  const add = (kind, node, typeOnly = false) => out.push({ kind, spec: stringValue(node), typeOnly, line: at(node?.start ?? 0) });
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    switch (node.type) {
      case "ImportDeclaration":
        add("import", node.source, node.importKind === "type");
        break;
      case "ExportAllDeclaration":
      case "ExportNamedDeclaration":
        if (node.source) add("import", node.source, node.exportKind === "type");
        break;
      case "TSImportEqualsDeclaration":
        if (node.moduleReference?.type === "TSExternalModuleReference") {
          add("import", node.moduleReference.expression, node.importKind === "type");
        }
        break;
      case "TSImportType":
        add("type", node.source ?? node.argument?.literal ?? node.argument, true);
        break;
      case "ImportExpression":
        add("dynamic", node.source);
        break;
      case "CallExpression":
        if (node.callee?.type === "Identifier" && node.callee.name === "require") add("require", node.arguments[0]);
        else if (isImportMeta(node.callee, "resolve")) add("resolve", node.arguments[0]);
        else if (isImportMeta(node.callee, "glob")) {
          const patterns = node.arguments[0]?.type === "ArrayExpression" ? node.arguments[0].elements : [node.arguments[0]];
          for (const p of patterns) add("glob", p);
        }
        break;
      case "NewExpression":
        if (node.callee?.type === "Identifier" && node.callee.name === "URL" && isImportMeta(node.arguments[1], "url")) {
          add("url", node.arguments[0]);
        }
        break;
    }
    for (const key in node) if (key !== "type" && key !== "start" && key !== "end") visit(node[key]);
  };
  visit(program);
  return out;
}

/** 1-based line numbers of offsets into `source`. */
function lineIndex(source) {
  const starts = [0];
  for (let i = source.indexOf("\n"); i >= 0; i = source.indexOf("\n", i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/** The parser language of a file name. */
function langOf(file) {
  if (/\.d\.[cm]?ts$/.test(file)) return "dts";
  if (/\.tsx$/.test(file)) return "tsx";
  if (/\.[cm]?ts$/.test(file)) return "ts";
  if (/\.jsx$/.test(file)) return "jsx";
  return "js";
}

/** The `lang` attribute of a Svelte script block ("ts" or "js"). */
function scriptLang(script) {
  const attr = script.attributes?.find((a) => a.name === "lang");
  const value = Array.isArray(attr?.value) ? attr.value[0]?.data : undefined;
  return value === "ts" || value === "typescript" ? "ts" : "js";
}

/**
 * Every load in a module's source. Throws (with the parser's message) when the source does not parse.
 * @param {string} source
 * @param {string} file its name: the extension picks the parser
 * @returns {Load[]}
 */
export function loadsOf(source, file) {
  const at = lineIndex(source);
  if (!file.endsWith(".svelte")) return collect(parseAst(source, { lang: langOf(file), sourceType: "module" }, file), at);
  const ast = parseSvelte(source, { modern: true, filename: file });
  const out = [];
  for (const script of [ast.module, ast.instance]) {
    if (!script) continue;
    const { start, end } = script.content;
    const program = parseAst(source.slice(start, end), { lang: scriptLang(script), sourceType: "module" }, file);
    out.push(...collect(program, (offset) => at(start + offset)));
  }
  // The template's expressions ({#await import("./x.svelte")}, src={new URL("./a.png", import.meta.url).href}).
  out.push(...collect(ast.fragment, at));
  return out;
}
