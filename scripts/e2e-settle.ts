/**
 * The rule that keeps e2e specs from evaluating in a page the isolation reload is about to replace (issue 43, item
 * 8): on a host without COOP/COEP the first visit reloads once by itself, and an evaluation it lands on fails with
 * "Execution context was destroyed". A spec's source (parsed with TypeScript, not matched as text) breaks the rule
 * when:
 * - it takes `test` from "@playwright/test" instead of "./fixtures.ts" (whose pages settle after every navigation);
 * - it turns that off (`test.use({ settleNavigations: false })`) without being allowed to, or, allowed, evaluates in
 *   a page (`evaluate`, `evaluateAll`, `evaluateHandle`, `waitForFunction`, `$eval`, `$$eval`, or a function of the
 *   same file that does) after a navigation (`goto`, `reload`, `goBack`, `goForward`) with no `settled(…)` between,
 *   in the order the calls finish, within one top-level statement;
 * - it makes a context or page of its own (`newContext`, `browser.newPage`) without `serviceWorkers: "block"`.
 */
import ts from "typescript";

const EVALUATES = new Set(["evaluate", "evaluateAll", "evaluateHandle", "waitForFunction", "$eval", "$$eval"]);
const NAVIGATES = new Set(["goto", "reload", "goBack", "goForward"]);

/** The name a call calls: `f` of `f(…)`, `m` of `x.m(…)`. */
function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

function calls(node: ts.Node): ts.CallExpression[] {
  const out: ts.CallExpression[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n)) out.push(n);
    ts.forEachChild(n, visit);
  };
  visit(node);
  return out;
}

/** `test.use({ settleNavigations: false })`. */
function optsOut(call: ts.CallExpression): boolean {
  const callee = call.expression;
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== "use" || !ts.isIdentifier(callee.expression)) return false;
  if (callee.expression.text !== "test") return false;
  return call.arguments.some(
    (arg) =>
      ts.isObjectLiteralExpression(arg) &&
      arg.properties.some(
        (p) => ts.isPropertyAssignment(p) && p.name.getText() === "settleNavigations" && p.initializer.kind === ts.SyntaxKind.FalseKeyword,
      ),
  );
}

/** Whether the options of `newContext(…)`/`newPage(…)` block service workers. */
function blocksWorkers(call: ts.CallExpression): boolean {
  return call.arguments.some(
    (arg) =>
      ts.isObjectLiteralExpression(arg) &&
      arg.properties.some(
        (p) =>
          ts.isPropertyAssignment(p) &&
          p.name.getText() === "serviceWorkers" &&
          ts.isStringLiteral(p.initializer) &&
          p.initializer.text === "block",
      ),
  );
}

/** The names of the file's top-level functions (declared, or as a const) whose bodies evaluate in a page. */
function evaluatingHelpers(file: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const evaluates = (n: ts.Node) => calls(n).some((c) => EVALUATES.has(calleeName(c) ?? ""));
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name && evaluates(statement)) names.add(statement.name.text);
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.initializer && ts.isArrowFunction(d.initializer) && evaluates(d.initializer)) {
          names.add(d.name.text);
        }
      }
    }
  }
  return names;
}

/** Where a spec breaks the rule, as "file:line: what" (none: it keeps it). `mayOptOut`: the spec may turn settling off. */
export function settleProblems(fileName: string, source: string, mayOptOut: boolean): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const at = (node: ts.Node) => `${fileName}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`;
  const problems: string[] = [];

  let fromFixtures = false;
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const bindings = statement.importClause?.namedBindings;
    const named = bindings && ts.isNamedImports(bindings) && !statement.importClause?.isTypeOnly ? bindings.elements : [];
    const test = named.find((e) => !e.isTypeOnly && (e.propertyName ?? e.name).text === "test");
    if (!test) continue;
    if (statement.moduleSpecifier.text === "./fixtures.ts") fromFixtures = true;
    else problems.push(`${at(statement)}: takes \`test\` from "${statement.moduleSpecifier.text}", not "./fixtures.ts"`);
  }
  if (!fromFixtures && !problems.length) problems.push(`${fileName}: does not take \`test\` from "./fixtures.ts"`);

  const all = calls(file);
  const optedOut = all.filter(optsOut);
  if (optedOut.length && !mayOptOut) {
    for (const call of optedOut) problems.push(`${at(call)}: turns settling off, which only the specs allowed to may`);
  }
  for (const call of all) {
    const name = calleeName(call);
    const own = name === "newContext" || (name === "newPage" && call.expression.getText(file) === "browser.newPage");
    if (own && !blocksWorkers(call)) problems.push(`${at(call)}: a context of its own without \`serviceWorkers: "block"\``);
  }
  if (!optedOut.length) return problems;

  const helpers = evaluatingHelpers(file);
  for (const statement of file.statements) {
    let settledSinceNavigation = true;
    const ordered = calls(statement).sort((a, b) => a.getEnd() - b.getEnd());
    for (const call of ordered) {
      const name = calleeName(call) ?? "";
      if (NAVIGATES.has(name)) settledSinceNavigation = false;
      else if (name === "settled") settledSinceNavigation = true;
      else if ((EVALUATES.has(name) || helpers.has(name)) && !settledSinceNavigation) {
        problems.push(`${at(call)}: ${name} after a navigation without settled(…) between`);
      }
    }
  }
  return problems;
}
