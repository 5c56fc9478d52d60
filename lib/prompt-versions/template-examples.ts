/**
 * Few-shot examples of a prompt template (issue 26 item 4.2): videos people have judged, shown to the judge with
 * their frames after the judged video's own. They live in the template's front matter, as one `examples:` line
 * holding a JSON array, so they are part of the text a prompt version stores and hashes: the version's hash, the
 * template hash every step records and the response cache key all change with them, and no table holds them.
 * A JSON array fits the front matter's one-line `key: value` format (JSON.stringify never writes a line break).
 *
 *     examples: [{"videoId":"…","prompt":"…","target":"Prompt inconsistency","label":2,"labelText":"2",
 *                 "frames":[{"frameSetId":"…","index":0,"sha256":"…"}]}]
 */

export interface TemplateExampleFrame {
  frameSetId: string;
  index: number;
  sha256: string;
}

export interface TemplateExample {
  videoId: string;
  /** The example video's prompt (at most MAX_EXAMPLE_PROMPT_CHARS). */
  prompt: string;
  /** What the person judged, in words (the target's label: "Prompt inconsistency"). */
  target: string;
  /** The person's value, as a number and as the judge reads it ("2", "yes"). */
  label: number;
  labelText: string;
  frames: TemplateExampleFrame[];
}

export const MAX_TEMPLATE_EXAMPLES = 8;
export const MAX_EXAMPLE_FRAMES = 2;
export const MAX_EXAMPLE_PROMPT_CHARS = 2000;

/** The first and last lines of the block the engine appends after the body (the stub LLM reads the block by them). */
export const TEMPLATE_EXAMPLES_HEADER =
  "Examples people have judged (their frames are attached after this video's frames, in this order):";
export const TEMPLATE_EXAMPLES_END = "End of the examples.";

const KEYS = ["videoId", "prompt", "target", "label", "labelText", "frames"];
const FRAME_KEYS = ["frameSetId", "index", "sha256"];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * The `examples` front-matter value checked: a JSON array of at most 8 examples, each with 1–2 frames. Throws an
 * Error whose message says which entry and field is wrong (parseTemplate makes it a TemplateError).
 */
export function parseTemplateExamples(text: string): TemplateExample[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(
      `\`examples\` must be a JSON array on its line (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  if (!Array.isArray(value)) throw new Error("`examples` must be a JSON array of examples.");
  if (value.length > MAX_TEMPLATE_EXAMPLES)
    throw new Error(`\`examples\` holds ${value.length} examples; at most ${MAX_TEMPLATE_EXAMPLES}.`);
  return value.map((entry: unknown, i) => {
    const where = `\`examples\` entry ${i + 1}`;
    if (!isRecord(entry))
      throw new Error(`${where} must be an object {videoId, prompt, target, label, labelText, frames}.`);
    const unknown = Object.keys(entry).filter((k) => !KEYS.includes(k));
    if (unknown.length)
      throw new Error(`${where} has unknown field(s) ${unknown.join(", ")}; the fields are ${KEYS.join(", ")}.`);
    const { videoId, prompt, target, label, labelText, frames } = entry;
    if (typeof videoId !== "string" || !videoId) throw new Error(`${where}: videoId must be a video's id.`);
    if (typeof prompt !== "string" || prompt.length > MAX_EXAMPLE_PROMPT_CHARS)
      throw new Error(`${where}: prompt must be a text of at most ${MAX_EXAMPLE_PROMPT_CHARS} characters.`);
    if (typeof target !== "string" || !target.trim())
      throw new Error(`${where}: target must name what the person judged.`);
    if (typeof label !== "number" || !Number.isFinite(label)) throw new Error(`${where}: label must be a number.`);
    if (typeof labelText !== "string" || !labelText.trim())
      throw new Error(`${where}: labelText must be the label as the judge reads it.`);
    if (!Array.isArray(frames) || frames.length < 1 || frames.length > MAX_EXAMPLE_FRAMES)
      throw new Error(`${where}: frames must list 1 to ${MAX_EXAMPLE_FRAMES} frames.`);
    const checked = frames.map((frame: unknown, j) => {
      const at = `${where}, frame ${j + 1}`;
      if (!isRecord(frame) || Object.keys(frame).some((k) => !FRAME_KEYS.includes(k)))
        throw new Error(`${at} must be {frameSetId, index, sha256}.`);
      if (typeof frame.frameSetId !== "string" || !frame.frameSetId)
        throw new Error(`${at}: frameSetId must be a frame set's id.`);
      if (typeof frame.index !== "number" || !Number.isInteger(frame.index) || frame.index < 0)
        throw new Error(`${at}: index must be a frame's index (0 or more).`);
      if (typeof frame.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(frame.sha256))
        throw new Error(`${at}: sha256 must be 64 lower-case hex digits.`);
      return { frameSetId: frame.frameSetId, index: frame.index, sha256: frame.sha256 };
    });
    return { videoId, prompt, target, label, labelText, frames: checked };
  });
}

/** A template's text with its `examples:` front-matter line set to these (replaced when it has one, else added last). */
export function withTemplateExamples(raw: string, examples: readonly TemplateExample[]): string {
  const text = raw.replace(/\r\n/g, "\n");
  const close = text.indexOf("\n---\n", 3);
  if (!text.startsWith("---\n") || close < 0) throw new Error("The template has no front matter to hold examples.");
  const header = text
    .slice(4, close)
    .split("\n")
    .filter((line) => !/^examples:/.test(line));
  const line = `examples: ${JSON.stringify(examples)}`;
  return `---\n${[...header, line].join("\n")}${text.slice(close)}`;
}

/**
 * The block the engine appends after the rendered body: one line per example, in the order their frames follow
 * the judged video's frames.
 */
export function templateExamplesText(examples: readonly TemplateExample[]): string {
  return [
    TEMPLATE_EXAMPLES_HEADER,
    ...examples.map(
      (e, k) =>
        `Example ${k + 1} (${e.frames.length} frame${e.frames.length === 1 ? "" : "s"}): prompt ${JSON.stringify(e.prompt)}; the person's value of ${e.target}: ${e.labelText}`,
    ),
    TEMPLATE_EXAMPLES_END,
  ].join("\n");
}
