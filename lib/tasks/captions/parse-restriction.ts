/**
 * The length restriction an instruction states about its own answer ("The generated caption's length needs
 * to be 20 to 30 words."), read from AnyCapEval's restriction rule text or from the instruction.
 *
 * Strict on purpose: a phrase is a restriction only when a number (digits, or one…twenty, "a single") is
 * directly followed by "word(s)" or "sentence(s)", with one of the patterns below around it. Anything
 * else returns null; nothing is guessed from tone ("a short caption", "briefly") because a wrong
 * restriction caps a score.
 *
 * Bounds are whole numbers of words or sentences, so strict comparisons become inclusive ones:
 * "less than 30 words" is max 29, "more than 10 words" is min 11. A bare count ("in two sentences",
 * "needs to be one sentence", "a 50-word caption") is exact.
 */

export type RestrictionUnit = "words" | "sentences";

export interface LengthRestriction {
  unit: RestrictionUnit;
  min?: number;
  max?: number;
  exact?: number;
  /** The phrase the restriction was read from, as written. */
  source: string;
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
};

const NUM = `(\\d{1,6}|${Object.keys(NUMBER_WORDS).join("|")})`;
// "words" or "sentences", not the start of "wordsmith" or "sentence-by-sentence".
const UNIT = `(words?|sentences?)(?![\\w-])`;

type Kind = "range" | "max" | "max_strict" | "min" | "min_strict" | "exact";

interface Pattern {
  kind: Kind;
  regex: RegExp;
}

// Not inside a word or a hyphenated number: "twenty-one words" is not "one words".
const pattern = (kind: Kind, body: string): Pattern => ({
  kind,
  regex: new RegExp(`(?<![\\p{L}\\p{N}_-])${body}`, "giu"),
});

// A later pattern's match inside an earlier one's is dropped, so a phrase that contains another comes first:
// "no more than 50 words" before "more than 50 words", "not less than" before "less than", every bound before a bare count.
const PATTERNS: Pattern[] = [
  pattern("range", `between\\s+${NUM}\\s+and\\s+${NUM}\\s+${UNIT}`),
  pattern("range", `(?:from\\s+)?${NUM}\\s+to\\s+${NUM}\\s+${UNIT}`),
  // Dashed ranges only between digits: "twenty-one words" is one number, not the range 1–20.
  pattern("range", `(\\d{1,6})\\s*[-–—]\\s*(\\d{1,6})\\s+${UNIT}`),
  pattern("max", `(?:no|not)\\s+more\\s+than\\s+${NUM}\\s+${UNIT}`),
  pattern("max", `(?:no|not)\\s+longer\\s+than\\s+${NUM}\\s+${UNIT}`),
  pattern(
    "max",
    `(?:cannot|can\\s*not|can't|must\\s+not|mustn't|should\\s+not|shouldn't|do\\s+not|does\\s+not|don't|doesn't|not|never|without)\\s+(?:exceed|exceeding|go\\s+over|going\\s+over)\\s+${NUM}\\s+${UNIT}`,
  ),
  pattern(
    "max",
    `(?:within|up\\s+to|at\\s+most|a\\s+maximum\\s+of|maximum\\s+of|max(?:imum)?\\.?)\\s+${NUM}\\s+${UNIT}`,
  ),
  pattern(
    "min",
    `(?:at\\s+least|a\\s+minimum\\s+of|minimum\\s+of|min(?:imum)?\\.?|(?:no|not)\\s+(?:less|fewer|shorter)\\s+than)\\s+${NUM}\\s+${UNIT}`,
  ),
  pattern("max_strict", `(?:less|fewer|shorter)\\s+than\\s+${NUM}\\s+${UNIT}`),
  pattern("max_strict", `under\\s+${NUM}\\s+${UNIT}`),
  pattern("min_strict", `(?:more|longer)\\s+than\\s+${NUM}\\s+${UNIT}`),
  pattern("exact", `exactly\\s+${NUM}\\s+${UNIT}`),
  pattern("exact", `(?:a\\s+)?single\\s+(sentence|word)(?![\\w-])`),
  pattern(
    "exact",
    `${NUM}[-\\s](word|sentence)(?=[-\\s](?:caption|description|summary|answer|poem|story|narrative|text)\\b)`,
  ),
  pattern("exact", `${NUM}\\s+${UNIT}`),
];

function toNumber(text: string): number {
  const lower = text.toLowerCase();
  return lower in NUMBER_WORDS ? NUMBER_WORDS[lower]! : Number(lower);
}

function toUnit(text: string): RestrictionUnit {
  return text.toLowerCase().startsWith("word") ? "words" : "sentences";
}

interface Found {
  start: number;
  end: number;
  restriction: LengthRestriction;
}

function findAll(text: string): Found[] {
  const found: Found[] = [];
  for (const { kind, regex } of PATTERNS) {
    regex.lastIndex = 0;
    for (const match of text.matchAll(regex)) {
      const start = match.index;
      const end = start + match[0].length;
      // A phrase inside one already found ("30 words" inside "20 to 30 words") is part of it.
      if (found.some((other) => start < other.end && end > other.start)) continue;
      const groups = match.slice(1).filter((group): group is string => group !== undefined);
      const unit = toUnit(groups.at(-1)!);
      const source = match[0].trim();
      let restriction: LengthRestriction;
      if (kind === "range") {
        const [a, b] = [toNumber(groups[0]!), toNumber(groups[1]!)];
        restriction = { unit, min: Math.min(a, b), max: Math.max(a, b), source };
      } else if (groups.length === 1) {
        restriction = { unit, exact: 1, source }; // "a single sentence"
      } else {
        const n = toNumber(groups[0]!);
        restriction =
          kind === "max"
            ? { unit, max: n, source }
            : kind === "max_strict"
              ? { unit, max: n - 1, source }
              : kind === "min"
                ? { unit, min: n, source }
                : kind === "min_strict"
                  ? { unit, min: n + 1, source }
                  : { unit, exact: n, source };
      }
      found.push({ start, end, restriction });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/**
 * Every length restriction in the text, at most one per unit, in the order they appear. Bounds on one unit
 * combine ("at least 10 words and no more than 50 words" → min 10, max 50). Bounds on one unit that cannot
 * be combined (two different exact counts, or an exact count beside a bound) make the text ambiguous for
 * that unit, and it is left out rather than guessed.
 */
export function parseRestrictions(text: string | null | undefined): LengthRestriction[] {
  if (!text) return [];
  const byUnit = new Map<RestrictionUnit, LengthRestriction | null>();
  for (const { restriction } of findAll(text)) {
    if (!byUnit.has(restriction.unit)) {
      byUnit.set(restriction.unit, restriction);
      continue;
    }
    const previous = byUnit.get(restriction.unit);
    if (previous === null || previous === undefined) continue;
    byUnit.set(restriction.unit, combine(previous, restriction));
  }
  return [...byUnit.values()].filter((restriction): restriction is LengthRestriction => restriction !== null);
}

function combine(a: LengthRestriction, b: LengthRestriction): LengthRestriction | null {
  if (a.exact !== undefined || b.exact !== undefined) {
    return a.exact !== undefined &&
      a.exact === b.exact &&
      a.min === undefined &&
      b.min === undefined &&
      a.max === undefined &&
      b.max === undefined
      ? a
      : null;
  }
  const min = a.min !== undefined && b.min !== undefined ? (a.min === b.min ? a.min : null) : (a.min ?? b.min);
  const max = a.max !== undefined && b.max !== undefined ? (a.max === b.max ? a.max : null) : (a.max ?? b.max);
  if (min === null || max === null) return null;
  if (min !== undefined && max !== undefined && min > max) return null;
  return {
    unit: a.unit,
    ...(min !== undefined ? { min } : {}),
    ...(max !== undefined ? { max } : {}),
    source: `${a.source}; ${b.source}`,
  };
}

export type RestrictionCheck = { passed: true } | { passed: false; problem: string };

/** Whether a count satisfies a restriction, and in words what is wrong when it does not. */
export function checkRestriction(restriction: LengthRestriction, count: number): RestrictionCheck {
  const unit = restriction.unit;
  if (restriction.exact !== undefined && count !== restriction.exact)
    return { passed: false, problem: `needs exactly ${restriction.exact} ${unit}` };
  if (restriction.min !== undefined && count < restriction.min)
    return { passed: false, problem: `is below the minimum of ${restriction.min} ${unit}` };
  if (restriction.max !== undefined && count > restriction.max)
    return { passed: false, problem: `exceeds the maximum of ${restriction.max} ${unit}` };
  return { passed: true };
}

/** "20–30 words", "at most 3 sentences", "exactly 1 sentence". */
export function describeRestriction(restriction: LengthRestriction): string {
  const unit = (n: number) => (n === 1 ? restriction.unit.slice(0, -1) : restriction.unit);
  if (restriction.exact !== undefined) return `exactly ${restriction.exact} ${unit(restriction.exact)}`;
  if (restriction.min !== undefined && restriction.max !== undefined)
    return `${restriction.min}–${restriction.max} ${restriction.unit}`;
  if (restriction.max !== undefined) return `at most ${restriction.max} ${unit(restriction.max)}`;
  return `at least ${restriction.min} ${unit(restriction.min!)}`;
}
