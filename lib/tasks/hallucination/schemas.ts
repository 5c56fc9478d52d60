/**
 * Output schemas of the Sora Detector hallucination pipeline (arXiv 2405.04180), one per step, plus the
 * hallucination category tables and the JSON Schemas sent as OpenAI `response_format`.
 *
 * Leniency, on top of what parse-llm-output accepts:
 * - Scores: numbers 0–10, decimals allowed (the paper asks for an intensity "with a maximum score of 10
 *   points", not an integer), numeric strings accepted; everything else is an error, nothing is clamped.
 * - Category keys: the canonical ids are "s1"…"s10" and "d1"…"d9" (the T2VHaluBench label codes, in the
 *   seed's numbering). A key is also accepted when it unambiguously names one category of the step:
 *   its number ("3", "3. …"), our key ("lighting_shadow_material") or the seed's name ("Lighting, shadow,
 *   and material physical inaccuracy"), compared case-, space- and punctuation-insensitively. A value
 *   given as `{"score": 7, …}` counts as 7. Two keys for one category, or an unknown key, are errors
 *   (an unknown key is most likely a misnamed category, and guessing would put a score in the wrong column).
 * - Static KG relations: `[entity 1, relation, entity 2]`, or an object naming the three parts with
 *   usual names (subject/predicate/object, source/relation/target, head/relation/tail,
 *   entity_1/relation/entity_2), mapped by name, never by key order.
 * - Video summary: `{"summary": "…"}` or, since the paper asks for free text, a plain-text answer.
 * - Extra top-level fields (e.g. a model's "analysis") are dropped; `reason` is optional everywhere.
 */
import { z } from "zod";
import { boundedScore } from "../../judge/calls/parse-llm-output";

export interface HallucinationCategory<Id extends string = string> {
  /** T2VHaluBench label code. */
  id: Id;
  key: string;
  /** As the seed prompt names it. */
  name: string;
  /** As the seed prompt defines it. */
  description: string;
}

export const STATIC_HALLUCINATION_CATEGORIES = [
  {
    id: "s1",
    key: "geometric_structure",
    name: "Geometric structure irrationality",
    description:
      "Objects' shapes, proportions, and topologies are inconsistent with real-world common sense, showing irrational deformations, omissions, redundancies, discontinuities, or inconsistencies.",
  },
  {
    id: "s2",
    key: "biological_structure",
    name: "Biological structure irrationality",
    description:
      "Biological organs' structures defy real-world common sense, presenting illogical deformations, omissions, redundancies, discontinuities, or inconsistencies.",
  },
  {
    id: "s3",
    key: "lighting_shadow_material",
    name: "Lighting, shadow, and material physical inaccuracy",
    description:
      "The direction, intensity, color of lighting, shape of shadows, and surface material properties in images contradict physical laws and don't match the objects' position, environmental conditions, or the physical properties of materials in the real world.",
  },
  {
    id: "s4",
    key: "color_distribution",
    name: "Color distribution disharmony",
    description:
      "Color distribution and combinations in images don't follow natural statistical laws, showing unrealistic, disharmonious, or abnormal color combinations.",
  },
  {
    id: "s5",
    key: "depth_of_field_focal_length",
    name: "Depth of field and focal length unreality",
    description:
      "The depth of field and perspective relationships in images defy physical laws and photography principles, contradicting the spatial positioning of objects.",
  },
  {
    id: "s6",
    key: "object_composition_scene_semantics",
    name: "Object composition and scene semantic inconsistency",
    description:
      "The arrangement of objects and scene settings in images violate common sense logic, semantic constraints, and scenario-specific norms, featuring irrational, contradictory, rare, or impossible combinations and setups.",
  },
  {
    id: "s7",
    key: "motion_blur",
    name: "Motion and blur inconsistency",
    description:
      "The direction, extent, and trajectory of motion blur in images contradict the motion state and speed of moving objects, presenting irrational or contradictory motion blur effects.",
  },
  {
    id: "s8",
    key: "physical_phenomenon",
    name: "Physical phenomenon inauthenticity",
    description:
      "Various physical phenomena in images, like reflection and refraction, defy physical laws, conflicting with the materials, shapes, positions, and environmental conditions of objects.",
  },
  {
    id: "s9",
    key: "image_quality",
    name: "Image quality inconsistency",
    description:
      "The overall and local quality of images, like resolution, is inconsistent, showing noticeable quality differences or traces of post-processing.",
  },
  {
    id: "s10",
    key: "other",
    name: "Other hallucination",
    description:
      "all other implausible phenomenons except mentioned above that violate the physical laws and logic of the real world.",
  },
] as const satisfies readonly HallucinationCategory[];

export const DYNAMIC_HALLUCINATION_CATEGORIES = [
  {
    id: "d1",
    key: "clipping",
    name: "Clipping",
    description:
      "Unnatural overlapping and intersection that the boundaries of object models do not correspond to their actual physical relationships.",
  },
  {
    id: "d2",
    key: "implausible_fusion",
    name: "Implausible fusion",
    description:
      "Implausible/Unnatural fusion between objects, such as two objects gradually become one object when interacting.",
  },
  {
    id: "d3",
    key: "implausible_appearance_disappearance",
    name: "Implausible appearance or disappearance",
    description: "The sudden appearance or disappearance of an object without reasonable physical interaction.",
  },
  {
    id: "d4",
    key: "implausible_motion",
    name: "Implausible motion",
    description: "The unnatural movement of an object, such as movement without support.",
  },
  {
    id: "d5",
    key: "implausible_transform",
    name: "Implausible transform",
    description: "Objects undergo unnatural deformation, such as when a solid suddenly turns into a fluid.",
  },
  {
    id: "d6",
    key: "implausible_penetration",
    name: "Implausible penetration",
    description: "The unnatural penetration of an object through another object in an interaction.",
  },
  {
    id: "d7",
    key: "physical_interaction_error",
    name: "Physical interaction errors",
    description:
      "An interaction that should have occurred did not occur, or an interaction that should not have occurred did.",
  },
  {
    id: "d8",
    key: "logical_interaction_error",
    name: "Logical interaction error",
    description: "Timing error/Timing reversal.",
  },
  {
    id: "d9",
    key: "other",
    name: "Other hallucination",
    description:
      "all other implausible phenomenons except mentioned above that violate the physical laws and logic of the real world.",
  },
] as const satisfies readonly HallucinationCategory[];

export type StaticCategoryId = (typeof STATIC_HALLUCINATION_CATEGORIES)[number]["id"];
export type DynamicCategoryId = (typeof DYNAMIC_HALLUCINATION_CATEGORIES)[number]["id"];
export const STATIC_CATEGORY_IDS: readonly StaticCategoryId[] = STATIC_HALLUCINATION_CATEGORIES.map(
  (category) => category.id,
);
export const DYNAMIC_CATEGORY_IDS: readonly DynamicCategoryId[] = DYNAMIC_HALLUCINATION_CATEGORIES.map(
  (category) => category.id,
);

/** The score category under which the inconsistency step's score is stored. */
export const INCONSISTENCY_CATEGORY = "inconsistency";

export const HALLUCINATION_STEP_IDS = [
  "static_kg",
  "dynamic_kg",
  "video_summary",
  "inconsistency",
  "static_hallucination",
  "dynamic_hallucination",
] as const;
export type HallucinationStepId = (typeof HALLUCINATION_STEP_IDS)[number];

export const HALLUCINATION_TEMPLATE_IDS: Record<HallucinationStepId, string> = {
  static_kg: "hallucination/static-kg",
  dynamic_kg: "hallucination/dynamic-kg",
  video_summary: "hallucination/video-summary",
  inconsistency: "hallucination/inconsistency",
  static_hallucination: "hallucination/static-hallucination",
  dynamic_hallucination: "hallucination/dynamic-hallucination",
};

/** Case-, space- and punctuation-insensitive form of a category key; a leading "3." numbering is dropped. */
export function normalizeCategoryKey(key: string): string {
  return key
    .toLowerCase()
    .replace(/^\s*(\d+)\s*[.):-]\s*(?=\D)/, "")
    .replace(/[^a-z0-9]/g, "");
}

function categoryAliases<Id extends string>(categories: readonly HallucinationCategory<Id>[]): Map<string, Id> {
  const aliases = new Map<string, Id>();
  for (const category of categories) {
    for (const alias of [category.id, category.id.slice(1), category.key, category.name]) {
      const normalized = normalizeCategoryKey(alias);
      const existing = aliases.get(normalized);
      if (existing !== undefined && existing !== category.id)
        throw new Error(`Category alias "${alias}" names both ${existing} and ${category.id}.`);
      aliases.set(normalized, category.id);
    }
  }
  return aliases;
}

const hallucinationScore = boundedScore(0, 10);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function categoryScoresSchema<Id extends string>(categories: readonly HallucinationCategory<Id>[]) {
  const aliases = categoryAliases(categories);
  const shape = Object.fromEntries(categories.map((category) => [category.id, hallucinationScore])) as Record<
    Id,
    typeof hallucinationScore
  >;
  return z.preprocess((input, context) => {
    if (!isPlainObject(input)) return input;
    const byId: Record<string, unknown> = {};
    const givenAs = new Map<string, string>();
    for (const [key, value] of Object.entries(input)) {
      // Unknown keys pass through under their own name so the strict object reports them.
      const id = aliases.get(normalizeCategoryKey(key)) ?? key;
      const earlier = givenAs.get(id);
      if (earlier !== undefined) {
        context.addIssue({
          code: "custom",
          path: [id],
          message: `given twice, as ${JSON.stringify(earlier)} and as ${JSON.stringify(key)}`,
          input,
        });
        continue;
      }
      givenAs.set(id, key);
      byId[id] = isPlainObject(value) && "score" in value ? value.score : value;
    }
    return byId;
  }, z.strictObject(shape));
}

// null is what some models send for "no reason"; it means the same as leaving the field out.
const optionalReason = z.preprocess((value) => (value === null ? undefined : value), z.string().optional());

const RELATION_PART_NAMES: Record<string, 0 | 1 | 2> = {
  subject: 0,
  source: 0,
  head: 0,
  entity1: 0,
  object1: 0,
  from: 0,
  relation: 1,
  predicate: 1,
  relationship: 1,
  object: 2,
  target: 2,
  tail: 2,
  entity2: 2,
  object2: 2,
  to: 2,
};

function relationObjectAsTriple(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const entries = Object.entries(value);
  if (entries.length !== 3) return value;
  const triple: unknown[] = [];
  for (const [key, part] of entries) {
    const position = RELATION_PART_NAMES[key.toLowerCase().replace(/[^a-z0-9]/g, "")];
    if (position === undefined || triple[position] !== undefined) return value;
    triple[position] = part;
  }
  return triple;
}

const graphText = z.string().trim().min(1, "must not be empty");

export const staticKgSchema = z.object({
  objects: z.array(graphText),
  relations: z.array(
    z.preprocess(
      relationObjectAsTriple,
      z.tuple([graphText, graphText, graphText], { error: "must be [entity 1, relation, entity 2]" }),
    ),
  ),
});

export const dynamicKgSchema = z.object({
  changes: z.record(z.string(), z.string({ error: "must be a text describing the change" })),
});

export const videoSummarySchema = z.preprocess(
  (value) => (typeof value === "string" ? { summary: value } : value),
  z.object({ summary: z.string().trim().min(1, "must not be empty") }),
);

export const inconsistencySchema = z.object({ score: hallucinationScore, reason: optionalReason });

export const staticHallucinationSchema = z.object({
  scores: categoryScoresSchema(STATIC_HALLUCINATION_CATEGORIES),
  reason: optionalReason,
});

export const dynamicHallucinationSchema = z.object({
  scores: categoryScoresSchema(DYNAMIC_HALLUCINATION_CATEGORIES),
  reason: optionalReason,
});

export type StaticKg = z.infer<typeof staticKgSchema>;
export type DynamicKg = z.infer<typeof dynamicKgSchema>;
export type VideoSummary = z.infer<typeof videoSummarySchema>;
export type InconsistencyOutput = z.infer<typeof inconsistencySchema>;
export type StaticHallucinationOutput = z.infer<typeof staticHallucinationSchema>;
export type DynamicHallucinationOutput = z.infer<typeof dynamicHallucinationSchema>;

export interface ScoreValue {
  category: string;
  value: number;
}

export function staticHallucinationScoreValues(output: StaticHallucinationOutput): ScoreValue[] {
  return STATIC_CATEGORY_IDS.map((id) => ({ category: id, value: output.scores[id] }));
}

export function dynamicHallucinationScoreValues(output: DynamicHallucinationOutput): ScoreValue[] {
  return DYNAMIC_CATEGORY_IDS.map((id) => ({ category: id, value: output.scores[id] }));
}

export function inconsistencyScoreValues(output: InconsistencyOutput): ScoreValue[] {
  return [{ category: INCONSISTENCY_CATEGORY, value: output.score }];
}

/** A static KG as the later prompts' `relation` value: one line of JSON, the form the seed asks for. */
export function formatStaticKg(kg: StaticKg): string {
  return JSON.stringify({ objects: kg.objects, relations: kg.relations });
}

/** A dynamic KG as the dynamic-hallucination prompt's `change` value. */
export function formatDynamicKg(kg: DynamicKg): string {
  return JSON.stringify({ changes: kg.changes });
}

/** All clusters' dynamic KGs as the video-summary prompt's `changes` value: one line per key frame, in time order. */
export function formatDynamicKgsForSummary(kgs: readonly DynamicKg[]): string {
  return kgs.map((kg, index) => `\nKey frame ${index + 1}: ${formatDynamicKg(kg)}`).join("");
}

// Hand-written rather than z.toJSONSchema: OpenAI strict mode needs every property required and
// additionalProperties false, while our zod schemas keep `reason` optional and accept lenient input.
// Ranges live in descriptions, not minimum/maximum, which some OpenAI-compatible servers reject.
type JsonSchema = Record<string, unknown>;

const scoreJsonSchema = (description: string): JsonSchema => ({
  type: "number",
  description: `${description}; 0 (does not occur) to 10 (most severe)`,
});

const categoryScoresJsonSchema = (categories: readonly HallucinationCategory[]): JsonSchema => ({
  type: "object",
  properties: Object.fromEntries(
    categories.map((category) => [category.id, scoreJsonSchema(`${category.id.slice(1)}. ${category.name}`)]),
  ),
  required: categories.map((category) => category.id),
  additionalProperties: false,
});

const reasonJsonSchema: JsonSchema = { type: "string", description: "One or two sentences." };

interface ResponseFormatSpec {
  /** Strict mode cannot describe a map with free keys (the dynamic KG's changes), so that step is sent non-strict. */
  strict: boolean;
  schema: JsonSchema;
}

const RESPONSE_FORMATS: Record<HallucinationStepId, ResponseFormatSpec> = {
  static_kg: {
    strict: true,
    schema: {
      type: "object",
      properties: {
        objects: {
          type: "array",
          items: { type: "string" },
          description: "Foreground objects; repeated kinds as A_1, A_2.",
        },
        relations: {
          type: "array",
          items: {
            type: "array",
            items: { type: "string" },
            description: "Exactly three strings: [ENTITY 1, RELATION, ENTITY 2].",
          },
        },
      },
      required: ["objects", "relations"],
      additionalProperties: false,
    },
  },
  dynamic_kg: {
    strict: false,
    schema: {
      type: "object",
      properties: {
        changes: {
          type: "object",
          additionalProperties: { type: "string" },
          description: "For each object: how it changes overall, or that it is unchanged.",
        },
      },
      required: ["changes"],
      additionalProperties: false,
    },
  },
  video_summary: {
    strict: true,
    schema: {
      type: "object",
      properties: { summary: { type: "string", description: "A brief and accurate description of the video." } },
      required: ["summary"],
      additionalProperties: false,
    },
  },
  inconsistency: {
    strict: true,
    schema: {
      type: "object",
      properties: {
        score: scoreJsonSchema("Intensity of the inconsistency between the two descriptions"),
        reason: reasonJsonSchema,
      },
      required: ["score", "reason"],
      additionalProperties: false,
    },
  },
  static_hallucination: {
    strict: true,
    schema: {
      type: "object",
      properties: { scores: categoryScoresJsonSchema(STATIC_HALLUCINATION_CATEGORIES), reason: reasonJsonSchema },
      required: ["scores", "reason"],
      additionalProperties: false,
    },
  },
  dynamic_hallucination: {
    strict: true,
    schema: {
      type: "object",
      properties: { scores: categoryScoresJsonSchema(DYNAMIC_HALLUCINATION_CATEGORIES), reason: reasonJsonSchema },
      required: ["scores", "reason"],
      additionalProperties: false,
    },
  },
};

// A type alias, not an interface, so it fits the engine's `Record<string, unknown>` response_format slot.
export type JsonSchemaResponseFormat = {
  type: "json_schema";
  json_schema: { name: string; strict: boolean; schema: JsonSchema };
};

/** OpenAI `response_format` for a step's structured output. */
export function toResponseFormat(stepId: HallucinationStepId): JsonSchemaResponseFormat {
  const spec = RESPONSE_FORMATS[stepId];
  return {
    type: "json_schema",
    json_schema: { name: `hallucination_${stepId}`, strict: spec.strict, schema: structuredClone(spec.schema) },
  };
}
