import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  boundedScore,
  describeIssues,
  findJsonValues,
  parseStructuredOutput,
  type JsonExtraction,
} from "./parse-llm-output";

/** The first JSON object or array in an LLM answer. */
function extractJson(text: string): JsonExtraction {
  const found = findJsonValues(text);
  const first = found.values[0];
  return first ? { ok: true, value: first.value } : { ok: false, error: found.error };
}

/** Every JSON object or array in the answer, fenced blocks first, then in order of appearance. */
function extractJsonValues(text: string): unknown[] {
  return findJsonValues(text).values.map((found) => found.value);
}

function valueOf(text: string): unknown {
  const result = extractJson(text);
  if (!result.ok) throw new Error(`expected JSON, got error: ${result.error}`);
  return result.value;
}

function errorOf(text: string): string {
  const result = extractJson(text);
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`);
  return result.error;
}

describe("extractJson", () => {
  it("takes a whole-text answer", () => {
    expect(valueOf('  {"score": 3, "reason": "ok"}\n')).toEqual({ score: 3, reason: "ok" });
    expect(valueOf("[1, 2]")).toEqual([1, 2]);
  });

  it("takes a fenced block, with or without a language tag", () => {
    expect(valueOf('Here you go:\n```json\n{"a": 1}\n```\nDone.')).toEqual({ a: 1 });
    expect(valueOf('```\n{"a": 2}\n```')).toEqual({ a: 2 });
  });

  it("prefers a fenced block over an example in the prose before it", () => {
    expect(valueOf('The format is {"a": 0}.\n```json\n{"a": 1}\n```')).toEqual({ a: 1 });
  });

  it("finds an object wrapped in prose", () => {
    expect(valueOf('Sure! My analysis: {"objects": ["dog"], "relations": []} Hope this helps.')).toEqual({
      objects: ["dog"],
      relations: [],
    });
  });

  it("collapses the seeds' doubled braces when the doubled form does not parse", () => {
    expect(valueOf('Result:{{"objects": ["a_1", "a_2"], "relations":[["a_1", "next to", "a_2"]]}}')).toEqual({
      objects: ["a_1", "a_2"],
      relations: [["a_1", "next to", "a_2"]],
    });
    expect(valueOf('{{"changes":{{"dog": "runs", "cat": "unchanged"}}}}')).toEqual({
      changes: { dog: "runs", cat: "unchanged" },
    });
  });

  it("leaves braces and escaped quotes inside strings alone", () => {
    const value = { reason: 'the sign says "}{" and {{name}} \\ ok', nested: { list: [{ a: "]" }] } };
    expect(valueOf(`Answer: ${JSON.stringify(value)} end`)).toEqual(value);
    expect(valueOf(`{"reason": "don't {{collapse}} me", "x": 1,}`)).toEqual({ reason: "don't {{collapse}} me", x: 1 });
  });

  it("returns nested objects whole", () => {
    expect(valueOf('x {"scores": {"s1": 1, "s2": {"score": 2}}, "reason": "r"} y')).toEqual({
      scores: { s1: 1, s2: { score: 2 } },
      reason: "r",
    });
  });

  it("gives the first of two objects in prose, and lists both", () => {
    const text = 'First {"a": 1} and then {"b": 2}.';
    expect(valueOf(text)).toEqual({ a: 1 });
    expect(extractJsonValues(text)).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it("repairs trailing commas and Python literals", () => {
    expect(valueOf('{"a": [1, 2,], "b": {"c": 3,},}')).toEqual({ a: [1, 2], b: { c: 3 } });
    expect(
      valueOf("{'objects': ['dog', 'cat'], 'ok': True, 'none': None, 'no': False, 'q': 'say \"hi\"', 'it': 'it\\'s'}"),
    ).toEqual({
      objects: ["dog", "cat"],
      ok: true,
      none: null,
      no: false,
      q: 'say "hi"',
      it: "it's",
    });
  });

  it("escapes raw line breaks inside strings and drops Python's \\' escape", () => {
    expect(valueOf('{"summary": "line one\nline two"}')).toEqual({ summary: "line one\nline two" });
    expect(valueOf('{"summary": "the dog\\\'s tail"}')).toEqual({ summary: "the dog's tail" });
  });

  it("rejects NaN and Infinity", () => {
    expect(errorOf('{"score": NaN}')).toMatch(/NaN and Infinity are not JSON numbers/);
    expect(errorOf('{"score": Infinity}')).toMatch(/NaN and Infinity/);
  });

  it("reports cut-off JSON instead of offering its complete inner parts", () => {
    expect(errorOf('{"objects": ["a", "b"], "relations": [["a", "on", "b"')).toMatch(
      /never closed; the answer seems cut off/,
    );
    expect(errorOf('```json\n{"scores": {"s1": 3, "s2": 4}, "reason": "the')).toMatch(/cut off/);
  });

  it("says when there is no JSON at all, or only broken JSON", () => {
    expect(errorOf("The video shows a dog. Score: 7")).toBe("The answer contains no JSON object.");
    expect(errorOf('{"objects": [ojbect_1, object_2, xxx]}')).toMatch(
      /^The text in brackets at character 1 is not valid JSON/,
    );
  });
});

const scored = z.object({ score: boundedScore(0, 10), reason: z.string().optional() });
const categories = z.object({
  scores: z.strictObject({ s1: boundedScore(0, 10), s2: boundedScore(0, 10), s3: boundedScore(0, 10) }),
});

function failure(result: ReturnType<typeof parseStructuredOutput>) {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result;
}

describe("parseStructuredOutput", () => {
  it("accepts a valid answer", () => {
    expect(parseStructuredOutput('{"score": 7.0, "reason": "clear mismatch"}', scored)).toEqual({
      ok: true,
      value: { score: 7, reason: "clear mismatch" },
    });
  });

  it("accepts numeric strings and decimals but not fractions or words", () => {
    expect(parseStructuredOutput('{"score": "7"}', scored)).toEqual({ ok: true, value: { score: 7 } });
    expect(parseStructuredOutput('{"score": 7.5}', scored)).toEqual({ ok: true, value: { score: 7.5 } });
    expect(failure(parseStructuredOutput('{"score": "7/10"}', scored)).error).toMatch(
      /score: must be a number from 0 to 10, not "7\/10"/,
    );
    expect(failure(parseStructuredOutput('{"score": "seven"}', scored)).kind).toBe("invalid");
    expect(failure(parseStructuredOutput('{"score": null}', scored)).error).toMatch(
      /score: must be a number from 0 to 10, not null/,
    );
  });

  it("rejects out-of-range scores instead of clamping", () => {
    const high = failure(parseStructuredOutput('{"score": 11}', scored));
    expect(high.kind).toBe("invalid");
    expect(high.error).toMatch(/score: 11 is outside 0–10/);
    expect(failure(parseStructuredOutput('{"score": -1}', scored)).error).toMatch(/-1 is outside 0–10/);
  });

  it("rejects a missing category with a repair hint naming it", () => {
    const result = failure(parseStructuredOutput('{"scores": {"s1": 1, "s3": 2}}', categories));
    expect(result.kind).toBe("invalid");
    expect(result.error).toContain("scores.s2: missing (a number from 0 to 10 is required)");
    expect(result.repairHint).toBe(
      "Your previous answer did not match the required format: scores.s2: missing (a number from 0 to 10 is required). Reply with only the JSON object in the required format, and no other text.",
    );
  });

  it("names unknown keys", () => {
    expect(
      failure(parseStructuredOutput('{"scores": {"s1": 1, "s2": 2, "s3": 3, "total": 6}}', categories)).error,
    ).toMatch(/scores: unknown key "total"/);
  });

  it("takes the first JSON value the schema accepts", () => {
    const text = 'Step 1: {"object_1": "moves"}\nFinal: {"score": 4}\nAlternative: {"score": 9}';
    expect(parseStructuredOutput(text, scored)).toEqual({ ok: true, value: { score: 4 } });
  });

  it("describes the last candidate of the right shape when none is accepted", () => {
    const text = 'Objects: ["dog", "cat"]\n{"score": 12}';
    expect(failure(parseStructuredOutput(text, scored)).error).toMatch(/score: 12 is outside/);
  });

  it("reports a refusal from the refusal field, from a content filter, or from an apology without JSON", () => {
    const field = failure(parseStructuredOutput(null, scored, { refusal: "I'm sorry, I can't help with that." }));
    expect(field.kind).toBe("refusal");
    expect(field.error).toMatch(/can't help/);
    expect(field.repairHint).toMatch(/Please complete the task above/);
    expect(failure(parseStructuredOutput("", scored, { finishReason: "content_filter" })).kind).toBe("refusal");
    expect(
      failure(parseStructuredOutput("I'm sorry, but I can't assist with evaluating these images.", scored)).kind,
    ).toBe("refusal");
  });

  it("reports truncation when finish_reason is length, even if a prefix parses", () => {
    const cut = failure(parseStructuredOutput('{"score": 3}', scored, { finishReason: "length" }));
    expect(cut.kind).toBe("truncated");
    expect(cut.repairHint).toMatch(/cut off/);
  });

  it("reports null or empty content and prose without JSON as no_json", () => {
    expect(failure(parseStructuredOutput(null, scored)).kind).toBe("no_json");
    expect(failure(parseStructuredOutput("   ", scored)).error).toBe("The answer was empty.");
    const prose = failure(parseStructuredOutput("The score is 7 out of 10.", scored));
    expect(prose.kind).toBe("no_json");
    expect(prose.repairHint).toMatch(/did not contain the required JSON object/);
  });

  it("offers a plain-text answer to a schema that accepts strings, but not when JSON was given", () => {
    const summary = z.preprocess(
      (value) => (typeof value === "string" ? { summary: value } : value),
      z.object({ summary: z.string().min(1) }),
    );
    expect(parseStructuredOutput("  A dog runs across a lawn [1].  ", summary)).toEqual({
      ok: true,
      value: { summary: "A dog runs across a lawn [1]." },
    });
    expect(failure(parseStructuredOutput('{"description": "A dog."}', summary)).error).toMatch(/summary: /);
  });
});

describe("describeIssues", () => {
  it("formats paths with indexes and caps the list", () => {
    const schema = z.object({ relations: z.array(z.tuple([z.string(), z.string(), z.string()])) });
    const result = schema.safeParse({
      relations: [
        ["a", "b", "c"],
        ["a", 1, "c"],
      ],
    });
    expect(result.success).toBe(false);
    expect(describeIssues(result.error!.issues)).toMatch(/^relations\[1\]\[1\]: /);
    const many = z
      .object(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, z.number()])))
      .safeParse({});
    expect(describeIssues(many.error!.issues, 3)).toMatch(/; and 7 more$/);
  });
});

describe("boundedScore", () => {
  it("can require whole numbers", () => {
    const rubric = boundedScore(0, 4, { integer: true });
    expect(rubric.safeParse(3).success).toBe(true);
    expect(rubric.safeParse("4").success).toBe(true);
    expect(rubric.safeParse(2.5).error?.issues[0]?.message).toBe("2.5 is not a whole number from 0 to 4");
    expect(rubric.safeParse(5).success).toBe(false);
  });
});
