import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  createTemplateStore,
  listPlaceholders,
  listTemplateIds,
  loadTemplate,
  parseTemplate,
  promptsDir,
  renderTemplate,
  TemplateError,
  templateHash,
} from "./prompt-templates";

const EXPECTED_TEMPLATES = [
  "caption-content/judge",
  "caption-rubric/judge",
  "construction/answer-with-annotations",
  "construction/best-option-with-video",
  "construction/best-option-without-video",
  "construction/categorise",
  "construction/filter-hallucination",
  "construction/filter-unspecific",
  "construction/generate-ego4d-coarse",
  "construction/generate-ego4d-fine",
  "construction/generate-egoexo4d-coarse",
  "construction/generate-egoexo4d-fine",
  "construction/generate-generic-coarse",
  "construction/generate-generic-coarse-first-person",
  "construction/generate-generic-fine",
  "construction/generate-generic-fine-first-person",
  "construction/generate-hirest-coarse",
  "construction/generate-hirest-fine",
  "construction/generate-youcook2-coarse",
  "construction/generate-youcook2-fine",
  "construction/wrong-answers-pick-four",
  "construction/wrong-answers-six",
  "hallucination/dynamic-hallucination",
  "hallucination/dynamic-kg",
  "hallucination/inconsistency",
  "hallucination/static-hallucination",
  "hallucination/static-kg",
  "hallucination/video-summary",
  "pairwise/compare",
  "qa/answer-mc",
  "qa/answer-open",
  "qa/judge-open",
  "qa/judge-option",
  "qa/text-only-mc",
  "qa/text-only-open",
  "vbench2/complex-landscape-describe",
  "vbench2/complex-landscape-judge",
  "vbench2/complex-landscape-summarize",
  "vbench2/complex-plot-describe",
  "vbench2/complex-plot-judge",
  "vbench2/complex-plot-redescribe",
  "vbench2/complex-plot-summarize",
  "vbench2/composition",
  "vbench2/composition-gate",
  "vbench2/dynamic-attribute",
  "vbench2/dynamic-spatial-relationship-first",
  "vbench2/dynamic-spatial-relationship-last",
  "vbench2/human-clothes",
  "vbench2/human-interaction-describe",
  "vbench2/human-interaction-details",
  "vbench2/human-interaction-judge",
  "vbench2/human-interaction-people",
  "vbench2/material",
  "vbench2/mechanics",
  "vbench2/motion-order-describe",
  "vbench2/motion-order-judge",
  "vbench2/motion-rationality",
  "vbench2/thermotics",
];

/** The seed's Python-format text as the model received it: doubled braces single, <name> filled in. */
function asSent(seedText: string, values: Record<string, string> = {}): string {
  return seedText
    .replaceAll("{{", "{")
    .replaceAll("}}", "}")
    .replace(/<([a-z_]+)>/g, (_, name: string) => values[name] ?? `<${name}>`);
}

const valuesFor = (inputs: string[]) => Object.fromEntries(inputs.map((name) => [name, `«${name} value»`]));

const ENDS_WITH_NEWLINE = ["vbench2/complex-landscape-describe", "vbench2/complex-plot-redescribe"];

describe("the prompt files", () => {
  it("are all present and each loads, declares its placeholders and renders them all", () => {
    expect(listTemplateIds()).toEqual(EXPECTED_TEMPLATES);
    for (const id of EXPECTED_TEMPLATES) {
      const template = loadTemplate(id);
      expect(template.id).toBe(id);
      expect(template.version).toBe(1);
      expect(template.inputs).toEqual(listPlaceholders(template));
      const text = renderTemplate(template, valuesFor(template.inputs));
      expect(text).not.toMatch(/\{\{/);
      for (const name of template.inputs) expect(text).toContain(`«${name} value»`);
      expect(text).not.toMatch(/^---/);
      // VBench-2.0 sends two of its prompts with a final newline (f"…in detail.\n"); no other template ends in one.
      expect(text.endsWith("\n")).toBe(ENDS_WITH_NEWLINE.includes(id));
    }
  });

  it("fails clearly when a value is missing or unknown", () => {
    for (const id of EXPECTED_TEMPLATES) {
      const template = loadTemplate(id);
      for (const name of template.inputs) {
        const values = valuesFor(template.inputs);
        delete values[name];
        expect(() => renderTemplate(template, values)).toThrow(
          new RegExp(`${id}: cannot render: no value for \\{\\{${name}\\}\\}`),
        );
      }
      expect(() => renderTemplate(template, { ...valuesFor(template.inputs), extra: "x" })).toThrow(
        /unknown placeholder\(s\) extra/,
      );
    }
  });

  it("render the static KG seed prompt verbatim, as the paper's code sent it", () => {
    const seed =
      "The following is a frame from a video. Perform the following actions:\n" +
      "- Identify objects in the foreground of the frame and output a list. If a type of object appears repeatedly, list them all in the form of A_1, A_2 and so on.\n" +
      "- Identify the relations between objects in the last step and output a list in the format [ENTITY 1, RELATION, ENTITY 2]\n" +
      '- Convert the result above strictly adhering to the following structure in one line:{{"objects": [ojbect_1, object_2, xxx], "relations":[[ENTITY 1, RELATION, ENTITY 2], [ENTITY 1, RELATION, ENTITY 2],xxx]}}';
    expect(renderTemplate(loadTemplate("hallucination/static-kg"), {})).toBe(asSent(seed));
  });

  it("render the dynamic KG seed prompt verbatim, nested doubled braces included", () => {
    const seed =
      "The following are frames in chronological order from a video, which may violate the physical laws and logic of the real world. The first frame is the earliest. Based on the images as well as the objects and relations between objects in the frame as hint, perform the following actions:\n" +
      '- Identify the changes or consistencies of the identified input "objects" across provided frames, describing any transformation, motion, or alteration in state as well as object\'s position. If an object remains unchanged, indicate its consistency throughout the frames. The detailed steps are as follows:\n' +
      "- Identify the objects changes from first frame to second frame and then from second frame to third frame and so on.\n" +
      "- Summarize the objects changes from first frame to second frame and then from second frame to third frame and so on.... and output the overall changes across all frames.\n" +
      '- Output in the format {{"object_1": "change/unchanged", "object_2": "change/unchanged"}}\n' +
      '- Convert the result above strictly adhering to the following structure in one line:{{"changes":{{"object_1": "how overall changes or unchanged", "object_2": "how overall changes or unchanged",xxx}}}}\n' +
      "Relations:<relation>";
    const relation = '{"objects":["dog"],"relations":[]}';
    expect(renderTemplate(loadTemplate("hallucination/dynamic-kg"), { relation })).toBe(asSent(seed, { relation }));
  });

  it("keep the seed text of the scoring steps verbatim and append the output format after it", () => {
    const cases: [string, string, Record<string, string>][] = [
      [
        "hallucination/static-hallucination",
        "- First I will give the definition of all types of static hallucinations: \n  1. Geometric structure irrationality: Objects' shapes",
        {},
      ],
      [
        "hallucination/dynamic-hallucination",
        "- First I will give the the definition of all type of dynamic hallucinations: \n  1. Clipping:",
        {},
      ],
      [
        "hallucination/inconsistency",
        "Human Description:<original_prompt>\nAI-generated Description:<generated_prompt>",
        { original_prompt: "a cat", generated_prompt: "a dog" },
      ],
      [
        "hallucination/video-summary",
        "generate a brief and accurate description for the video.\nThe objects changes for all key frames:<changes>",
        { changes: "none" },
      ],
    ];
    for (const [id, seedExcerpt, given] of cases) {
      const template = loadTemplate(id);
      const text = renderTemplate(template, { ...valuesFor(template.inputs), ...given });
      const [seedPart, formatPart] = text.split("\n\nOutput format:\n");
      expect(seedPart).toContain(asSent(seedExcerpt, given));
      expect(formatPart).toMatch(/^Reply with only one line of JSON and no other text:\n\{"/);
    }
    const staticText = renderTemplate(loadTemplate("hallucination/static-hallucination"), {
      original_prompt: "a cat on a mat",
      relation: "R",
    });
    expect(staticText).toContain(
      'The following is a frame from a video, which depicts "a cat on a mat". Based on the frame image',
    );
    expect(staticText).toContain('"s10": <0-10>}');
    expect(staticText.endsWith("each from 0 (does not occur) to 10 (most severe).")).toBe(true);
  });

  it("render the caption rubric with its single-brace output example intact", () => {
    const text = renderTemplate(loadTemplate("caption-rubric/judge"), {
      caption_type: "brief",
      output: "A dog runs.",
      reference: "A dog is running.",
    });
    expect(text).toContain(
      '{"score": [0-4], "reason": "1-2 sentence explanation"}\n### **Input:**\nCaption Type: brief  \nModel Output: A dog runs.\nReference: A dog is running.',
    );
    expect(
      text.endsWith("Please strictly return the output in the above format and do not add any other content."),
    ).toBe(true);
  });

  it("render the caption key-point check with its numbered key points and JSON answer format", () => {
    const template = loadTemplate("caption-content/judge");
    expect(template.inputs).toEqual(["caption_type", "instruction", "key_points", "output"]);
    expect(template.meta.notes).toMatch(/FrameJury's wording/);
    const text = renderTemplate(template, {
      caption_type: "action",
      instruction: "Describe the girl's actions.",
      key_points: "1. mention the bouquet\n2. describe the card",
      output: "A girl holds flowers.",
    });
    expect(text).toContain(
      "Caption type: action\nInstruction: Describe the girl's actions.\nKey points:\n1. mention the bouquet\n2. describe the card\nCaption to check:\nA girl holds flowers.\n\n### Output",
    );
    expect(text.endsWith('"total": <sum of the scores>}')).toBe(true);
  });

  it("render seed 004's QA prompts verbatim: the API evaluation prompt and the option-consistency judge", () => {
    const options = "\nA. It rolls down the ramp.\nB. It bounces.";
    expect(renderTemplate(loadTemplate("qa/answer-mc"), { question: "What does the ball do?", options })).toBe(
      "You are an advanced AI model specialized in analyzing video content. You will be given a series of frames extracted from a video. Your task is to carefully watch these frames, paying close attention to the sequence of events, object details. Based on your observations, answer the subsequent questions accurately.\n" +
        "Given Frames:<Video>\n" +
        "Question:What does the ball do?\n" +
        "Options:\nA. It rolls down the ramp.\nB. It bounces.\n" +
        "Answer with the option’s letter from the given choices directly.",
    );
    expect(
      renderTemplate(loadTemplate("qa/answer-open"), { question: "Where does it stop?" }).endsWith(
        "accurately.\nGiven Frames:<Video>\nQuestion:Where does it stop?",
      ),
    ).toBe(true);
    const judge = renderTemplate(loadTemplate("qa/judge-option"), {
      question: "What is the process that takes place after cleaning out the face?",
      options:
        "      A. After cleaning the face, one starts to make the mask shape.\n      B. After cleaning the face, tissue is applied on the face using water.",
      correct_answer: "B. After cleaning the face, tissue is applied on the face using water.",
      student_answer: "A",
    });
    expect(
      judge.startsWith(
        "You are tasked with evaluating whether a student has correctly answered a question based solely on the provided options.\n\n## Instruction:\n",
      ),
    ).toBe(true);
    expect(judge).toContain(
      "## Input:\n   - Question: What is the process that takes place after cleaning out the face?\n   - Options:\n      A. After cleaning the face, one starts to make the mask shape.\n      B. After cleaning the face, tissue is applied on the face using water.\n   - Correct Answer: B. After cleaning the face, tissue is applied on the face using water.\n   - Student’s Answer: A\n## Output:\n",
    );
    expect(
      judge.endsWith(
        '{"Judgement": xxx, "Reason": xxx}. Ensure that the response is structured correctly in JSON format, as it will be parsed using json.loads() in Python.',
      ),
    ).toBe(true);
    expect(renderTemplate(loadTemplate("qa/text-only-open"), { question: "Why?" })).toBe(
      "## Input:\n   - Question: Why?\n## Output:",
    );
    for (const id of ["qa/judge-open", "qa/judge-option", "qa/text-only-mc"])
      expect(loadTemplate(id).body).not.toContain("\u00a0");
  });

  it("hash to the sha256 of the exact file bytes", () => {
    const template = loadTemplate("hallucination/static-kg");
    const bytes = fs.readFileSync(path.join(promptsDir(), "hallucination/static-kg.md"));
    expect(template.hash).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(templateHash(template)).toBe(template.hash);
    expect(templateHash(`${template.raw} `)).not.toBe(template.hash);
  });
});

const minimal = (body: string, header = "id: t/x\nversion: 1\ninputs: [a, b]") => `---\n${header}\n---\n${body}\n`;

describe("parseTemplate", () => {
  it("splits front matter from the body and keeps other fields as meta", () => {
    const template = parseTemplate(
      minimal(
        'Use {{a}} then {{b}} and {{a}}; JSON stays: {"x": {"y": [1]}}',
        "id: t/x\nversion: 3\ninputs: [a, b]\noutput: t/out\nnotes: a: colon",
      ),
      "t/x",
    );
    expect(template.version).toBe(3);
    expect(template.meta).toEqual({ output: "t/out", notes: "a: colon" });
    expect(template.body).toBe('Use {{a}} then {{b}} and {{a}}; JSON stays: {"x": {"y": [1]}}');
    expect(renderTemplate(template, { a: "1", b: "2" })).toBe('Use 1 then 2 and 1; JSON stays: {"x": {"y": [1]}}');
  });

  it("renders in one pass, so values are never expanded again", () => {
    const template = parseTemplate(minimal("[{{a}}] [{{b}}]"), "t/x");
    expect(renderTemplate(template, { a: "{{b}}", b: "$& $1" })).toBe("[{{b}}] [$& $1]");
  });

  it("takes an explicitly empty value as a value", () => {
    expect(renderTemplate(parseTemplate(minimal("<{{a}}{{b}}>"), "t/x"), { a: "", b: "" })).toBe("<>");
  });

  it("rejects inputs that do not match the body's placeholders", () => {
    expect(() => parseTemplate(minimal("only {{a}}"), "t/x")).toThrow(/`inputs` lists b but the body never uses it/);
    expect(() => parseTemplate(minimal("{{a}} {{b}} {{c}}"), "t/x")).toThrow(
      /the body uses \{\{c\}\} but `inputs` does not list it/,
    );
  });

  it("rejects a `{{` that is not a placeholder, with its line", () => {
    expect(() => parseTemplate(minimal("{{a}} {{b}}\nsecond {{ a }}"), "t/x")).toThrow(/body line 2 has a "\{\{"/);
    expect(() => parseTemplate(minimal('{{a}}{{b}} {{"objects": []}}'), "t/x")).toThrow(TemplateError);
  });

  it("rejects malformed front matter", () => {
    expect(() => parseTemplate("no front matter", "t/x")).toThrow(/must start with a `---`/);
    expect(() => parseTemplate("---\nid: t/x\nversion: 1\ninputs: []\n", "t/x")).toThrow(/no closing `---`/);
    expect(() => parseTemplate(minimal("x", "id: t/y\nversion: 1\ninputs: []"), "t/x")).toThrow(
      /the front matter says id "t\/y"/,
    );
    expect(() => parseTemplate(minimal("x", "id: t/x\nversion: one\ninputs: []"), "t/x")).toThrow(/version/);
    expect(() => parseTemplate(minimal("x", "id: t/x\nversion: 1\ninputs: a"), "t/x")).toThrow(
      /`inputs` must be a list/,
    );
    expect(() => parseTemplate(minimal("x", "id: t/x\nversion: 1\ninputs: []\nnot a field"), "t/x")).toThrow(
      /line 5 is not `key: value`/,
    );
  });

  it("renders a CRLF checkout like the LF file, under a different hash", () => {
    const lf = minimal("line one {{a}}\nline two {{b}}");
    const crlf = lf.replace(/\n/g, "\r\n");
    const a = parseTemplate(lf, "t/x");
    const b = parseTemplate(crlf, "t/x");
    expect(renderTemplate(b, { a: "1", b: "2" })).toBe(renderTemplate(a, { a: "1", b: "2" }));
    expect(b.hash).not.toBe(a.hash);
  });
});

describe("loading", () => {
  it("loads by id or by path, and refuses ids that leave the prompts dir", () => {
    const byPath = loadTemplate(path.join(promptsDir(), "hallucination/inconsistency.md"));
    expect(byPath.id).toBe("hallucination/inconsistency");
    expect(byPath.hash).toBe(loadTemplate("hallucination/inconsistency").hash);
    expect(() => loadTemplate("../package")).toThrow(/not a template id/);
    expect(() => loadTemplate("hallucination/nope")).toThrow(/hallucination\/nope: cannot read/);
  });

  it("reads each template once per store and renders through it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-prompts-"));
    fs.mkdirSync(path.join(dir, "g"));
    const file = path.join(dir, "g/t.md");
    fs.writeFileSync(file, "---\nid: g/t\nversion: 1\ninputs: [who]\n---\nHello {{who}}\n");
    const store = createTemplateStore({ promptsDir: dir });
    const first = store.get("g/t");
    expect(first.render({ who: "judge" })).toBe("Hello judge");
    fs.writeFileSync(file, "---\nid: g/t\nversion: 2\ninputs: [who]\n---\nBye {{who}}\n");
    expect(store.get("g/t").hash).toBe(first.hash);
    expect(createTemplateStore({ promptsDir: dir }).get("g/t").render({ who: "judge" })).toBe("Bye judge");
    expect(loadTemplate(file, { promptsDir: path.join(dir, "elsewhere") }).id).toBe("g/t");
  });
});
