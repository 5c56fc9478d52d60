import { z } from "zod";

/**
 * An aspect is the criterion a pair is compared on. `levels` 4 asks for A, B, both good or both bad; 5 adds strength
 * (A>>B, A>B, …). Ids are lower-case slugs, so a name like `__proto__` can never become one.
 */
export const aspectIdSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,63}$/, "an aspect id is a lower-case slug (a–z first, then a–z, 0–9, _ or -)")
  .refine((id) => !["__proto__", "constructor", "prototype"].includes(id), "not a usable aspect id");

export const aspectSchema = z.object({
  id: aspectIdSchema,
  label: z.string().trim().min(1).max(120),
  guideline: z.string().max(4000).default(""),
  levels: z.union([z.literal(4), z.literal(5)]).default(4),
});
export type Aspect = z.infer<typeof aspectSchema>;

export const aspectListSchema = z
  .array(aspectSchema)
  .min(1)
  .max(20)
  .refine((aspects) => new Set(aspects.map((aspect) => aspect.id)).size === aspects.length, "aspect ids repeat");

/** The aspects a new pair set offers when its maker names none. */
export const DEFAULT_ASPECTS: Aspect[] = [
  {
    id: "overall",
    label: "Overall",
    guideline: "Which video is better overall, as a viewer would judge it?",
    levels: 4,
  },
  {
    id: "text_alignment",
    label: "Text alignment",
    guideline: "Which video shows what the prompt asks for: its objects, their attributes, actions and their order?",
    levels: 4,
  },
  {
    id: "physics",
    label: "Physics",
    guideline:
      "Which video moves plausibly: objects keep their shape and number, fall, collide and flow as they would?",
    levels: 4,
  },
  {
    id: "visual_quality",
    label: "Visual quality",
    guideline: "Which video looks better: sharpness, no artefacts or flicker, steady subjects and background?",
    levels: 4,
  },
];
