import { describe, expect, it } from "vitest";
import { loadTemplate, renderTemplate } from "../../prompt-versions/prompt-templates";
import { clipInfoLines, generationTemplateId, pythonFloat, renderClipInfo } from "./render-clip-info";
import type { AnnotatedStep } from "./step-annotations";

const step = (
  start: number,
  end: number,
  text: string,
  category: string | null = null,
  substeps: AnnotatedStep[] = [],
): AnnotatedStep => ({ start, end, text, category, substeps });

// Seed 004, Table 4's worked example (HiREST, "Make a Plaster Mask"), with its "similar-to\sim" printed as the "∼" it stands for.
const TABLE_4_INPUT = `   - video_info:
      - video theme: Make a Plaster Mask
      - duration: 103.0s
      - key action within specific time intervals:
        - 35s ∼ 48s : clean out the face
        - 48s ∼ 60s : apply tissue using water on face
        - 60s ∼ 72s : apply it for full face
        - 72s ∼ 77s : put it under the neck
        - 77s ∼ 79s : dry it out`;

const PLASTER_MASK = {
  theme: "Make a Plaster Mask",
  duration: 103,
  steps: [
    step(35, 48, "clean out the face"),
    step(48, 60, "apply tissue using water on face"),
    step(60, 72, "apply it for full face"),
    step(72, 77, "put it under the neck"),
    step(77, 79, "dry it out"),
  ],
};

describe("renderClipInfo", () => {
  it("formats a HiREST video as Table 4's worked example", () => {
    expect(renderClipInfo("hirest", "coarse", PLASTER_MASK)).toBe(TABLE_4_INPUT);
  });

  it("names the theme a recipe type for YouCook2 (Table 6) and keeps fractional durations as given", () => {
    const text = renderClipInfo("youcook2", "fine", {
      theme: "grilled cheese",
      duration: 241.62,
      steps: [step(90, 102, "spread margarine on two slices of white bread")],
    });
    expect(text.split("\n")).toEqual([
      "   - video_info:",
      "      - recipe type: grilled cheese",
      "      - duration: 241.62s",
      "      - key action within specific time intervals:",
      "        - 90s ∼ 102s : spread margarine on two slices of white bread",
    ]);
  });

  it("formats Ego4D Goal-Step steps and substeps as Table 8's worked example (its visible lines)", () => {
    const text = renderClipInfo("ego4d", "coarse", {
      theme: "making pan seared meal",
      duration: null,
      steps: [
        step(0, 27.16, "heat butter", "Add butter to a pan", [
          step(0.16, 18.61, "add butter to skillet", "Add oil to a pan"),
          step(18.61, 27.2, "put butter in refrigerator", "Store ingredients in refrigerator or freezer"),
        ]),
        step(273.64, 319.18, "make egg salad", "Make egg salad", [
          step(273.72, 299.58, "cut onion on kitchen board", "Cut onion"),
          step(299.58, 310.41, "add chopped onions to plate", "Add onion to recipe"),
        ]),
      ],
    });
    expect(text).toBe(`   - Instructional Video Clip Info(a segment extracted from the original video):
      - video goal: making pan seared meal
      - key action within specific time intervals(are divided into steps and substeps, shown by different indents):
        - 0.0s ∼ 27.16s: Add butter to a pan(heat butter)
           - (0.16s ∼ 18.61s: Add oil to a pan(add butter to skillet))
           - (18.61s ∼ 27.2s: Store ingredients in refrigerator or freezer(put butter in refrigerator))
        - 273.64s ∼ 319.18s: Make egg salad(make egg salad)
           - (273.72s ∼ 299.58s: Cut onion(cut onion on kitchen board))
           - (299.58s ∼ 310.41s: Add onion to recipe(add chopped onions to plate))`);
  });

  it("uses Table 20's two-layer wording for fine-grained Ego4D and Table 21's scenario without substeps for Ego-Exo4D", () => {
    const ego4dFine = renderClipInfo("ego4d", "fine", {
      theme: "x",
      duration: 240.5,
      steps: [step(1069.34, 1298.59, "preheat pots", "Preheat a pan or pot on the stovetop")],
    });
    expect(ego4dFine).toContain(
      "      - duration: 240.5s\n      - key action within specific time intervals(consisting of two layers: actions and sub-actions, indicated by different idents):\n        - 1069.34s ∼ 1298.59s: Preheat a pan or pot on the stovetop(preheat pots)",
    );
    const exo = renderClipInfo("egoexo4d", "coarse", {
      theme: "Covid-19 Rapid Antigen Test",
      duration: null,
      steps: [step(0, 24.57, "Unbox the COVID-19 test kit box", "Unbox package", [step(1, 2, "hidden")])],
    });
    expect(exo.split("\n")).toEqual([
      "   - Instructional Video Clip Info(a segment extracted from the original video):",
      "      - video scenario: Covid-19 Rapid Antigen Test",
      "      - key action within specific time intervals:",
      "        - 0.0s ∼ 24.57s: Unbox package(Unbox the COVID-19 test kit box)",
    ]);
  });

  it("formats other data as the generalized template's example as Tables 17–19 print it", () => {
    const text = renderClipInfo("generic", "coarse", {
      theme: "Making pan seared meal",
      duration: 400,
      steps: [
        step(0, 27.16, "heat butter", "Add butter to a pan", [
          step(0.16, 18.61, "add butter to skillet", "Add oil to a pan"),
        ]),
        step(30, 40, "no category"),
      ],
    });
    expect(text).toBe(`   - Instructional Video Clip Info (a segment extracted from the original video):
      - Video Goal: Making pan seared meal
      - Key Actions Within Specific Time Intervals (divided into steps and substeps, shown by different indents):
        - 0.0s ∼ 27.16s: Add butter to a pan (heat butter)
           - (0.16s ∼ 18.61s: Add oil to a pan (add butter to skillet))
        - 30.0s ∼ 40.0s: no category`);
  });

  it("prints seconds as Python prints a float", () => {
    expect([0, 27.2, 103, 0.16].map(pythonFloat)).toEqual(["0.0", "27.2", "103.0", "0.16"]);
  });
});

describe("generation templates (prompts/construction)", () => {
  it("fill Table 4's template with the worked example exactly where the seed shows it", () => {
    const template = loadTemplate(generationTemplateId("hirest", "coarse"));
    expect(template.inputs).toEqual(["video_info"]);
    const prompt = renderTemplate(template, { video_info: renderClipInfo("hirest", "coarse", PLASTER_MASK) });
    expect(
      prompt.startsWith(
        "You are an experienced teacher who are good at understanding long instructional video, capturing the action and movement of the video",
      ),
    ).toBe(true);
    expect(prompt).toContain(
      `   - Watch the video through the text video info carefully, and design three inferential, challenging question-answer pairs as if you are watching the video.\n## Input:\n${TABLE_4_INPUT}\n## Output:\n   - Use your extensive experience`,
    );
    expect(prompt.endsWith('each pair is in json format: {"Question": xxx, "Answer": xxx, "Reason": xxx}.')).toBe(true);
  });

  it("exist for every family and granularity, each with one video_info input", () => {
    for (const family of ["hirest", "youcook2", "ego4d", "egoexo4d", "generic"] as const) {
      for (const granularity of ["coarse", "fine"] as const) {
        const template = loadTemplate(generationTemplateId(family, granularity));
        expect(template.inputs).toEqual(["video_info"]);
        expect(template.meta.source).toMatch(
          /^seed 004 \(InstructionBench\), Table \d+, (generating|the generalized prompt template)/,
        );
        expect(template.body).not.toMatch(/similar-to|\u00a0/);
      }
    }
  });
});

describe("filtering and transformation templates (prompts/construction)", () => {
  it("fill Table 30 (pick four wrong answers) with its worked example as the seed prints it", () => {
    const template = loadTemplate("construction/wrong-answers-pick-four");
    expect(template.meta.source).toBe("seed 004 (InstructionBench), Table 30, Picking Up 4 Wrong Answers");
    const wrong = [
      "After cleaning the face, it is dried out.",
      "After cleaning the face, another layer of cleaning is applied.",
    ];
    const prompt = renderTemplate(template, {
      video_info: clipInfoLines("hirest", "coarse", PLASTER_MASK),
      question: "What is the process that takes place after cleaning out the face?",
      answer: "After cleaning the face, tissue is applied on the face using water.",
      wrong_answers: wrong.map((w) => `      - Wrong_answer: ${w}`).join("\n"),
    });
    expect(prompt).toContain(
      `## Input:\n   - Video_info:\n${TABLE_4_INPUT.split("\n").slice(1).join("\n")}\n   - Question: What is the process that takes place after cleaning out the face?\n   - Answer: After cleaning the face, tissue is applied on the face using water.\n   - Wrong_answer_list:\n      - Wrong_answer: After cleaning the face, it is dried out.\n      - Wrong_answer: After cleaning the face, another layer of cleaning is applied.\n## Output:\n`,
    );
    expect(
      prompt.startsWith(
        "You are an experienced teacher specializing in creating challenging single-choice questions (SCQs).",
      ),
    ).toBe(true);
  });

  it("each name the seed table it comes from and take only what the table's example varies", () => {
    const expected: Record<string, string[]> = {
      "construction/categorise": ["question"],
      "construction/filter-hallucination": ["video_info", "question"],
      "construction/answer-with-annotations": ["question", "video_info"],
      "construction/filter-unspecific": ["video_info", "question", "answer"],
      "construction/wrong-answers-six": ["video_info", "question", "answer"],
      "construction/best-option-without-video": ["question", "options"],
      "construction/best-option-with-video": ["video_info", "question", "options"],
    };
    for (const [id, inputs] of Object.entries(expected)) {
      const template = loadTemplate(id);
      expect(template.inputs).toEqual(inputs);
      expect(template.meta.source).toMatch(/^seed 004 \(InstructionBench\), Table (2[3-9]|3[0-2]), /);
      expect(template.body).not.toMatch(/similar-to|\u00a0|Plaster Mask|Prusik/);
    }
  });
});
