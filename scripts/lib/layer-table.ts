import table from "../layers.json";
import { importCircles } from "./import-graph";

/*
 * The layer table (scripts/layers.json) read as code: which unit of lib/ a file belongs to (a folder, a top-level
 * file, or a pattern such as lib/tasks/* for every task's folder), the unit's layer, and the imports among units that
 * break the table: an import from a higher layer, or a circle among units of one layer. eslint.config.mjs reads the
 * same table for its layer zones.
 */

export interface Layer {
  name: string;
  job: string;
  folders: string[];
}

/** An import the table forbids that still occurs, with the files that make it and why it remains. */
export interface AllowedImport {
  from: string;
  to: string;
  files: string[];
  why: string;
}

export const LIB_LAYERS: readonly Layer[] = table.layers;
export const ALLOWED: readonly AllowedImport[] = table.allowed;

const layerOfUnit = new Map(LIB_LAYERS.flatMap((layer, rank) => layer.folders.map((unit) => [unit, rank] as const)));

/** Whether `file` (repository-relative) lies in `unit`: the unit itself, or below it, `*` standing for one folder. */
function inUnit(file: string, unit: string): boolean {
  const unitParts = unit.split("/");
  const fileParts = file.split("/");
  if (fileParts.length < unitParts.length) return false;
  if (!unitParts.every((part, i) => part === "*" || part === fileParts[i])) return false;
  return fileParts.length > unitParts.length || /\.tsx?$/.test(unit);
}

/** The table's unit `file` belongs to (the most specific one), or null for a file outside lib/. */
export function unitOf(file: string): string | null {
  if (!file.startsWith("lib/")) return null;
  const units = [...layerOfUnit.keys()].filter((unit) => inUnit(file, unit));
  if (units.length === 0) throw new Error(`${file} is in no unit of scripts/layers.json: add its folder to a layer`);
  return units.reduce((a, b) => (b.split("/").length > a.split("/").length ? b : a));
}

/** The layer's rank (0 is the bottom) of a unit of the table. */
export function rankOf(unit: string): number {
  const rank = layerOfUnit.get(unit);
  if (rank === undefined) throw new Error(`${unit} is not a unit of scripts/layers.json`);
  return rank;
}

/** An import from one unit to another, with the files (repository-relative) of `from` that make it. */
export interface UnitImport {
  from: string;
  to: string;
  files: string[];
}

/** The imports among the table's units in a file graph of lib/: each pair of units once, with its files sorted. */
export function unitImports(graph: Map<string, Set<string>>): UnitImport[] {
  const files = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = unitOf(file);
    if (!from) continue;
    for (const target of targets) {
      const to = unitOf(target);
      if (!to || to === from) continue;
      const key = `${from} → ${to}`;
      files.set(key, (files.get(key) ?? new Set()).add(file));
    }
  }
  return [...files].map(([key, from]) => {
    const [fromUnit, toUnit] = key.split(" → ") as [string, string];
    return { from: fromUnit, to: toUnit, files: [...from].sort() };
  });
}

/**
 * What breaks the table once the allowed imports are set aside: imports from a higher layer (`a → b: file, …`),
 * circles among units of one layer (`circle: a, b, …`), and allowed imports that no longer occur or whose files
 * changed (`stale allowance: …`), so the allowance only shrinks.
 */
export function layerViolations(imports: readonly UnitImport[], allowed: readonly AllowedImport[]): string[] {
  const allowance = new Map(allowed.map((entry) => [`${entry.from} → ${entry.to}`, entry]));
  const problems: string[] = [];
  const kept = new Map<string, Set<string>>();
  for (const { from, to, files } of imports) {
    const key = `${from} → ${to}`;
    const entry = allowance.get(key);
    allowance.delete(key);
    const unlisted = files.filter((file) => !entry?.files.includes(file));
    const gone = entry?.files.filter((file) => !files.includes(file)) ?? [];
    if (gone.length > 0) problems.push(`stale allowance: ${key} no longer imported by ${gone.join(", ")}`);
    if (entry && unlisted.length > 0) problems.push(`${key} (allowed for other files): ${unlisted.join(", ")}`);
    if (entry) continue;
    if (rankOf(to) > rankOf(from)) problems.push(`${key}: ${files.join(", ")}`);
    else if (rankOf(to) === rankOf(from)) kept.set(from, (kept.get(from) ?? new Set()).add(to));
  }
  for (const key of allowance.keys()) problems.push(`stale allowance: ${key} no longer occurs`);
  for (const circle of importCircles(kept)) problems.push(`circle: ${circle.join(", ")}`);
  return problems;
}
