import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/*
 * The image's build context as Docker makes it from .dockerignore (moby's patternmatcher): each line a pattern, a
 * leading `!` taking back in what an earlier line left out, the last matching line deciding; a pattern that matches
 * a folder decides for everything in it; `*` and `?` stay within one path segment, `**` spans any number of them.
 * The container files' tests and the check of the image's type check read the context through it, without Docker.
 */

interface Rule {
  pattern: RegExp;
  include: boolean;
}

function patternRegExp(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === "*" && pattern[i + 1] === "*") {
      const slash = pattern[i + 2] === "/";
      source += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/** The rules of a .dockerignore's text, in order. */
export function dockerignoreRules(text: string): Rule[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const include = line.startsWith("!");
      const pattern = path.posix.normalize((include ? line.slice(1) : line).trim()).replace(/^\/+|\/+$/g, "");
      return { pattern: patternRegExp(pattern), include };
    });
}

/** Whether a repository-relative path (with `/`) is in the build context the rules make. */
export function inBuildContext(rules: Rule[], file: string): boolean {
  const segments = file.split("/");
  const prefixes = segments.map((_, index) => segments.slice(0, index + 1).join("/"));
  let included = true;
  for (const rule of rules) {
    if (prefixes.some((prefix) => rule.pattern.test(prefix))) included = rule.include;
  }
  return included;
}

/** The files of `root` (tracked and untracked, less what .gitignore names) that its .dockerignore lets into the context. */
export function buildContextFiles(root: string): string[] {
  const rules = dockerignoreRules(fs.readFileSync(path.join(root, ".dockerignore"), "utf8"));
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return listed
    .split("\0")
    .filter((file) => file !== "" && fs.existsSync(path.join(root, file)) && inBuildContext(rules, file));
}
