import { z } from "zod";

/** A template's text is read whole; the shipped ones are a few kB. */
export const MAX_PROMPT_TEXT_CHARS = 100_000;

export const templateIdSchema = z
  .string()
  .trim()
  .max(200)
  .regex(
    /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)*$/,
    "Not a template id (lower-case path segments such as <task>/<step>).",
  );

export const promptVersionIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "Not a prompt version id.");

export const savePromptVersionSchema = z.object({
  templateId: templateIdSchema,
  /** The whole template: front matter and body, as in the shipped file. */
  text: z
    .string()
    .min(1, "The template is empty.")
    .max(MAX_PROMPT_TEXT_CHARS, `At most ${MAX_PROMPT_TEXT_CHARS} characters.`),
  note: z.string().trim().max(500).default(""),
});
export type SavePromptVersionInput = z.input<typeof savePromptVersionSchema>;

/** A run's prompt versions: template id → a prompt version id, or "shipped" (the default for any template not named). */
export const runPromptVersionsSchema = z
  .record(templateIdSchema, z.union([z.literal("shipped"), promptVersionIdSchema]))
  .refine((map) => Object.keys(map).length <= 50, "At most 50 templates.");
