import fs from "node:fs";
import path from "node:path";

/** The real VBench-2.0 prompt suite shared next to the project; tests read it, never copy it. */
export const VBENCH_PROMPTS_DIR = path.resolve(import.meta.dirname, "../../../shared/vbench2-prompts");

export function readVbenchFile(relativePath: string): string {
  return fs.readFileSync(path.join(VBENCH_PROMPTS_DIR, relativePath), "utf8");
}

export function vbenchDimensionFileNames(): string[] {
  return fs.readdirSync(path.join(VBENCH_PROMPTS_DIR, "prompt")).filter((name) => name.endsWith(".txt"));
}

/** A record of VBench's JSON prompt list (its own field names: `caption` is the prompt). */
export interface VbenchInfoRecord {
  caption: string;
  dimension: string[];
}

export function readVbenchInfo(): Record<string, VbenchInfoRecord> {
  return JSON.parse(readVbenchFile("VBench2_full_text_info.json")) as Record<string, VbenchInfoRecord>;
}
