/** Server-side (node:crypto): kept out of rubric-prompt.ts so the browser's form preview can import that module. */
import { createHash } from "node:crypto";
import type { RubricDefinition } from "./rubric-definition";
import { answerInstruction, criteriaText } from "./rubric-prompt";

/** The hash steps and the cache record for a rubric version's template: of everything but a step's own values. */
export function rubricTemplateHash(definition: RubricDefinition): string {
  return createHash("sha256")
    .update(
      JSON.stringify({
        prompt: definition.prompt,
        criteria: criteriaText(definition),
        guidelines: definition.guidelines,
        answer: answerInstruction(definition),
        ...(definition.examples?.length ? { examples: definition.examples } : {}),
      }),
    )
    .digest("hex");
}
