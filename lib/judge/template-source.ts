import type { TemplateSource } from "./engine/judge-video";
import { createTemplateStore } from "./prompt-templates";

/** The prompt files under prompts/ (or PROMPTS_DIR), each read once per process. */
export function fileTemplateSource(options: { promptsDir?: string } = {}): TemplateSource {
  return createTemplateStore(options);
}
