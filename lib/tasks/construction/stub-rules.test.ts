import { describe, expect, it } from "vitest";
import { loadTemplate, renderTemplate } from "../../prompt-versions/prompt-templates";
import { clipInfoLines, renderClipInfo } from "./render-clip-info";
import { defaultStubRules, makeContext } from "../../../testkit/llm-stub/stub-rules";

const render = (id: string, values: Record<string, string>) => renderTemplate(loadTemplate(id), values);
const step = (start: number, end: number, text: string) => ({ start, end, text, category: null, substeps: [] });
const CLIP = {
  theme: "Make a Plaster Mask",
  duration: 103,
  steps: [step(35, 48, "clean out the face"), step(48, 60, "apply tissue using water"), step(60, 72, "dry it out")],
};
const INFO = clipInfoLines("hirest", "coarse", CLIP);

/** As the server answers: the first rule that matches (the construction rules come before the QA rules). */
function respond(text: string, seen = 0, model = "stub-constructor") {
  const matching = defaultStubRules().filter((rule) => rule.match.test(text));
  expect(matching.length).toBeGreaterThan(0);
  return { rule: matching[0]!.name, answer: matching[0]!.respond(makeContext(text, [], true, model, seen)) };
}

describe("the stub's construction rules", () => {
  it("generate coarse pairs forward and fine pairs backward from the clip's steps, for every family's templates", () => {
    for (const family of ["hirest", "youcook2", "ego4d", "egoexo4d", "generic"] as const) {
      const coarse = JSON.parse(
        respond(
          render(`construction/generate-${family}-coarse`, { video_info: renderClipInfo(family, "coarse", CLIP) }),
        ).answer,
      );
      const fine = JSON.parse(
        respond(render(`construction/generate-${family}-fine`, { video_info: renderClipInfo(family, "fine", CLIP) }))
          .answer,
      );
      expect(
        coarse.map((p: { Question: string }) => p.Question),
        family,
      ).toEqual(["What happens after clean out the face?", "What happens after apply tissue using water?"]);
      expect(
        fine.map((p: { Answer: string }) => p.Answer),
        family,
      ).toEqual(["clean out the face", "apply tissue using water"]);
    }
  });

  it("answer each filter and transformation prompt by its rule, and leave the QA blind prompts to the QA rules", () => {
    const question = "What happens after clean out the face?";
    expect(JSON.parse(respond(render("construction/categorise", { question })).answer)).toMatchObject({
      Question_type: "Future Step Prediction",
    });
    expect(
      JSON.parse(
        respond(
          render("construction/filter-hallucination", {
            video_info: INFO,
            question: "What happens after the unicorn?",
          }),
        ).answer,
      ),
    ).toMatchObject({ Judgement: "Yes" });
    expect(
      JSON.parse(respond(render("construction/answer-with-annotations", { question, video_info: INFO })).answer),
    ).toMatchObject({ Answer: "apply tissue using water" });
    expect(
      JSON.parse(
        respond(
          render("construction/filter-unspecific", { video_info: INFO, question, answer: "apply tissue using water" }),
        ).answer,
      ),
    ).toMatchObject({ Judgement: "No" });
    const six = Object.values(
      JSON.parse(
        respond(
          render("construction/wrong-answers-six", { video_info: INFO, question, answer: "apply tissue using water" }),
        ).answer,
      ),
    ) as string[];
    expect(new Set(six).size).toBe(6);
    const listed = six.map((w) => `      - Wrong_answer: ${w}`).join("\n");
    const twin = render("construction/wrong-answers-pick-four", {
      video_info: INFO,
      question: "What happens after the twin?",
      answer: "apply tissue using water",
      wrong_answers: listed,
    });
    expect(Object.values(JSON.parse(respond(twin, 0).answer))).toEqual([six[0], six[0], six[2], six[3]]);
    expect(Object.values(JSON.parse(respond(twin, 1).answer))).toEqual(six.slice(0, 4));
    const options = [...six.slice(0, 4), "apply tissue using water"]
      .map((text, i) => `      ${"ABCDE"[i]}. ${text}`)
      .join("\n");
    expect(respond(render("construction/best-option-without-video", { question, options })).answer).toContain(
      '"Best_option":"A. ',
    );
    expect(
      respond(render("construction/best-option-with-video", { video_info: INFO, question, options })).answer,
    ).toContain('"Best_option":"E. apply tissue using water"');
    expect(
      respond(
        render("construction/best-option-with-video", {
          video_info: INFO,
          question: "What happens after the stubborn one?",
          options,
        }),
      ).answer,
    ).toContain('"Best_option":"A. ');
    // A "knowing" model rules the twisted distractors out without the video, wherever the correct option is.
    const shuffled = [six[1], "apply tissue using water", six[0], six[2], six[3]]
      .map((text, i) => `      ${"ABCDE"[i]}. ${text}`)
      .join("\n");
    expect(
      respond(
        render("construction/best-option-without-video", { question, options: shuffled }),
        0,
        "stub-knowing-a-1234",
      ).answer,
    ).toContain('"Best_option":"B. apply tissue using water"');
    expect(respond(render("construction/best-option-without-video", { question, options: shuffled })).answer).toContain(
      '"Best_option":"A. ',
    );
    // The QA baseline's blind prompts, with no construction distractors or markers, keep their QA rules.
    expect(respond(render("qa/text-only-open", { question })).rule).toBe("qa-text-only-open");
    expect(respond(render("qa/text-only-open", { question: "Is it obvious?" })).rule).toBe(
      "construction-blind-obvious",
    );
    expect(respond(render("qa/text-only-mc", { question, options: "      A. x\n      B. y" })).rule).toBe(
      "qa-text-only-mc",
    );
  });
});
