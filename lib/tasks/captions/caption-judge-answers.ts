/**
 * The caption judges' answers, as zod schemas the engine's parser (parse-llm-output.ts) validates against;
 * a failure's message names what is wrong, and the engine sends it back in its one repair request.
 *
 * Style (seed 003): `{"score": 0–4, "reason": "…"}`. The score is a whole number 0–4; like every judge score
 * in FrameJury it may come as a numeric string ("3"), and anything else (5, 2.5, "2.5", "three") is an
 * error, never clamped or rounded. The reason is required, as the seed's format asks for it.
 *
 * Content (AnyCapEval's key-point check), FrameJury's format:
 *     {"key_points": [{"key_point": "<the key point, copied>", "score": 0 | 1, "reason": "…"}, …], "total": n}
 * One entry per key point of the item, in the item's order (or each with an "index", 1-based, in any order),
 * whose text is the key point's (compared trimmed, with runs of whitespace as one space); scores 0 or 1;
 * `total` equal to their sum. The parsed value is in the item's key-point order with the item's own texts.
 */
import { z } from "zod";
import { boundedScore } from "../../judge/calls/parse-llm-output";

export const captionStyleAnswerSchema = z.object({
  score: boundedScore(0, 4, { integer: true }),
  reason: z.string({
    error: (issue) => (issue.input === undefined ? "missing (a one- or two-sentence explanation)" : "must be a string"),
  }),
});

export type CaptionStyleAnswer = z.infer<typeof captionStyleAnswerSchema>;

export interface KeyPointScore {
  /** 1-based position among the item's key points. */
  index: number;
  keyPoint: string;
  score: 0 | 1;
  reason: string;
}

export interface CaptionContentAnswer {
  keyPoints: KeyPointScore[];
  total: number;
}

/** Trimmed, with every run of whitespace as one space: how key point texts are compared. */
export function normalizeKeyPoint(text: string): string {
  return text.trim().replace(/\s+/gu, " ");
}

/** The key points as the content prompt lists them: one numbered line each. */
export function formatKeyPoints(keyPoints: readonly string[]): string {
  return keyPoints.map((keyPoint, i) => `${i + 1}. ${normalizeKeyPoint(keyPoint)}`).join("\n");
}

const entrySchema = z.object({
  index: z
    .number({ error: "must be a whole number (the key point's position, from 1)" })
    .int("must be a whole number (the key point's position, from 1)")
    .optional(),
  key_point: z.string({
    error: (issue) => (issue.input === undefined ? "missing (the key point's text)" : "must be a string"),
  }),
  score: boundedScore(0, 1, { integer: true }),
  reason: z.string({ error: (issue) => (issue.input === undefined ? "missing (why the score)" : "must be a string") }),
});

const contentShape = z.object({
  key_points: z.array(entrySchema, {
    error: (issue) => (issue.input === undefined ? "missing (one entry per key point)" : "must be a list of entries"),
  }),
  total: z.number({
    error: (issue) =>
      issue.input === undefined ? "missing (the sum of the scores)" : "must be a number (the sum of the scores)",
  }),
});

const quote = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 79)}…` : text);

/** The schema for one item's content answer; it checks the answer against that item's key points. */
export function captionContentAnswerSchema(itemKeyPoints: readonly string[]): z.ZodType<CaptionContentAnswer> {
  if (itemKeyPoints.length === 0) throw new Error("A content answer needs an item with at least one key point.");
  const expected = itemKeyPoints.map(normalizeKeyPoint);
  return contentShape
    .superRefine((answer, ctx) => {
      const entries = answer.key_points;
      if (entries.length !== expected.length) {
        ctx.addIssue({
          code: "custom",
          path: ["key_points"],
          message: `has ${entries.length} entr${entries.length === 1 ? "y" : "ies"}; there must be exactly ${expected.length}, one per key point`,
        });
        return;
      }
      const byIndex = entries.some((entry) => entry.index !== undefined);
      if (byIndex) {
        const seen = new Set<number>();
        entries.forEach((entry, position) => {
          if (entry.index === undefined)
            ctx.addIssue({
              code: "custom",
              path: ["key_points", position, "index"],
              message: "missing (give every entry an index, or none)",
            });
          else if (entry.index < 1 || entry.index > expected.length)
            ctx.addIssue({
              code: "custom",
              path: ["key_points", position, "index"],
              message: `${entry.index} is not a key point (1–${expected.length})`,
            });
          else if (seen.has(entry.index))
            ctx.addIssue({
              code: "custom",
              path: ["key_points", position, "index"],
              message: `key point ${entry.index} is scored twice`,
            });
          else seen.add(entry.index);
        });
      }
      entries.forEach((entry, position) => {
        const index = byIndex ? entry.index : position + 1;
        if (index === undefined || index < 1 || index > expected.length) return;
        if (normalizeKeyPoint(entry.key_point) !== expected[index - 1]) {
          ctx.addIssue({
            code: "custom",
            path: ["key_points", position, "key_point"],
            message: `is ${quote(entry.key_point)}, but key point ${index} is ${quote(expected[index - 1]!)} (copy each key point exactly, in order)`,
          });
        }
      });
      const sum = entries.reduce((total, entry) => total + entry.score, 0);
      if (answer.total !== sum)
        ctx.addIssue({
          code: "custom",
          path: ["total"],
          message: `is ${answer.total}, but the scores add up to ${sum}`,
        });
    })
    .transform((answer) => {
      const scored = answer.key_points.map((entry, position) => ({ index: entry.index ?? position + 1, entry }));
      scored.sort((a, b) => a.index - b.index);
      return {
        keyPoints: scored.map(({ index, entry }) => ({
          index,
          keyPoint: itemKeyPoints[index - 1]!,
          score: entry.score as 0 | 1,
          reason: entry.reason,
        })),
        total: answer.total,
      };
    });
}

/** JSON Schemas for structured output (OpenAI `response_format`), when the endpoint supports it. */
export function captionStyleResponseFormat() {
  return {
    type: "json_schema" as const,
    json_schema: {
      name: "caption_style",
      strict: true,
      schema: {
        type: "object",
        properties: {
          score: { type: "integer", minimum: 0, maximum: 4, description: "The rubric score" },
          reason: { type: "string", description: "A one- or two-sentence explanation" },
        },
        required: ["score", "reason"],
        additionalProperties: false,
      },
    },
  };
}

export function captionContentResponseFormat() {
  return {
    type: "json_schema" as const,
    json_schema: {
      name: "caption_content",
      strict: true,
      schema: {
        type: "object",
        properties: {
          key_points: {
            type: "array",
            items: {
              type: "object",
              properties: {
                key_point: { type: "string", description: "The key point, copied exactly" },
                score: { type: "integer", enum: [0, 1] },
                reason: { type: "string" },
              },
              required: ["key_point", "score", "reason"],
              additionalProperties: false,
            },
          },
          total: { type: "integer", description: "The sum of the scores" },
        },
        required: ["key_points", "total"],
        additionalProperties: false,
      },
    },
  };
}
