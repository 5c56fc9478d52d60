/**
 * lmms-eval's `--log_samples` output (`samples_<task>_<date>.jsonl`) read as harness rows: one JSON object per
 * line with `doc_id`, `doc` (the dataset row), `target`, `resps` and `filtered_resps` (the model's answer, nested in lists).
 */
import { answerLetter, asText, LETTERED, LETTERS, type HarnessRow, type HarnessRowError } from "./harness-rows";

function firstString(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (Array.isArray(value))
    for (const inner of value) {
      const found = firstString(inner);
      if (found !== null) return found;
    }
  return null;
}

/** Options as a list: "A. text" entries keep their letter, plain texts (MVBench's candidates) are lettered in order. */
function optionsOfList(list: readonly unknown[]): Record<string, string> | null {
  const texts = list.map(asText);
  if (texts.length < 2 || texts.some((t) => t === null)) return null;
  const options: Record<string, string> = {};
  const allLettered = texts.every((t, i) => LETTERED.exec(t!.trim())?.[1] === LETTERS[i]);
  texts.forEach((t, i) => (options[LETTERS[i]!] = allLettered ? t!.trim().replace(LETTERED, "") : t!.trim()));
  return options;
}

/** The options and answer of an lmms-eval sample's doc: Video-MME's `options`, MVBench's `candidates`, EgoSchema's `option`. */
function lmmsOptionsAndAnswer(
  doc: Record<string, unknown>,
  target: unknown,
): { options: Record<string, string> | null; answer: string | null } {
  const list = [doc.options, doc.candidates, doc.option].find(Array.isArray) as unknown[] | undefined;
  const options = list ? optionsOfList(list) : null;
  const answer = asText(doc.answer) ?? asText(target);
  return options ? { options, answer: answerLetter(answer, options) } : { options: null, answer };
}

/** lmms-eval's log_samples JSONL: every line one sample. */
export function parseLmmsEvalSamples(text: string): { rows: HarnessRow[]; errors: HarnessRowError[] } {
  const rows: HarnessRow[] = [];
  const errors: HarnessRowError[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === "") return;
    let sample: unknown;
    try {
      sample = JSON.parse(raw);
    } catch {
      errors.push({ line, message: "not a JSON object (lmms-eval writes one sample per line)" });
      return;
    }
    if (typeof sample !== "object" || sample === null || Array.isArray(sample)) {
      errors.push({ line, message: "not a JSON object (lmms-eval writes one sample per line)" });
      return;
    }
    const record = sample as Record<string, unknown>;
    const doc = (typeof record.doc === "object" && record.doc !== null ? record.doc : {}) as Record<string, unknown>;
    const prediction = firstString(record.filtered_resps) ?? firstString(record.resps);
    const question = asText(doc.question);
    const video =
      asText(doc.videoID) ??
      asText(doc.video_idx) ??
      asText(doc.video_id) ??
      asText(doc.video) ??
      asText(doc.video_name);
    const id = asText(doc.question_id) ?? asText(record.doc_id);
    const { options, answer } = lmmsOptionsAndAnswer(doc, record.target);
    const problems: string[] = [];
    if (prediction === null) problems.push("no prediction: neither filtered_resps nor resps holds the model's answer");
    if (question === null) problems.push("no question: doc.question is missing or empty");
    if (problems.length) errors.push(...problems.map((message) => ({ line, message })));
    else rows.push({ line, id, video, question, prediction: prediction!, options, answer });
  });
  return { rows, errors };
}
