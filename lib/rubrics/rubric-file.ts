/**
 * Rubric files: a rubric task's definition shared as JSON or YAML (the three examples under
 * lib/rubrics/examples/ are such files). Import reads either; export writes YAML, which keeps multi-line
 * prompts and guidelines readable in review.
 */
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { ValidationError } from "../errors";
import type { RubricDefinition } from "./rubric-definition";

/** The largest rubric file read (a definition's fields are bounded far below this). */
export const MAX_RUBRIC_FILE_BYTES = 256 * 1024;

/** The file's content as data: JSON when it starts with `{`, otherwise YAML (which JSON is also). */
export function parseRubricFile(text: string): unknown {
  if (Buffer.byteLength(text, "utf8") > MAX_RUBRIC_FILE_BYTES)
    throw new ValidationError(`A rubric file is at most ${MAX_RUBRIC_FILE_BYTES / 1024} KB.`);
  const trimmed = text.replace(/^\uFEFF/, "").trim();
  if (!trimmed) throw new ValidationError("The rubric file is empty.");
  try {
    if (trimmed.startsWith("{")) return JSON.parse(trimmed) as unknown;
    return parseYaml(trimmed, { maxAliasCount: 50 }) as unknown;
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new ValidationError(`The rubric file is neither JSON nor YAML: ${message}`);
  }
}

/** The definition as a YAML file, keys in the definition's own order. */
export function rubricFileText(definition: RubricDefinition): string {
  return `# FrameJury rubric task (import it on a project's Rubric tasks page)\n${stringifyYaml(definition, { lineWidth: 0 })}`;
}
