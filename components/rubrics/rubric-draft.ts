/**
 * The Rubric tasks form's state: the definition as the form holds it (numbers as the text typed, so a half-typed
 * value is kept and reported rather than lost), to and from the definition (lib/rubrics/rubric-definition.ts)
 * the server validates with the same rubricProblems.
 */
import type { RubricDefinition, RubricDefinitionInput } from "@/lib/rubrics/rubric-definition";

export type CriterionType = "numeric" | "categorical" | "boolean";
export type FramesMode = RubricDefinition["frames"]["mode"];
export type Aggregation = "" | "mean" | "max" | "min" | "majority";

export interface CriterionDraft {
  /** The row's React key: stable while the criterion's id is edited. */
  key: string;
  id: string;
  name: string;
  definition: string;
  type: CriterionType;
  higherIsBetter: boolean;
  aggregation: Aggregation;
  min: string;
  max: string;
  step: string;
  presence: boolean;
  /** Ask the judge where it fails (the criterion's `localize`). */
  localize: boolean;
  /** How its frames go in a video run (the criterion's `input`): "" as the rubric's. */
  input: "" | "images" | "video";
  presenceThreshold: string;
  presenceAbsentValue: string;
  labels: { label: string; definition: string }[];
  ordered: boolean;
  /**
   * Fields of the saved criterion the form does not edit (an alignment's tuned `positiveAtLeast`, a
   * `positiveLabel`, an `unstableAt`), kept as they are while the criterion keeps its type, so saving an edit
   * never drops them.
   */
  kept?: { type: CriterionType; fields: Partial<Record<KeptField, number | string>> };
}

const KEPT_FIELDS = ["positiveAtLeast", "positiveLabel", "unstableAt"] as const;
type KeptField = (typeof KEPT_FIELDS)[number];

function keptOf(criterion: RubricDefinition["criteria"][number]): CriterionDraft["kept"] {
  const fields: Partial<Record<KeptField, number | string>> = {};
  for (const field of KEPT_FIELDS) {
    const value = (criterion as Partial<Record<KeptField, number | string>>)[field];
    if (value !== undefined) fields[field] = value;
  }
  return Object.keys(fields).length > 0 ? { type: criterion.type, fields } : undefined;
}

/** The kept fields, while the criterion still has the type they were saved with. */
function keptFieldsOf(c: CriterionDraft) {
  return c.kept && c.kept.type === c.type ? c.kept.fields : {};
}

export interface RubricDraft {
  name: string;
  description: string;
  guidelines: string;
  /** Each video, or each item of an item set with the fields below. */
  subjectKind: "video" | "item";
  /** The items' fields as typed: ids separated by commas, an optional one ending in "?" (say "text, reference?"). */
  itemFields: string;
  /** The labels of fields the definition gave (the form shows ids only; a field keeps its label while it is listed). */
  itemFieldLabels: Record<string, string>;
  framesMode: FramesMode;
  framesCount: string;
  longestSide: string;
  /** In a video run: the frames as one video ("video", the default) or as stills ("images"). */
  framesInput: "video" | "images";
  criteria: CriterionDraft[];
  prompt: string;
  reasons: boolean;
  /** Few-shot examples an alignment saved: the form keeps them as they are (it does not edit them). */
  examples?: RubricDefinition["examples"];
}

let nextKey = 0;
const rowKey = () => `c${++nextKey}`;

export function newCriterion(index: number): CriterionDraft {
  return {
    key: rowKey(),
    id: `criterion_${index + 1}`,
    name: "",
    definition: "",
    type: "numeric",
    higherIsBetter: true,
    aggregation: "",
    min: "1",
    max: "5",
    step: "1",
    presence: false,
    localize: false,
    input: "",
    presenceThreshold: "",
    presenceAbsentValue: "",
    labels: [],
    ordered: false,
  };
}

export const DEFAULT_PROMPT =
  "You are judging an AI-generated video made for the prompt: {{prompt}}\n\n{{frames}}\n\nJudge it on these criteria:\n{{criteria}}\n\nGuidelines:\n{{guidelines}}";

export function emptyDraft(): RubricDraft {
  return {
    name: "",
    description: "",
    guidelines: "",
    subjectKind: "video",
    itemFields: "",
    itemFieldLabels: {},
    framesMode: "uniform",
    framesCount: "8",
    longestSide: "",
    framesInput: "video",
    criteria: [newCriterion(0)],
    prompt: DEFAULT_PROMPT,
    reasons: false,
  };
}

const text = (value: number | null | undefined) => (value === null || value === undefined ? "" : String(value));

export function draftOf(definition: RubricDefinition): RubricDraft {
  const frames = definition.frames;
  return {
    name: definition.name,
    description: definition.description,
    guidelines: definition.guidelines,
    subjectKind: definition.subject.kind,
    itemFields:
      definition.subject.kind === "item"
        ? definition.subject.fields.map((f) => `${f.id}${f.required ? "" : "?"}`).join(", ")
        : "",
    itemFieldLabels:
      definition.subject.kind === "item"
        ? Object.fromEntries(definition.subject.fields.map((f) => [f.id, f.label]))
        : {},
    framesMode: frames.mode,
    framesCount: frames.mode === "uniform" ? String(frames.count) : "8",
    longestSide: text(frames.longestSide),
    framesInput: frames.input ?? "video",
    criteria: definition.criteria.map((c) => ({
      ...newCriterion(0),
      id: c.id,
      name: c.name,
      definition: c.definition,
      type: c.type,
      higherIsBetter: c.higherIsBetter,
      aggregation: c.aggregation ?? "",
      localize: c.localize === true,
      input: c.input ?? "",
      ...(c.type === "numeric"
        ? {
            min: String(c.min),
            max: String(c.max),
            step: text(c.step),
            presence: !!c.presence,
            presenceThreshold: text(c.presence?.threshold),
            presenceAbsentValue: text(c.presence?.absentValue),
          }
        : {}),
      ...(c.type === "categorical" ? { labels: c.labels.map((l) => ({ ...l })), ordered: c.ordered } : {}),
      kept: keptOf(c),
    })),
    prompt: definition.prompt,
    reasons: definition.reasons,
    ...(definition.examples ? { examples: definition.examples } : {}),
  };
}

/** A typed number, or what was typed (the schema then names the field: "expected number"); blank is absent. */
function numberOf(value: string): number | string | undefined {
  const trimmed = value.trim();
  if (!trimmed) return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : trimmed;
}

/** The subject the draft states: its item fields from the typed list, each keeping the label the definition gave it. */
function subjectOf(draft: RubricDraft): RubricDefinitionInput["subject"] {
  if (draft.subjectKind === "video") return { kind: "video" };
  const fields = draft.itemFields
    .split(",")
    .map((f) => f.trim())
    .filter(Boolean)
    .map((f) => {
      const id = f.replace(/\?$/, "").trim();
      return { id, label: draft.itemFieldLabels[id] ?? id, required: !f.endsWith("?") };
    });
  return { kind: "item", fields };
}

/** The definition the draft states, for rubricProblems, the preview and the API (unchecked: the checks name the fields). */
export function definitionInputOf(draft: RubricDraft): RubricDefinitionInput {
  // "video" is the default, left out so a definition that never chose keeps its text (and its task's hash).
  const sized = {
    ...(draft.longestSide.trim() ? { longestSide: numberOf(draft.longestSide) } : {}),
    ...(draft.framesInput === "images" ? { input: "images" as const } : {}),
  };
  const frames =
    draft.framesMode === "uniform"
      ? { mode: "uniform" as const, count: numberOf(draft.framesCount) ?? "", ...sized }
      : { mode: draft.framesMode, ...sized };
  const criteria = draft.criteria.map((c) => {
    const base = {
      id: c.id.trim(),
      name: c.name,
      definition: c.definition,
      higherIsBetter: c.higherIsBetter,
      ...(c.aggregation ? { aggregation: c.aggregation } : {}),
      ...(c.localize ? { localize: true } : {}),
      ...(c.input ? { input: c.input } : {}),
      ...keptFieldsOf(c),
    };
    if (c.type === "numeric") {
      const step = numberOf(c.step);
      return {
        ...base,
        type: "numeric" as const,
        min: numberOf(c.min) ?? "",
        max: numberOf(c.max) ?? "",
        ...(step !== undefined ? { step } : {}),
        ...(c.presence
          ? {
              presence: {
                threshold: numberOf(c.presenceThreshold) ?? "",
                absentValue: numberOf(c.presenceAbsentValue) ?? "",
              },
            }
          : {}),
      };
    }
    if (c.type === "categorical")
      return {
        ...base,
        type: "categorical" as const,
        labels: c.labels.map((l) => ({ label: l.label, definition: l.definition })),
        ordered: c.ordered,
      };
    return { ...base, type: "boolean" as const };
  });
  // Typed text where a number belongs is passed on as it is: the schema reports it at its field.
  return {
    name: draft.name,
    description: draft.description,
    guidelines: draft.guidelines,
    subject: subjectOf(draft),
    frames,
    criteria,
    prompt: draft.prompt,
    reasons: draft.reasons,
    ...(draft.examples ? { examples: draft.examples } : {}),
  } as RubricDefinitionInput;
}
