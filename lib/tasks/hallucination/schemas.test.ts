import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defaultStubRules, makeContext } from "../../../testkit/llm-stub/stub-rules";
import {
  DYNAMIC_CATEGORY_IDS,
  DYNAMIC_HALLUCINATION_CATEGORIES,
  dynamicHallucinationSchema,
  dynamicHallucinationScoreValues,
  dynamicKgSchema,
  formatDynamicKgsForSummary,
  formatStaticKg,
  HALLUCINATION_STEP_IDS,
  HALLUCINATION_TEMPLATE_IDS,
  inconsistencySchema,
  inconsistencyScoreValues,
  normalizeCategoryKey,
  STATIC_CATEGORY_IDS,
  STATIC_HALLUCINATION_CATEGORIES,
  staticHallucinationSchema,
  staticHallucinationScoreValues,
  staticKgSchema,
  toResponseFormat,
  videoSummarySchema,
  type HallucinationStepId,
} from "./schemas";
import { boundedScore, parseStructuredOutput } from "../../judge/calls/parse-llm-output";
import { loadTemplate, renderTemplate } from "../../prompt-versions/prompt-templates";

/** Each step's output schema, as the pipeline parses the step's answer. */
const HALLUCINATION_OUTPUT_SCHEMAS = {
  static_kg: staticKgSchema,
  dynamic_kg: dynamicKgSchema,
  video_summary: videoSummarySchema,
  inconsistency: inconsistencySchema,
  static_hallucination: staticHallucinationSchema,
  dynamic_hallucination: dynamicHallucinationSchema,
} satisfies Record<HallucinationStepId, z.ZodType>;

const staticScores = (value = 2) => Object.fromEntries(STATIC_CATEGORY_IDS.map((id) => [id, value]));
const dynamicScores = (value = 2) => Object.fromEntries(DYNAMIC_CATEGORY_IDS.map((id) => [id, value]));

function parsed<T>(text: string, schema: z.ZodType<T>): T {
  const result = parseStructuredOutput(text, schema);
  if (!result.ok) throw new Error(`${result.kind}: ${result.error}`);
  return result.value;
}

function failed(text: string, schema: z.ZodType) {
  const result = parseStructuredOutput(text, schema);
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result;
}

describe("category tables", () => {
  it("number the categories as the seed does, with its names", () => {
    expect(STATIC_CATEGORY_IDS).toEqual(["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10"]);
    expect(DYNAMIC_CATEGORY_IDS).toEqual(["d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9"]);
    const staticPrompt = loadTemplate("hallucination/static-hallucination").body;
    for (const [index, category] of STATIC_HALLUCINATION_CATEGORIES.entries()) {
      expect(staticPrompt).toContain(`  ${index + 1}. ${category.name}: ${category.description}\n`);
    }
    const dynamicPrompt = loadTemplate("hallucination/dynamic-hallucination").body;
    for (const [index, category] of DYNAMIC_HALLUCINATION_CATEGORIES.entries()) {
      expect(dynamicPrompt).toContain(`  ${index + 1}. ${category.name}: ${category.description}\n`);
    }
  });

  it("normalizes category keys", () => {
    expect(normalizeCategoryKey("3. Lighting, shadow, and material physical inaccuracy")).toBe(
      "lightingshadowandmaterialphysicalinaccuracy",
    );
    expect(normalizeCategoryKey(" S10 ")).toBe("s10");
    expect(normalizeCategoryKey("10")).toBe("10");
  });
});

describe("static knowledge graph", () => {
  it("accepts the seed's format, also doubled-brace and in prose after the intermediate lists", () => {
    const answer =
      'Objects: ["man_1", "dog"]\nRelations: ["man_1", "walking", "dog"]\n{{"objects": ["man_1", "dog"], "relations":[["man_1", "walking", "dog"]]}}';
    expect(parsed(answer, staticKgSchema)).toEqual({
      objects: ["man_1", "dog"],
      relations: [["man_1", "walking", "dog"]],
    });
  });

  it("maps relation objects by part name, not key order", () => {
    const answer = JSON.stringify({
      objects: ["a", "b"],
      relations: [
        { relation: "on", object: "b", subject: "a" },
        { entity_1: "b", relation: "under", entity_2: "a" },
      ],
    });
    expect(parsed(answer, staticKgSchema).relations).toEqual([
      ["a", "on", "b"],
      ["b", "under", "a"],
    ]);
  });

  it("rejects relations that are not triples", () => {
    expect(failed('{"objects": ["a"], "relations": [["a", "on"]]}', staticKgSchema).error).toMatch(/relations\[0\]/);
    expect(failed('{"objects": ["a"], "relations": [{"x": "a", "y": "on", "z": "b"}]}', staticKgSchema).error).toMatch(
      /relations\[0\]: must be \[entity 1, relation, entity 2\]/,
    );
    expect(failed('{"objects": ["a"]}', staticKgSchema).error).toMatch(/relations: /);
  });
});

describe("dynamic knowledge graph", () => {
  it("takes the final `changes` object, not the intermediate per-object format", () => {
    const answer =
      'Frame 1→2: {"dog": "moves left"}\nOverall: {{"changes":{{"dog": "moves left", "tree": "unchanged"}}}}';
    expect(parsed(answer, dynamicKgSchema)).toEqual({ changes: { dog: "moves left", tree: "unchanged" } });
  });

  it("requires the `changes` wrapper and text values", () => {
    expect(failed('{"dog": "moves left"}', dynamicKgSchema).error).toMatch(/changes: /);
    expect(failed('{"changes": {"dog": {"position": "left"}}}', dynamicKgSchema).error).toMatch(
      /changes\.dog: must be a text/,
    );
  });
});

describe("video summary", () => {
  it("accepts the JSON wrapper or plain text, never an empty summary", () => {
    expect(parsed('{"summary": "A dog walks."}', videoSummarySchema)).toEqual({ summary: "A dog walks." });
    expect(parsed("A dog walks along a beach at sunset.", videoSummarySchema)).toEqual({
      summary: "A dog walks along a beach at sunset.",
    });
    expect(failed('{"summary": "  "}', videoSummarySchema).error).toMatch(/summary: must not be empty/);
  });
});

describe("inconsistency", () => {
  it("needs a 0–10 score; the reason is optional", () => {
    expect(parsed('{"score": 4, "reason": null}', inconsistencySchema)).toEqual({ score: 4 });
    expect(failed('{"reason": "mostly consistent"}', inconsistencySchema).repairHint).toMatch(/score: missing/);
    expect(failed('{"score": 10.5}', inconsistencySchema).error).toMatch(/10\.5 is outside 0–10/);
  });
});

describe("static hallucination scores", () => {
  it("accepts all ten ids", () => {
    const value = parsed(JSON.stringify({ scores: staticScores(1), reason: "fine" }), staticHallucinationSchema);
    expect(Object.keys(value.scores)).toEqual(STATIC_CATEGORY_IDS);
    expect(staticHallucinationScoreValues(value)).toHaveLength(10);
  });

  it("maps category names, keys and numbers to ids, and {score} values to their score", () => {
    const scores = Object.fromEntries(
      STATIC_HALLUCINATION_CATEGORIES.map((category, index) => {
        const key =
          index % 4 === 0
            ? category.name
            : index % 4 === 1
              ? `${index + 1}. ${category.name}`
              : index % 4 === 2
                ? category.key
                : String(index + 1);
        return [key, index === 5 ? { score: 8, explanation: "table floats" } : index];
      }),
    );
    const value = parsed(JSON.stringify({ scores }), staticHallucinationSchema);
    expect(value.scores).toEqual({ s1: 0, s2: 1, s3: 2, s4: 3, s5: 4, s6: 8, s7: 6, s8: 7, s9: 8, s10: 9 });
  });

  it("rejects a missing category, naming it, and scores above 10", () => {
    const { s7: _dropped, ...nine } = staticScores();
    const missing = failed(JSON.stringify({ scores: nine }), staticHallucinationSchema);
    expect(missing.kind).toBe("invalid");
    expect(missing.repairHint).toMatch(/scores\.s7: missing/);
    expect(failed(JSON.stringify({ scores: { ...staticScores(), s3: 11 } }), staticHallucinationSchema).error).toMatch(
      /scores\.s3: 11 is outside 0–10/,
    );
  });

  it("rejects unknown and doubly given categories", () => {
    expect(
      failed(JSON.stringify({ scores: { ...staticScores(), overall: 3 } }), staticHallucinationSchema).error,
    ).toMatch(/scores: unknown key "overall"/);
    expect(
      failed(
        JSON.stringify({ scores: { ...staticScores(), "Geometric structure irrationality": 3 } }),
        staticHallucinationSchema,
      ).error,
    ).toMatch(/scores\.s1: given twice, as "s1" and as "Geometric structure irrationality"/);
    expect(failed(JSON.stringify({ scores: dynamicScores() }), staticHallucinationSchema).kind).toBe("invalid");
  });
});

describe("dynamic hallucination scores", () => {
  it("accepts all nine ids, names included, and rejects missing ones", () => {
    const { d1: _replaced, ...others } = dynamicScores(3);
    const value = parsed(JSON.stringify({ scores: { Clipping: 9, ...others } }), dynamicHallucinationSchema);
    expect(value.scores.d1).toBe(9);
    expect(dynamicHallucinationScoreValues(value).map((s) => s.category)).toEqual(DYNAMIC_CATEGORY_IDS);
    const { d9: _dropped, ...eight } = dynamicScores();
    expect(failed(JSON.stringify({ scores: eight }), dynamicHallucinationSchema).error).toMatch(/scores\.d9: missing/);
  });
});

describe("response formats", () => {
  /** Every object in a strict schema must list all its properties as required and forbid others. */
  function strictProblems(schema: unknown, where = "$"): string[] {
    if (typeof schema !== "object" || schema === null) return [];
    const node = schema as Record<string, unknown>;
    const problems: string[] = [];
    if (node.type === "object") {
      const properties = Object.keys((node.properties as Record<string, unknown> | undefined) ?? {});
      if (node.additionalProperties !== false) problems.push(`${where}: additionalProperties is not false`);
      if (
        JSON.stringify([...((node.required as string[] | undefined) ?? [])].sort()) !==
        JSON.stringify([...properties].sort())
      )
        problems.push(`${where}: not all properties required`);
    }
    for (const [key, child] of Object.entries(node)) problems.push(...strictProblems(child, `${where}.${key}`));
    return problems;
  }

  it("are strict-mode compatible, except the free-keyed dynamic KG which is sent non-strict", () => {
    for (const stepId of HALLUCINATION_STEP_IDS) {
      const format = toResponseFormat(stepId);
      expect(format.type).toBe("json_schema");
      expect(format.json_schema.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(format.json_schema.strict).toBe(stepId !== "dynamic_kg");
      if (format.json_schema.strict) expect(strictProblems(format.json_schema.schema)).toEqual([]);
    }
    expect(strictProblems(toResponseFormat("dynamic_kg").json_schema.schema)).toEqual([
      "$.properties.changes: additionalProperties is not false",
    ]);
  });

  it("list every category of the scoring steps", () => {
    const staticSchema = toResponseFormat("static_hallucination").json_schema.schema as {
      properties: { scores: { required: string[] } };
    };
    expect(staticSchema.properties.scores.required).toEqual(STATIC_CATEGORY_IDS);
    const dynamicSchema = toResponseFormat("dynamic_hallucination").json_schema.schema as {
      properties: { scores: { required: string[] } };
    };
    expect(dynamicSchema.properties.scores.required).toEqual(DYNAMIC_CATEGORY_IDS);
  });
});

const SAMPLE_VALUES: Record<string, string> = {
  original_prompt: "A corgi runs along a beach at sunset.",
  relation: formatStaticKg({ objects: ["dog", "ball"], relations: [["dog", "chasing", "ball"]] }),
  change: '{"changes":{"dog":"runs to the right"}}',
  changes: formatDynamicKgsForSummary([{ changes: { dog: "runs to the right" } }, { changes: { dog: "stops" } }]),
  generated_prompt: "A small dog runs on sand while the sun sets.",
  caption_type: "brief",
  output: "A dog runs on a beach.",
  reference: "A corgi running along the beach at sunset.",
};

const STUB_RULE_FOR_STEP: Record<HallucinationStepId, string> = {
  static_kg: "static-knowledge-graph",
  dynamic_kg: "dynamic-knowledge-graph",
  video_summary: "video-summary",
  inconsistency: "inconsistency-check",
  static_hallucination: "static-hallucination",
  dynamic_hallucination: "dynamic-hallucination",
};

function renderWithSamples(templateId: string): string {
  const template = loadTemplate(templateId);
  return renderTemplate(template, Object.fromEntries(template.inputs.map((name) => [name, SAMPLE_VALUES[name]!])));
}

describe("templates and the stub LLM's rules", () => {
  it("each template names its step's output schema", () => {
    for (const stepId of HALLUCINATION_STEP_IDS) {
      expect(loadTemplate(HALLUCINATION_TEMPLATE_IDS[stepId]).meta.output).toBe(`hallucination/${stepId}`);
    }
  });

  it("each rendered template matches exactly its own stub rule, and the stub's answers parse with the step's schema", () => {
    for (const stepId of HALLUCINATION_STEP_IDS) {
      const text = renderWithSamples(HALLUCINATION_TEMPLATE_IDS[stepId]);
      const matching = defaultStubRules().filter((rule) => rule.match.test(text));
      expect(matching.map((rule) => rule.name)).toEqual([STUB_RULE_FOR_STEP[stepId]]);
      for (const [video, wantsJson] of [
        ["video-a", true],
        ["video-b", false],
        ["video-c", true],
      ] as const) {
        const answer = matching[0]!.respond(makeContext(text, [video], wantsJson));
        const schema: z.ZodType = HALLUCINATION_OUTPUT_SCHEMAS[stepId];
        const result = parseStructuredOutput(answer, schema);
        expect(result, `${stepId} ${video}: ${answer}`).toMatchObject({ ok: true });
      }
    }
  });

  it("the stub's scores use the canonical category ids", () => {
    const text = renderWithSamples("hallucination/static-hallucination");
    const rule = defaultStubRules().find((candidate) => candidate.name === "static-hallucination")!;
    const answer = JSON.parse(rule.respond(makeContext(text, ["v"], true))) as { scores: Record<string, number> };
    expect(Object.keys(answer.scores)).toEqual(STATIC_CATEGORY_IDS);
    const inconsistency = defaultStubRules().find((candidate) => candidate.name === "inconsistency-check")!;
    const score = parsed(
      inconsistency.respond(makeContext(renderWithSamples("hallucination/inconsistency"), ["v"], true)),
      inconsistencySchema,
    );
    expect(inconsistencyScoreValues(score)).toEqual([{ category: "inconsistency", value: score.score }]);
  });

  it("the caption rubric prompt matches only the caption rule, whose answer is a 0–4 score", () => {
    const text = renderWithSamples("caption-rubric/judge");
    const matching = defaultStubRules().filter((rule) => rule.match.test(text));
    expect(matching.map((rule) => rule.name)).toEqual(["caption-rubric"]);
    const rubric = z.object({ score: boundedScore(0, 4, { integer: true }), reason: z.string() });
    expect(parseStructuredOutput(matching[0]!.respond(makeContext(text, ["v"], false)), rubric)).toMatchObject({
      ok: true,
    });
  });
});
