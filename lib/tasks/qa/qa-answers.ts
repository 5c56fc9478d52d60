/**
 * What goes into the QA prompts and what comes back from the judge. The judge answers seed 004's format,
 * `{"Judgement": "Yes" | "No", "Reason": …}`; "Yes" means the model's answer is correct. Key names are read
 * case-insensitively ("judgment" too) and "Yes."/"no" are accepted; anything else is an error the engine
 * sends back in its one repair request, never a default.
 */
import { z } from "zod";

/** The options as the API prompt lists them after "Options:": one "A. text" line each, from the next line. */
export function optionLinesForAnswer(options: Readonly<Record<string, string>>): string {
  return Object.entries(options)
    .map(([letter, text]) => `\n${letter}. ${text.trim()}`)
    .join("");
}

/** The options as seed 004's Tables 31 and 33 list them: indented "      A. text" lines. */
export function indentedOptionLines(options: Readonly<Record<string, string>>): string {
  return Object.entries(options)
    .map(([letter, text]) => `      ${letter}. ${text.trim()}`)
    .join("\n");
}

/** The correct option as Table 33 writes it: "B. text". */
export const correctOption = (options: Readonly<Record<string, string>>, letter: string) =>
  `${letter}. ${(options[letter] ?? "").trim()}`;

export type Judgement = "Yes" | "No";

const KEY_ALIASES: Record<string, "Judgement" | "Reason"> = {
  judgement: "Judgement",
  judgment: "Judgement",
  reason: "Reason",
};

export const judgementAnswerSchema = z.preprocess(
  (value) => {
    if (!value || typeof value !== "object" || Array.isArray(value)) return value;
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, field]) => [
        KEY_ALIASES[key.trim().toLowerCase()] ?? key,
        field,
      ]),
    );
  },
  z.object({
    Judgement: z
      .string({ error: (issue) => (issue.input === undefined ? 'missing ("Yes" or "No")' : 'must be "Yes" or "No"') })
      .transform((text, ctx): Judgement => {
        const match = /^\s*(yes|no)\s*\.?\s*$/i.exec(text);
        if (!match) {
          ctx.addIssue({
            code: "custom",
            message: `must be "Yes" or "No", not ${JSON.stringify(text.length > 40 ? `${text.slice(0, 39)}…` : text)}`,
          });
          return z.NEVER;
        }
        return match[1]!.toLowerCase() === "yes" ? "Yes" : "No";
      }),
    Reason: z.string({
      error: (issue) => (issue.input === undefined ? "missing (the reason for the judgement)" : "must be a string"),
    }),
  }),
);

export function judgementResponseFormat() {
  return {
    type: "json_schema" as const,
    json_schema: {
      name: "qa_judgement",
      strict: true,
      schema: {
        type: "object",
        properties: {
          Judgement: { type: "string", enum: ["Yes", "No"], description: "Yes when the student's answer is correct" },
          Reason: { type: "string", description: "The reason for the judgement" },
        },
        required: ["Judgement", "Reason"],
        additionalProperties: false,
      },
    },
  };
}
