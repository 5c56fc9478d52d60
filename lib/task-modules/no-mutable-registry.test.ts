/**
 * No module-level mutable registry of tasks remains: tasks are found through an immutable catalogue value
 * (lib/task-modules/task-catalogue.ts, with a project's own tasks from its project task sources), passed to what needs
 * it. The check reads the source of lib/, components/ and app/ (tests aside) for the registry's ways back in:
 * registration functions, a registry version counter, a counter or a list of tasks on globalThis, registration during
 * render, a read-only list of tasks pushed into.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const FOLDERS = ["lib", "components", "app"];

/** What a mutable registry of tasks looks like in source, each with why it is refused. */
const SIGNS: readonly { pattern: RegExp; why: string }[] = [
  {
    pattern:
      /\b(registerTaskDeclarations|registerTaskModule|registerRubricTasks|memoByTaskRegistry|ensureRubricTasks|withoutRubricTasks|isRubricTaskId|syncProjectTaskFolders|RubricTaskRegistry)\b/,
    why: "a registration into (or a read of) a process-wide task registry",
  },
  { pattern: /\bregistryVersion\b/, why: "a version counter of a mutable registry" },
  {
    pattern: /globalThis[^\n]*\b\w*(task|rubric)\w*\b/i,
    why: "tasks or a count of their changes kept on globalThis",
  },
  { pattern: /globalThis[^\n]*\bcount\b/, why: "a process-wide change counter on globalThis" },
  { pattern: /Symbol\.for\("framejury\.rubric/, why: "a process-wide rubric task counter" },
  { pattern: /\(\s*\w+\s+as\s+Task\w*\[\]\s*\)\.(push|splice)\(/, why: "a read-only list of tasks changed in place" },
];

interface SourceFile {
  path: string;
  text: string;
}

/** Each sign found in the files, as "<path>:<line>: <why>". */
export function mutableRegistriesIn(files: readonly SourceFile[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    file.text.split("\n").forEach((line, index) => {
      for (const sign of SIGNS) if (sign.pattern.test(line)) found.push(`${file.path}:${index + 1}: ${sign.why}`);
    });
  }
  return found;
}

function sourceFiles(): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
      const relative = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "generated" && entry.name !== "node_modules") walk(relative);
      } else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.(ts|tsx)$/.test(entry.name)) {
        files.push({ path: relative, text: fs.readFileSync(path.join(ROOT, relative), "utf8") });
      }
    }
  };
  for (const folder of FOLDERS) walk(folder);
  return files;
}

describe("no module-level mutable registry of tasks", () => {
  it("finds none in lib/, components/ or app/", () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(500);
    expect(mutableRegistriesIn(files)).toEqual([]);
  });

  it("finds each way a registry comes back (planted lines of the registry this replaced)", () => {
    const planted = [
      "export function registerTaskDeclarations(folder: TaskFolderDeclarations): () => void {",
      "let registryVersion = 0;",
      "const changes: { count: number } = ((globalThis as { [CHANGES]?: { count: number } })[CHANGES] ??= { count: 0 });",
      'const CHANGES = Symbol.for("framejury.rubricTaskChanges");',
      "  (TASK_FOLDERS as TaskFolderDeclarations[]).push(folder);",
      "  syncProjectTaskFolders(projectId, folders);",
      "const shared = globalThis as { rubricTasks?: TaskFolderDeclarations[] };",
    ].map((text, i) => ({ path: `planted-${i}.ts`, text }));
    expect([...new Set(mutableRegistriesIn(planted).map((found) => found.split(":")[0]))]).toEqual([
      "planted-0.ts",
      "planted-1.ts",
      "planted-2.ts",
      "planted-3.ts",
      "planted-4.ts",
      "planted-5.ts",
      "planted-6.ts",
    ]);
  });
});
