/**
 * Hallucination's judge outputs made readable for the video page, and its run settings in words. Plain
 * functions of stored JSON (step outputs are untrusted: whatever shape they have, nothing here throws or
 * renders raw JSON). Which frames a step looked at is the core's (lib/judge/media/frame-scopes.ts).
 */

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => {
  if (typeof value === "string") return value.trim() || null;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return null;
};

export interface ReadableStaticKg {
  /** Each object with its attributes: relations from the object to something that is not an object of the graph ("is red"). */
  objects: { name: string; attributes: string[] }[];
  /** Relations between two objects of the graph, or whose subject is no object. */
  relations: { subject: string; relation: string; object: string }[];
}

const RELATION_KEYS: [string[], string[], string[]] = [
  ["subject", "source", "head", "entity1", "entity_1", "from"],
  ["relation", "predicate", "relationship"],
  ["object", "target", "tail", "entity2", "entity_2", "to"],
];

function relationTriple(value: unknown): [string, string, string] | null {
  if (Array.isArray(value) && value.length === 3) {
    const parts = value.map(text);
    return parts.every((part) => part !== null) ? (parts as [string, string, string]) : null;
  }
  if (isRecord(value)) {
    const parts = RELATION_KEYS.map((keys) => text(keys.map((key) => value[key]).find((part) => part !== undefined)));
    return parts.every((part) => part !== null) ? (parts as [string, string, string]) : null;
  }
  return null;
}

/** A static knowledge graph ({objects, relations}) as objects with attributes and subject — relation — object lines. */
export function readableStaticKg(output: unknown): ReadableStaticKg | null {
  if (!isRecord(output)) return null;
  const names = (Array.isArray(output.objects) ? output.objects : [])
    .map((o) => (isRecord(o) ? text(o.name) : text(o)))
    .filter((n): n is string => n !== null);
  const objects = new Map<string, { name: string; attributes: string[] }>(
    names.map((name) => [name.toLowerCase(), { name, attributes: [] }]),
  );
  // Objects given as {name, attributes: [...]} (not the seed's shape, but harmless to read).
  for (const o of Array.isArray(output.objects) ? output.objects : []) {
    if (isRecord(o) && Array.isArray(o.attributes)) {
      const name = text(o.name);
      if (name)
        objects
          .get(name.toLowerCase())
          ?.attributes.push(...o.attributes.map(text).filter((a): a is string => a !== null));
    }
  }
  const relations: ReadableStaticKg["relations"] = [];
  for (const raw of Array.isArray(output.relations) ? output.relations : []) {
    const triple = relationTriple(raw);
    if (!triple) continue;
    const [subject, relation, object] = triple;
    const owner = objects.get(subject.toLowerCase());
    if (owner && !objects.has(object.toLowerCase())) owner.attributes.push(`${relation} ${object}`);
    else relations.push({ subject, relation, object });
  }
  if (objects.size === 0 && relations.length === 0) return null;
  return { objects: [...objects.values()], relations };
}

/** A dynamic knowledge graph ({changes: {object: change}}) as object → change lines. */
export function readableDynamicKg(output: unknown): { object: string; change: string }[] | null {
  if (!isRecord(output) || !isRecord(output.changes)) return null;
  return Object.entries(output.changes).flatMap(([object, change]) => {
    const description = text(change);
    return description === null ? [] : [{ object, change: description }];
  });
}

/** The video summary's text. */
export function readableSummary(output: unknown): string | null {
  if (typeof output === "string") return output.trim() || null;
  return isRecord(output) ? text(output.summary) : null;
}

/** A scoring step's own explanation, when it gave one. */
export function readableReason(output: unknown): string | null {
  return isRecord(output) ? text(output.reason) : null;
}

/** The first 8 hex digits of a template hash ("prompt version"), or null. */
export function shortHash(hash: string | null | undefined): string | null {
  if (!hash) return null;
  return hash.replace(/^sha256:/, "").slice(0, 8);
}

/** The run's score settings in words, e.g. "mean-max; hallucination when a category or I ≥ 5". */
export function describeScoreSettings(settings: unknown): { aggregation: string; verdictRule: string } {
  const s = isRecord(settings) ? settings : {};
  const aggregation = text(s.aggregation) ?? "mean-max";
  const verdict = isRecord(s.verdict) ? s.verdict : {};
  const on = text(verdict.on) ?? "max_category";
  const threshold = typeof verdict.threshold === "number" ? verdict.threshold : on === "overall" ? 60 : 5;
  const verdictRule =
    on === "overall"
      ? `hallucination when overall < ${threshold}`
      : `hallucination when I or a category's aggregate ≥ ${threshold}`;
  return { aggregation, verdictRule };
}
