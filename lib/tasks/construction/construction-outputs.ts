/**
 * What seed 004's construction prompts ask the model to return, as zod schemas: the generated Q&A list
 * (Tables 4–8, 20–22), the category (Table 23), the filters' judgements (Tables 25, 27, and the consistency
 * check of Table 28), the answer from annotations (Table 26), six and four wrong answers (Tables 29–30) and a
 * best option (Tables 31–32). Keys are the seed's, as the model is asked to write them.
 */
import { z } from "zod";

const text = z.string().trim().min(1);

export const generatedPairSchema = z.object({ Question: text, Answer: text, Reason: z.string().trim().default("") });
export type GeneratedPair = z.output<typeof generatedPairSchema>;

/**
 * "Return a list which include three question-answer pairs": a JSON array. Some models wrap the list in an
 * object ({"pairs": [...]}) when asked for JSON; the single array value of such an object is accepted too.
 */
export const generatedPairsSchema = z.preprocess(
  (value) => {
    if (Array.isArray(value)) return value;
    if (value && typeof value === "object") {
      const arrays = Object.values(value).filter(Array.isArray);
      if (arrays.length === 1) return arrays[0];
    }
    return value;
  },
  z.array(generatedPairSchema).min(1, "the list has no question-answer pairs"),
);

export const categorySchema = z.object({ Question_type: text, Reason: z.string().default("") });

export const judgementSchema = z.object({
  Judgement: z.string().transform((value, ctx) => {
    const normal = value.trim().replace(/[.!]$/, "").toLowerCase();
    if (normal === "yes") return "Yes" as const;
    if (normal === "no") return "No" as const;
    ctx.addIssue({ code: "custom", message: `Judgement must be "Yes" or "No", not ${JSON.stringify(value)}` });
    return z.NEVER;
  }),
  Reason: z.string().default(""),
});
export type Judgement = z.output<typeof judgementSchema>;

export const annotationAnswerSchema = z.object({ Answer: text, Reason: z.string().default("") });

const wrongAnswers = (count: number) =>
  z
    .object(
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`Wrong_answer${i + 1}`, text])) as Record<
        string,
        typeof text
      >,
    )
    .transform((value) => Array.from({ length: count }, (_, i) => value[`Wrong_answer${i + 1}`]!));

export const sixWrongAnswersSchema = wrongAnswers(6);
export const fourWrongAnswersSchema = wrongAnswers(4);

export const bestOptionSchema = z.object({ Best_option: text, Reason: z.string().default("") });
