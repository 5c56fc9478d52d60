import type { PromptVersionRef } from "../engine/step-store";
import { createTemplateStore, parseTemplate, renderTemplate } from "../../prompt-versions/prompt-templates";
import type { TemplateExample } from "../../prompt-versions/template-examples";

/** Where the engine's steps get their prompt templates (lib/judge/engine/build-request.ts reads it; tests hand it fakes). */
export interface TemplateSource {
  /** `meta` is the template's front matter; its `system` field says whether the first paragraph goes in the system role. */
  /** `examples`: the template's few-shot examples, which the engine shows after the body with their frames. */
  get(id: string): {
    hash: string;
    meta?: Readonly<Record<string, string>>;
    examples?: readonly TemplateExample[];
    render(values: Record<string, string>): string;
  };
}

/** The prompt files under prompts/ (or PROMPTS_DIR), each read once per process. */
export function fileTemplateSource(options: { promptsDir?: string } = {}): TemplateSource {
  return createTemplateStore(options);
}

/**
 * A run's templates: its prompt versions (an owner's edits, lib/prompt-versions) where it names one,
 * the shipped templates otherwise. A version renders and hashes its own stored text, so its steps
 * record its hash and its answers are cached apart from the shipped template's.
 */
export function withPromptVersions(
  shipped: TemplateSource,
  versions: Readonly<Record<string, PromptVersionRef>>,
): TemplateSource {
  if (Object.keys(versions).length === 0) return shipped;
  const parsed = new Map<
    string,
    {
      hash: string;
      meta: Record<string, string>;
      examples?: readonly TemplateExample[];
      render(values: Record<string, string>): string;
    }
  >();
  return {
    get(id) {
      const version = versions[id];
      if (!version) return shipped.get(id);
      let loaded = parsed.get(id);
      if (!loaded) {
        const template = parseTemplate(version.text, id);
        loaded = {
          hash: version.hash,
          meta: template.meta,
          ...(template.examples ? { examples: template.examples } : {}),
          render: (values) => renderTemplate(template, values),
        };
        parsed.set(id, loaded);
      }
      return loaded;
    },
  };
}
