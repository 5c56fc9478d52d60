/**
 * AnyCapEval's caption types. The style types are judged with the caption rubric (seed 003), the content
 * types with the key-point check. Types outside both lists are kept as the file gives them: a reference
 * set may bring types FrameJury does not know yet, and dropping or renaming them would lose data.
 */
export const CAPTION_STYLE_TYPES = ["brief", "detail", "poem", "narrative", "theme"] as const;
export const CAPTION_CONTENT_TYPES = ["action", "background", "event", "instance", "perspective", "position"] as const;

/** The types the mandatory ±10% word-count rule of seed 003 covers. */
export const LENGTH_RULE_TYPES = ["brief", "detail"] as const;

export type CaptionStyleType = (typeof CAPTION_STYLE_TYPES)[number];
export type CaptionContentType = (typeof CAPTION_CONTENT_TYPES)[number];

export function isStyleCaptionType(type: string): type is CaptionStyleType {
  return (CAPTION_STYLE_TYPES as readonly string[]).includes(type);
}

export function isContentCaptionType(type: string): type is CaptionContentType {
  return (CAPTION_CONTENT_TYPES as readonly string[]).includes(type);
}

/**
 * The name the rubric prompt uses for a stored type. AnyCapEval calls the rubric's "style" captions
 * "theme"; the stored type stays "theme" (it is what the file said), only the prompt's {caption_type} says "style".
 */
export function promptCaptionType(storedType: string): string {
  return storedType === "theme" ? "style" : storedType;
}
