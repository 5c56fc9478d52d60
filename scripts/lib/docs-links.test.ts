// The README stays short and every part of the documentation stays reachable from it (issue 24): README.md is at
// most 15 KB, every relative link in README.md and docs/**/*.md leads to a file and heading that exist, every
// docs file is linked from the README, and every section the README had before the split is one link away.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  brokenLinks,
  documentationFiles,
  githubSlug,
  markdownAnchors,
  markdownHeadings,
  markdownLinks,
  readmeTargets,
} from "./docs-links";

const root = path.resolve(".");
const README_MAX_BYTES = 15_360;
const IMAGE_MAX_BYTES = 300 * 1024;

/** The README's sections before it was split into docs/, and the paragraphs other text pointed to by name. */
const SECTIONS_BEFORE_THE_SPLIT = [
  "Quick start",
  "Configuration",
  "Using it",
  "Importing videos",
  "Storage",
  "Judging",
  "Prompt versions",
  "Browsing videos",
  "Reviewing a video",
  "Label sets (published human labels)",
  "Checking a judge against published labels",
  "Review queues",
  "Adjudication (gold values)",
  "What to label next",
  "Agreement dashboard and exports",
  "Caption judging",
  "Video question answering",
  "Building Q&A benchmarks",
  "Q&A construction",
  "Curation and export",
  "HTTP API",
  "Admin CLI",
  "The stub LLM (a test tool)",
  "Agreement statistics (CLI)",
  "Operations",
  "Backups",
  "Metrics",
  "Logs",
  "PostgreSQL restarts",
  "Architecture",
  "Main dependencies, and why",
  "Tests",
  "Running more machines",
  "Benchmarks",
  "Limits",
  "Calls in flight when a worker dies",
  "Batch runs",
  "Claim ahead",
  "Blind queues",
  "Presence targets",
  "Exports",
  "Migrations",
  "Embedded PostgreSQL",
  "Adding a judge task",
  "Deleting videos and projects",
];

const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

describe("the documentation", () => {
  it("keeps README.md at 15 KB or less", () => {
    expect(fs.statSync(path.join(root, "README.md")).size).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  it("has no relative link to a missing file or heading, in README.md or docs/", () => {
    expect(documentationFiles(root).length).toBeGreaterThan(1);
    expect(brokenLinks(root)).toEqual([]);
  });

  it("links every docs/**/*.md file from README.md", () => {
    const linked = new Set(readmeTargets(root).map((t) => t.target));
    const unlinked = documentationFiles(root).filter((file) => file !== "README.md" && !linked.has(file));
    expect(unlinked).toEqual([]);
  });

  it("reaches every section the README had before the split from README.md in one link", () => {
    const readmeHeadings = new Set(markdownHeadings(read("README.md")).map((h) => h.text));
    const targets = readmeTargets(root).filter(
      (t) => t.target.endsWith(".md") && fs.existsSync(path.join(root, t.target)),
    );
    const reachable = (title: string) =>
      readmeHeadings.has(title) ||
      targets.some(({ target, fragment }) =>
        fragment
          ? fragment === githubSlug(title) && markdownAnchors(read(target)).has(fragment)
          : markdownHeadings(read(target))[0]?.text === title,
      );
    expect(SECTIONS_BEFORE_THE_SPLIT.filter((title) => !reachable(title))).toEqual([]);
  });

  it("keeps the images it shows small", () => {
    const images = path.join(root, "docs/images");
    const tooLarge = fs.existsSync(images)
      ? fs.readdirSync(images).filter((name) => fs.statSync(path.join(images, name)).size > IMAGE_MAX_BYTES)
      : [];
    expect(tooLarge).toEqual([]);
  });
});

describe("the link checker", () => {
  it("makes GitHub's heading anchors", () => {
    expect(githubSlug("Label sets (published human labels)")).toBe("label-sets-published-human-labels");
    expect(githubSlug("Q&A construction")).toBe("qa-construction");
    expect(githubSlug("Main dependencies, and why")).toBe("main-dependencies-and-why");
    expect(githubSlug("The stub LLM (a test tool)")).toBe("the-stub-llm-a-test-tool");
    expect(githubSlug("A judgment belongs to what was judged, not to a run")).toBe(
      "a-judgment-belongs-to-what-was-judged-not-to-a-run",
    );
    expect(githubSlug("Accès rapide — étape 2")).toBe("accès-rapide--étape-2");
    const anchors = markdownAnchors(
      '# Notes\n\n## `npm test` and *more*\n\n## Notes\n\n```\n# not a heading\n```\n\n- <a id="kept"></a>item\n',
    );
    expect([...anchors].sort()).toEqual(["kept", "notes", "notes-1", "npm-test-and-more"]);
  });

  it("finds links outside code only, with their lines", () => {
    const links = markdownLinks(
      "See [a](a.md#x) and `[b](b.md)`.\n\n```\n[c](c.md)\n```\n![shot](img/s.png) [d\nacross](d.md)\n",
    );
    expect(links).toEqual([
      { href: "a.md#x", line: 1 },
      { href: "img/s.png", line: 6 },
      { href: "d.md", line: 6 },
    ]);
  });

  it("reports a missing file and a missing heading, and accepts what exists", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "docs-links-"));
    try {
      fs.mkdirSync(path.join(dir, "docs/guide"), { recursive: true });
      fs.writeFileSync(
        path.join(dir, "README.md"),
        "# Top\n\n[guide](docs/guide/a.md) [part](docs/guide/a.md#part-two) [gone](docs/gone.md) [bad](docs/guide/a.md#nope) [web](https://example.org/x.md#y) [self](#top)\n",
      );
      fs.writeFileSync(
        path.join(dir, "docs/guide/a.md"),
        "# A\n\n## Part two\n\nBack to [the README](../../README.md#top), [b](b.md#nowhere).\n",
      );
      fs.writeFileSync(path.join(dir, "docs/guide/b.md"), "# B\n");
      expect(brokenLinks(dir).map((p) => `${p.file}:${p.line} ${p.href}: ${p.problem}`)).toEqual([
        "README.md:3 docs/gone.md: no file docs/gone.md",
        "README.md:3 docs/guide/a.md#nope: no heading #nope in docs/guide/a.md",
        "docs/guide/a.md:5 b.md#nowhere: no heading #nowhere in docs/guide/b.md",
      ]);
      expect(documentationFiles(dir)).toEqual(["README.md", "docs/guide/a.md", "docs/guide/b.md"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
