// Checks the Markdown documentation (README.md and docs/**/*.md) the way GitHub renders it: every relative link
// points to a file that exists and, with a #fragment, to a heading (or an explicit <a id>) in it, and every
// docs file can be reached from the README. Used by docs-links.test.ts; plain Node, no Markdown library.
import fs from "node:fs";
import path from "node:path";

export interface MarkdownLink {
  href: string;
  line: number;
}

export interface LinkProblem {
  file: string;
  line: number;
  href: string;
  problem: string;
}

/**
 * GitHub's heading anchor (github-slugger): lower case, every character that is not a letter, mark, number,
 * connector (`_`), hyphen or space removed, spaces made hyphens. "Q&A construction" → "qa-construction".
 */
export function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The text GitHub renders for a heading's inline Markdown: code spans, emphasis, links and HTML tags reduced to their text. */
function renderedText(inline: string): string {
  return inline
    .replace(/<[^>]+>/g, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(`+)([\s\S]*?)\1/g, "$2")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/([*_])(.+?)\1/g, "$2")
    .trim();
}

/** Lines outside fenced code blocks, with their 1-based numbers (fences and their contents become empty lines). */
function proseLines(markdown: string): string[] {
  let fenced = false;
  return markdown.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line;
  });
}

/** Every anchor a Markdown file offers: its headings' slugs (repeated ones get -1, -2, … as on GitHub) and `<a id>`/`<a name>`. */
export function markdownAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = githubSlug(renderedText(heading[1]!));
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const explicit of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(explicit[1]!);
  }
  return anchors;
}

/** Inline links and images (`[text](href)`, `![alt](src)`) outside code, with the line each starts on. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const lines = proseLines(markdown);
  // Code spans may not hold links: blank them out, keeping the text's length and line breaks.
  const text = lines.join("\n").replace(/(`+)[\s\S]*?\1/g, (span) => span.replace(/[^\n]/g, " "));
  const links: MarkdownLink[] = [];
  const pattern = /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
  for (const match of text.matchAll(pattern)) {
    const line = text.slice(0, match.index).split("\n").length;
    links.push({ href: match[1]!, line });
  }
  return links;
}

const isExternal = (href: string) => /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("//");

/** README.md and every .md file under docs/, as paths relative to `root` with forward slashes. */
export function documentationFiles(root: string): string[] {
  const files = ["README.md"];
  const visit = (relative: string) => {
    const absolute = path.join(root, relative);
    if (!fs.existsSync(absolute)) return;
    for (const entry of fs
      .readdirSync(absolute, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const child = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) visit(child);
      else if (entry.name.endsWith(".md")) files.push(child);
    }
  };
  visit("docs");
  return files;
}

/** Where a relative link from `file` leads: the target file (relative to root) and the fragment, if any. */
export function resolveLink(file: string, href: string): { target: string; fragment: string | null } {
  const hash = href.indexOf("#");
  const pathPart = hash === -1 ? href : href.slice(0, hash);
  const fragment = hash === -1 ? null : decodeURIComponent(href.slice(hash + 1));
  const target =
    pathPart === ""
      ? file
      : path.posix.normalize(
          pathPart.startsWith("/")
            ? pathPart.slice(1)
            : path.posix.join(path.posix.dirname(file), decodeURIComponent(pathPart)),
        );
  return { target, fragment };
}

/** Every relative link of the documentation that leads nowhere: a missing file, or a fragment no heading of the target has. */
export function brokenLinks(root: string, files = documentationFiles(root)): LinkProblem[] {
  const problems: LinkProblem[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (target: string) => {
    if (!anchorsOf.has(target))
      anchorsOf.set(target, markdownAnchors(fs.readFileSync(path.join(root, target), "utf8")));
    return anchorsOf.get(target)!;
  };
  for (const file of files) {
    for (const link of markdownLinks(fs.readFileSync(path.join(root, file), "utf8"))) {
      if (isExternal(link.href)) continue;
      const { target, fragment } = resolveLink(file, link.href);
      const absolute = path.join(root, target);
      if (target.startsWith("..") || !fs.existsSync(absolute)) {
        problems.push({ file, line: link.line, href: link.href, problem: `no file ${target}` });
      } else if (fragment !== null && fragment !== "") {
        if (!target.endsWith(".md"))
          problems.push({
            file,
            line: link.line,
            href: link.href,
            problem: `a #fragment on ${target}, which is not Markdown`,
          });
        else if (!anchors(target).has(fragment))
          problems.push({ file, line: link.line, href: link.href, problem: `no heading #${fragment} in ${target}` });
      }
    }
  }
  return problems;
}

/** The files (relative to root) and fragments README.md links to. */
export function readmeTargets(root: string): { target: string; fragment: string | null }[] {
  return markdownLinks(fs.readFileSync(path.join(root, "README.md"), "utf8"))
    .filter((link) => !isExternal(link.href))
    .map((link) => resolveLink("README.md", link.href));
}

/** Each heading of a Markdown file, with its level and rendered text. */
export function markdownHeadings(markdown: string): { level: number; text: string }[] {
  const headings: { level: number; text: string }[] = [];
  for (const line of proseLines(markdown)) {
    const heading = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) headings.push({ level: heading[1]!.length, text: renderedText(heading[2]!) });
  }
  return headings;
}
