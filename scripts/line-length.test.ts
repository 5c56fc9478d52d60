import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/*
 * Prettier wraps code at 120 characters (.prettierrc); what it cannot wrap is string data (a message, a SQL
 * statement, a class list, a pattern) and comments. A line stays under 160 characters once its string data is left
 * out: a longer comment or line of code is wrapped by hand. Generated files and Prettier's ignored folders are not
 * read.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const LIMIT = 160;
const IGNORED = /^(lib\/generated|components\/generated|prisma\/migrations|prompts)\//;

/** The [start, end) offsets of the string data in a source: literals, templates (a message built of values), JSX text, regular expressions. */
function stringSpans(file: string, text: string): [number, number][] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : file.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const spans: [number, number][] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateExpression(node) ||
      ts.isRegularExpressionLiteral(node) ||
      ts.isJsxText(node)
    ) {
      spans.push([node.getStart(source), node.getEnd()]);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return spans;
}

/** The lines of `text` longer than LIMIT once their string data is left out, as `file:line (n characters)`. */
export function overlongLines(file: string, text: string): string[] {
  const lines = text.split("\n");
  if (!lines.some((line) => line.length > LIMIT)) return [];
  const spans = stringSpans(file, text);
  const found: string[] = [];
  let offset = 0;
  lines.forEach((line, i) => {
    const start = offset;
    const end = start + line.length;
    offset = end + 1;
    if (line.length <= LIMIT) return;
    const inStrings = spans.reduce((sum, [a, b]) => sum + Math.max(0, Math.min(b, end) - Math.max(a, start)), 0);
    if (line.length - inStrings > LIMIT) found.push(`${file}:${i + 1} (${line.length} characters)`);
  });
  return found;
}

describe("no line of code or comment runs past 160 characters", () => {
  it("finds a long comment and a long line of code, and lets a long string through", () => {
    const long = "x".repeat(170);
    expect(overlongLines("a.ts", `// ${long}\nconst a = 1;\n`)).toEqual(["a.ts:1 (173 characters)"]);
    expect(overlongLines("a.ts", `const ${long} = 1;\n`)).toEqual(["a.ts:1 (181 characters)"]);
    expect(overlongLines("a.ts", `const a = "${long}";\n`)).toEqual([]);
    expect(overlongLines("a.tsx", `const a = <div className="${long}">${long}</div>;\n`)).toEqual([]);
    expect(overlongLines("a.ts", "const a = `${b} " + long + "`;\n")).toEqual([]);
  });

  it("holds for every tracked TypeScript and JavaScript source outside generated code", () => {
    const files = execFileSync("git", ["ls-files", "--", "*.ts", "*.tsx", "*.mjs", "*.js"], {
      cwd: ROOT,
      encoding: "utf8",
    })
      .split("\n")
      .filter((file) => file && !IGNORED.test(file));
    expect(files.length).toBeGreaterThan(500);
    const found = files.flatMap((file) => overlongLines(file, readFileSync(path.join(ROOT, file), "utf8")));
    expect(found).toEqual([]);
  });
});
