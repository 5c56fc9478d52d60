import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** `export { GET, POST } from "@/lib/tasks/<id>/routes/…";` (or `export { default } from "…"`): an app/ file that only mounts a module. */
const MOUNT = /^export\s*\{[^}]*\}\s*from\s*"([^"]+)";?$/;

/**
 * TEST TOOL: the module an app/ file re-exports when it is a thin mount point (every line a re-export or an
 * `export const dynamic`/`runtime` literal, which Next.js reads in app/ itself), else null. A task's pages and
 * routes live in its own folders; app/ holds only such files at the task's URLs.
 */
export function mountedModule(file: string): string | null {
  const lines = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  const targets = lines.map((line) => MOUNT.exec(line)?.[1]);
  const literals = lines.filter((line) => /^export const (dynamic|runtime) = "[\w-]+";$/.test(line));
  const mounted = [...new Set(targets.filter((target): target is string => target !== undefined))];
  if (mounted.length !== 1 || lines.some((line, i) => targets[i] === undefined && !literals.includes(line)))
    return null;
  const target = mounted[0]!;
  const base = target.startsWith("@/") ? path.join(ROOT, target.slice(2)) : path.resolve(path.dirname(file), target);
  const found = [".ts", ".tsx"].map((ext) => base + ext).find((candidate) => fs.existsSync(candidate));
  if (!found) throw new Error(`${file} mounts ${target}, which is not on disk.`);
  return found;
}

/** TEST TOOL: where a route file's handlers are written: the file itself, or the module it mounts. */
export function handlerFile(file: string): string {
  return mountedModule(file) ?? file;
}

const API_ROOT = path.join(ROOT, "app/api/v1");

/** TEST TOOL: every route file under app/api/v1. */
export function apiRouteFiles(dir = API_ROOT): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? apiRouteFiles(full) : entry.name === "route.ts" ? [full] : [];
  });
}

/** TEST TOOL: `app/api/v1/projects/[projectId]/runs/route.ts` → `/api/v1/projects/{projectId}/runs`, read apart from the route index's generator. */
export function openApiPathOf(file: string): string {
  const dir = path.relative(API_ROOT, path.dirname(file)).split(path.sep).filter(Boolean);
  return ["/api/v1", ...dir.map((segment) => segment.replace(/^\[(\w+)\]$/, "{$1}"))].join("/");
}
