/**
 * A rubric task's definition: what a lab writes (in the Rubric tasks form, through the API, or as a JSON or
 * YAML file) to get a video judge without code. Plain data and pure functions: the browser's form preview
 * validates with the same code the server saves with.
 *
 * Modelled on the text-only judge builders labs know (MLflow's make_judge, Langfuse's evaluator output
 * definitions, LangSmith's Categorical/ContinuousScoreConfig), plus what video needs: which frames the
 * judge sees and per-frame or per-cluster scopes.
 */
import { z } from "zod";

/** A criterion's id: stored with every score, so short, lower-case and stable. */
export const CRITERION_ID = /^[a-z][a-z0-9_]{0,19}$/;

/** The variables a rubric prompt may use (`{{item.<field>}}` for each declared item field). */
export const RUBRIC_VARIABLES = ["prompt", "criteria", "frames", "guidelines"] as const;

const text = (max: number) => z.string().trim().max(max);

const numericCriterion = z.strictObject({
  type: z.literal("numeric"),
  min: z.number().finite(),
  max: z.number().finite(),
  /** null or absent: any number in between. */
  step: z.number().positive().nullable().optional(),
  /** Binarised as positive at or above this (agreement's κ/F1); the scale's midpoint when absent. */
  positiveAtLeast: z.number().finite().optional(),
  positiveLabel: text(40).min(1).optional(),
});

const categoricalCriterion = z.strictObject({
  type: z.literal("categorical"),
  labels: z.array(z.strictObject({ label: text(60).min(1), definition: text(2000).default("") })).max(20),
  /** Ordered labels (worst to best, or the order they are written) are ordinal; unordered ones nominal. */
  ordered: z.boolean().default(false),
  /** The label that counts as positive when binarised; the last label when absent. */
  positiveLabel: text(60).min(1).optional(),
});

const booleanCriterion = z.strictObject({
  type: z.literal("boolean"),
  /** What "yes" means, for the positive class's name ("yes" when absent). */
  positiveLabel: text(40).min(1).optional(),
});

const criterionBase = {
  id: z.string().regex(CRITERION_ID, "1–20 lower-case letters, digits or _, starting with a letter"),
  name: text(80).min(1),
  definition: text(4000).min(1),
  /**
   * How a per-key-frame or per-cluster value becomes the video's (the list's column and filters): mean, max,
   * min or the majority value. Ignored when the criterion is scored once per video or item.
   */
  aggregation: z.enum(["mean", "max", "min", "majority"]).optional(),
  /** Is a higher value (a later label, yes) better? Sorting "worst first" and presence read it. */
  higherIsBetter: z.boolean().default(true),
  /**
   * "Present" once the value reaches this: presence-first review asks people present/absent, and the judge's
   * presence is its maximum over the video's scopes reaching it. Only for a numeric criterion where higher is
   * worse (the intensity of a defect).
   */
  presence: z.strictObject({ threshold: z.number().finite(), absentValue: z.number().finite() }).optional(),
  /**
   * Self-consistency samples or a judge panel flag a value unstable when their spread reaches this: SD on a
   * numeric scale, entropy in bits on labels (lib/ensembles; the default is derived from the scale).
   */
  unstableAt: z.number().positive().finite().optional(),
  /**
   * Ask the judge where the criterion fails: the prompt numbers the frames with their times, the answer names the
   * frames where it fails, and consecutive ones become the run's spans of the criterion (absent: not asked).
   */
  localize: z.boolean().optional(),
  /**
   * How this criterion's frames go to the judge in a video input mode, where it differs from the rubric's
   * (`frames.input`): "images" for a criterion about what one frame shows, "video" for one about motion. Criteria
   * that differ from the rubric's are judged in a call of their own (lib/rubrics/rubric-calls.ts); absent: the
   * rubric's.
   */
  input: z.enum(["images", "video"]).optional(),
};

export const criterionSchema = z.discriminatedUnion("type", [
  numericCriterion.extend(criterionBase),
  categoricalCriterion.extend(criterionBase),
  booleanCriterion.extend(criterionBase),
]);

/**
 * The frame size: the longest side in px. A uniform set is extracted at that size; key frames and clusters are
 * scaled down to it before they are sent (never up).
 */
const longestSide = z.int().min(64).max(4096).optional();

/**
 * How a scope's frames go to the judge when the run is in a video input mode (lib/judge/input-modes.ts): "video"
 * (the default) as one video part, or the clip; "images" as stills whatever the run's mode (criteria about what one
 * frame shows). The rubric's own, for every criterion that does not name its own `input`. In an `images` run every
 * frame is an image.
 */
const input = z.enum(["images", "video"]).optional();

export const rubricFramesSchema = z.discriminatedUnion("mode", [
  /** N frames spread evenly over the video, in one call (the video's uniform frame set of N). */
  z.strictObject({ mode: z.literal("uniform"), count: z.int().min(1).max(64), longestSide, input }),
  /** Every key frame of the video, in one call. */
  z.strictObject({ mode: z.literal("key_frames"), longestSide, input }),
  /** Each key frame is its own scope: one call and one value per key frame. */
  z.strictObject({ mode: z.literal("each_key_frame"), longestSide, input }),
  /** Each key frame's cluster of neighbouring frames is its own scope: one call and one value per cluster. */
  z.strictObject({ mode: z.literal("each_cluster"), longestSide, input }),
]);

const itemFieldId = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, "lower-case letters, digits or _");
/** A field each item carries (`{{item.<id>}}`); a bare id is shorthand for a required field labelled with it. */
const itemFieldSchema = z.union([
  itemFieldId.transform((id) => ({ id, label: id, required: true })),
  z.strictObject({ id: itemFieldId, label: text(80).min(1), required: z.boolean().default(true) }),
]);

export const rubricSubjectSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("video") }),
  /**
   * Each item of an item set of the project (imported with the generic item importer), with the fields the
   * rubric names: `{{item.<field>}}` renders them.
   */
  z.strictObject({
    kind: z.literal("item"),
    fields: z.array(itemFieldSchema).min(1).max(20),
  }),
]);

const recordId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

/**
 * A few-shot example (an alignment's few-shot candidate adds them, lib/alignment): a labelled video of the project,
 * its frames attached as images after the judged video's, and the expected answer of the criteria it was labelled on.
 * A frame is named by its frame set and index: the pipeline reads it from the task's own project's storage only.
 */
export const rubricExampleSchema = z.strictObject({
  videoId: recordId,
  prompt: text(2000).default(""),
  frames: z
    .array(
      z.strictObject({
        id: recordId,
        frameSetId: recordId,
        index: z.int().min(0).max(99_999),
        timestampS: z.number().finite().min(0),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
      }),
    )
    .min(1)
    .max(4),
  answer: z.record(z.string().regex(CRITERION_ID), z.union([z.number().finite(), z.boolean(), text(60)])),
});
export type RubricExample = z.output<typeof rubricExampleSchema>;

/** The file format, the API body and what a version stores. */
export const rubricDefinitionSchema = z.strictObject({
  name: text(80).min(1),
  description: text(2000).default(""),
  /** Markdown, shown to reviewers and available to the prompt as {{guidelines}}. */
  guidelines: text(20000).default(""),
  subject: rubricSubjectSchema.default({ kind: "video" }),
  frames: rubricFramesSchema,
  criteria: z.array(criterionSchema).min(1).max(30),
  /** The prompt template: `{{prompt}}`, `{{item.<field>}}`, `{{criteria}}`, `{{frames}}`, `{{guidelines}}`. */
  prompt: text(20000).min(1),
  /** Ask for a reason with each criterion's value (shown beside the score; longer answers cost more). */
  reasons: z.boolean().default(false),
  /** Few-shot examples shown before the answer instruction (absent: none). */
  examples: z.array(rubricExampleSchema).max(8).optional(),
});

export type RubricDefinition = z.output<typeof rubricDefinitionSchema>;
export type RubricDefinitionInput = z.input<typeof rubricDefinitionSchema>;
export type RubricCriterion = z.output<typeof criterionSchema>;

/** One problem of a definition, with the field it is in (a path such as "criteria.2.max"). */
export interface RubricProblem {
  path: string;
  message: string;
}

const PLACEHOLDER = /\{\{\s*([^}]*?)\s*\}\}/g;

/** The variables a prompt uses, as written between the braces. */
export function promptVariables(prompt: string): string[] {
  return [...new Set(Array.from(prompt.matchAll(PLACEHOLDER), (m) => m[1]!))];
}

/** The scope each criterion is scored at, from the frames and the subject. */
export function rubricScope(
  definition: Pick<RubricDefinition, "frames" | "subject">,
): "video" | "key_frame" | "cluster" | "item" {
  if (definition.subject.kind === "item") return "item";
  if (definition.frames.mode === "each_key_frame") return "key_frame";
  if (definition.frames.mode === "each_cluster") return "cluster";
  return "video";
}

type Criterion = RubricDefinition["criteria"][number];

/** A numeric criterion's range, step and presence rule. */
function numericProblems(
  criterion: Extract<Criterion, { type: "numeric" }>,
  at: (field: string) => string,
  subjectKind: RubricDefinition["subject"]["kind"],
): RubricProblem[] {
  if (!(criterion.max > criterion.min))
    return [{ path: at("max"), message: `max (${criterion.max}) must be greater than min (${criterion.min})` }];
  const problems: RubricProblem[] = [];
  const inRange = (value: number) => value >= criterion.min && value <= criterion.max;
  if (criterion.step && criterion.step > criterion.max - criterion.min)
    problems.push({ path: at("step"), message: "the step is larger than the range" });
  if (criterion.positiveAtLeast !== undefined && !inRange(criterion.positiveAtLeast))
    problems.push({
      path: at("positiveAtLeast"),
      message: `${criterion.positiveAtLeast} is outside ${criterion.min}–${criterion.max}`,
    });
  if (criterion.presence) {
    if (criterion.higherIsBetter)
      problems.push({
        path: at("presence"),
        message:
          "a presence rule needs a criterion where higher is worse (the intensity of a defect): set higherIsBetter to false",
      });
    if (!inRange(criterion.presence.threshold))
      problems.push({
        path: at("presence.threshold"),
        message: `${criterion.presence.threshold} is outside ${criterion.min}–${criterion.max}`,
      });
    if (!inRange(criterion.presence.absentValue))
      problems.push({
        path: at("presence.absentValue"),
        message: `${criterion.presence.absentValue} is outside ${criterion.min}–${criterion.max}`,
      });
    if (subjectKind !== "video")
      problems.push({ path: at("presence"), message: "presence is judged per video: the subject must be the video" });
  }
  return problems;
}

/** A criterion that asks where: several frames to choose among, and an id that is not the answer's own key. */
function localizeProblems(
  criterion: Criterion,
  at: (field: string) => string,
  frames: RubricDefinition["frames"],
): RubricProblem[] {
  const problems: RubricProblem[] = [];
  if (frames.mode === "each_key_frame")
    problems.push({
      path: at("localize"),
      message:
        "each key frame is judged on its own, so its value already says where: localize needs several frames per call",
    });
  if (criterion.id === "frames" || criterion.id === "reasons")
    problems.push({ path: at("id"), message: `"${criterion.id}" is a key of the answer itself; choose another id` });
  return problems;
}

/** One criterion's checks beyond the schema (its id's uniqueness is checked across criteria). */
function criterionProblems(
  criterion: Criterion,
  at: (field: string) => string,
  subjectKind: RubricDefinition["subject"]["kind"],
  frames: RubricDefinition["frames"],
): RubricProblem[] {
  const problems: RubricProblem[] = criterion.type === "numeric" ? numericProblems(criterion, at, subjectKind) : [];
  if (criterion.type === "categorical") {
    if (criterion.labels.length < 2)
      problems.push({
        path: at("labels"),
        message:
          criterion.labels.length === 0
            ? "the label list is empty"
            : "a categorical criterion needs at least two labels",
      });
    const labels = criterion.labels.map((l) => l.label.toLowerCase());
    const twice = labels.find((label, j) => labels.indexOf(label) !== j);
    if (twice) problems.push({ path: at("labels"), message: `the label "${twice}" is given twice` });
    if (criterion.positiveLabel && !labels.includes(criterion.positiveLabel.toLowerCase()))
      problems.push({ path: at("positiveLabel"), message: `"${criterion.positiveLabel}" is not one of the labels` });
  }
  if (criterion.localize) problems.push(...localizeProblems(criterion, at, frames));
  if (criterion.type !== "numeric" && criterion.presence)
    problems.push({ path: at("presence"), message: "a presence rule needs a numeric criterion" });
  if (
    criterion.aggregation === "mean" &&
    criterion.type !== "numeric" &&
    !(criterion.type === "categorical" && criterion.ordered)
  ) {
    problems.push({ path: at("aggregation"), message: "the mean of unordered labels means nothing: use majority" });
  }
  return problems;
}

/** The item fields' ids, the prompt's variables and the frames an item subject allows. */
function subjectProblems(definition: RubricDefinition): RubricProblem[] {
  const problems: RubricProblem[] = [];
  const fields = definition.subject.kind === "item" ? definition.subject.fields.map((f) => f.id) : [];
  fields.forEach((id, i) => {
    if (fields.indexOf(id) !== i)
      problems.push({ path: `subject.fields.${i}.id`, message: `the field id "${id}" is used twice` });
    if (id === "video" || id === "id")
      problems.push({
        path: `subject.fields.${i}.id`,
        message: `"${id}" names the item's ${id === "video" ? "video" : "id"} in the file; choose another field id`,
      });
  });
  for (const variable of promptVariables(definition.prompt)) {
    if ((RUBRIC_VARIABLES as readonly string[]).includes(variable)) continue;
    const field = /^item\.([a-z][a-z0-9_]*)$/.exec(variable)?.[1];
    if (field && fields.includes(field)) continue;
    const known = [...RUBRIC_VARIABLES.map((v) => `{{${v}}}`), ...fields.map((f) => `{{item.${f}}}`)].join(", ");
    problems.push({
      path: "prompt",
      message: field
        ? `{{${variable}}}: the subject declares no item field "${field}" (fields: ${fields.join(", ") || "none"})`
        : `unknown variable {{${variable}}}; use ${known}`,
    });
  }
  if (
    definition.subject.kind === "item" &&
    definition.frames.mode !== "uniform" &&
    definition.frames.mode !== "key_frames"
  ) {
    problems.push({ path: "frames.mode", message: "an item is judged in one call: use uniform or key_frames frames" });
  }
  return problems;
}

/** What the parse and the checks below the schema find, each naming its field; empty when the definition is sound. */
export function rubricProblems(input: unknown): { definition: RubricDefinition | null; problems: RubricProblem[] } {
  const parsed = rubricDefinitionSchema.safeParse(input);
  if (!parsed.success) {
    return {
      definition: null,
      problems: parsed.error.issues.map((issue) => ({
        path: issue.path.join(".") || "(definition)",
        message: issue.message,
      })),
    };
  }
  const definition = parsed.data;
  const problems: RubricProblem[] = [];
  const seen = new Set<string>();
  definition.criteria.forEach((criterion, i) => {
    const at = (field: string) => `criteria.${i}.${field}`;
    if (seen.has(criterion.id))
      problems.push({ path: at("id"), message: `the criterion id "${criterion.id}" is used twice` });
    seen.add(criterion.id);
    problems.push(...criterionProblems(criterion, at, definition.subject.kind, definition.frames));
  });
  const presences = definition.criteria.flatMap((c, i) =>
    c.type === "numeric" && c.presence ? [{ i, ...c.presence }] : [],
  );
  for (const other of presences.slice(1)) {
    if (other.threshold !== presences[0]!.threshold || other.absentValue !== presences[0]!.absentValue) {
      problems.push({
        path: `criteria.${other.i}.presence`,
        message:
          "every presence rule of a rubric uses the same threshold and absent value (presence review asks them together)",
      });
    }
  }
  problems.push(...subjectProblems(definition));
  return { definition: problems.length ? null : definition, problems };
}

/** The definition with keys in a fixed order, so equal definitions hash equal whatever order a file wrote them in. */
export function canonicalDefinition(definition: RubricDefinition): string {
  const sort = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sort);
    if (value && typeof value === "object") {
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
          .map((key) => [key, sort((value as Record<string, unknown>)[key])]),
      );
    }
    return value;
  };
  return JSON.stringify(sort(definition));
}
