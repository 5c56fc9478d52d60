import fs from "node:fs";
import path from "node:path";
import { sharedDataPath } from "../testing/shared-data";

export function readVbenchFile(relativePath: string): string {
  return fs.readFileSync(sharedDataPath(path.join("vbench2-prompts", relativePath)), "utf8");
}

export function vbenchDimensionFileNames(): string[] {
  return fs.readdirSync(sharedDataPath("vbench2-prompts/prompt")).filter((name) => name.endsWith(".txt"));
}

/** A record of VBench's JSON prompt list (its own field names: `caption` is the prompt). */
export interface VbenchInfoRecord {
  caption: string;
  dimension: string[];
}

export function readVbenchInfo(): Record<string, VbenchInfoRecord> {
  return JSON.parse(readVbenchFile("VBench2_full_text_info.json")) as Record<string, VbenchInfoRecord>;
}
