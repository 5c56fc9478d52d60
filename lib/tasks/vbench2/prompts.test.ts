/**
 * VBench-2.0's prompts as FrameJury sends them: rendered templates equal the strings VBench-2.0's code builds
 * (written out here from its f-strings), its system prompts and few-shot exchanges go as earlier messages byte for
 * byte, and the frames go before the text as LLaVA-Video's image token does.
 */
import { describe, expect, it } from "vitest";
import { chatCompletionBody } from "@/lib/judge/calls/llm-client";
import {
  imagesFirst,
  loadTemplate,
  parseTemplate,
  renderTemplate,
  templateTurns,
} from "@/lib/prompt-versions/prompt-templates";
import { pythonFixed2, vbenchUniformIndices } from "../../frames/vbench-uniform";
import { sampledFrames } from "./frames";
import { splitByNumberedList, saidYes } from "./answers";

const time = { video_time: "3.29", frame_count: "64", frame_time: "0.00s,0.04s" };

describe("VBench-2.0's prompts", () => {
  it("render as VBench's f-strings build them", () => {
    const ti =
      "The video lasts for 3.29 seconds, and 64 frames are uniformly sampled from it. These frames are located at 0.00s,0.04s. ";
    expect(renderTemplate(loadTemplate("vbench2/dynamic-attribute"), { ...time, question: "Q?" })).toBe(
      `${ti}Please answer yes or no only for the following questions.\nQ?`,
    );
    expect(renderTemplate(loadTemplate("vbench2/motion-rationality"), { ...time, question: "Q?" })).toBe(
      `${ti}Answer yes or no only for the following questions.\nQ?`,
    );
    expect(renderTemplate(loadTemplate("vbench2/material"), { ...time, question: "Q?" })).toBe(
      `${ti}Please answer yes or no only for the following questions\nQ?`,
    );
    expect(renderTemplate(loadTemplate("vbench2/thermotics"), { ...time, question: "Q?" })).toBe(
      `${ti}You will not care about the name correctness in question. Please answer yes or no only for the following questions\nQ?`,
    );
    expect(renderTemplate(loadTemplate("vbench2/human-clothes"), { ...time, question: "Q?" })).toBe(
      `${ti}Return yes or no only for the following question.\nQ?`,
    );
    expect(renderTemplate(loadTemplate("vbench2/composition-gate"), time)).toBe(
      `${ti}Judging whether the video occurs only one creature, answer yes or no only.`,
    );
    expect(
      renderTemplate(loadTemplate("vbench2/complex-plot-describe"), { ...time, template: "1. ; 2. ; 3. ; 4. ." }),
    ).toBe(`${ti}Return the plot in video. Here is the template..\n1. ; 2. ; 3. ; 4. .`);
    expect(renderTemplate(loadTemplate("vbench2/complex-plot-redescribe"), time)).toBe(
      `${ti}Describe the video in detail.\n`,
    );
    expect(renderTemplate(loadTemplate("vbench2/motion-order-describe"), time)).toBe(
      `${ti}Return the action order in video. Here is the template.\n1. ; 2. .`,
    );
    expect(renderTemplate(loadTemplate("vbench2/complex-plot-judge"), { prompt1: "a", prompt2: "b" })).toBe(
      `\n${" ".repeat(24)}prompt1: a\n${" ".repeat(24)}prompt2: b\n${" ".repeat(24)}`,
    );
    expect(renderTemplate(loadTemplate("vbench2/human-interaction-judge"), { prompt1: "a", prompt2: "b" })).toBe(
      `\n${" ".repeat(16)}prompt1: a\n${" ".repeat(16)}prompt2: b\n${" ".repeat(16)}`,
    );
    expect(renderTemplate(loadTemplate("vbench2/motion-order-judge"), { prompt1: "a", prompt2: "b" })).toBe(
      `\n${" ".repeat(20)}prompt1: a\n${" ".repeat(20)}prompt2: b\n${" ".repeat(16)}`,
    );
  });

  it("send the text judges' system prompts and Motion_Order_Understanding's few-shot exchanges as earlier messages, byte for byte", () => {
    const judge = loadTemplate("vbench2/motion-order-judge");
    const turns = templateTurns(judge.meta);
    expect(turns.map((t) => t.role)).toEqual([
      "system",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(turns[0]!.content).toMatch(
      /^You are Qwen, created by Alibaba Cloud\. You are a helpful assistant and a brilliant action order judger\. \nYou need to judge/,
    );
    expect(turns[0]!.content.endsWith("Answer yes or no first, then giving the reason.\n")).toBe(true);
    expect(turns[1]!.content).toBe(
      '\nprompt1: "sitting"\nprompt2: 1. The person is lying on a beige sofa, holding a broom.\n',
    );
    expect(turns[8]!.content).toBe('No. "holding a glass of water" is not consistency with "drink water" in prompt1.');
    const body = chatCompletionBody({
      model: "m",
      text: "the prompt",
      images: [{ url: "data:image/jpeg;base64,AA", detail: null }],
      turns,
      imagesFirst: true,
    });
    expect(body.messages.map((m) => m.role)).toEqual([...turns.map((t) => t.role), "user"]);
    expect(body.messages[0]!.content).toBe(turns[0]!.content);
    expect((body.messages.at(-1)!.content as { type: string }[]).map((part) => part.type)).toEqual([
      "image_url",
      "text",
    ]);
    expect(imagesFirst(loadTemplate("vbench2/material").meta)).toBe(true);
    expect(imagesFirst(judge.meta)).toBe(false);
    // Without the fields a template sends what it always did: the text first, no earlier turns.
    expect(
      chatCompletionBody({ model: "m", text: "t", images: [{ url: "u", detail: null }] }).messages.map((m) => m.role),
    ).toEqual(["user"]);
  });

  it("refuses malformed turns and image positions when the template is read", () => {
    const template = (field: string) => `---\nid: t/x\nversion: 1\ninputs: []\n${field}\n---\nbody`;
    expect(() => parseTemplate(template('turns: [{"role": "robot", "content": "x"}]'), "t/x")).toThrow(/turns/);
    expect(() => parseTemplate(template("turns: not json"), "t/x")).toThrow(/not JSON/);
    expect(() => parseTemplate(template("image-position: middle"), "t/x")).toThrow(/image-position/);
    expect(
      templateTurns(parseTemplate(template('turns: [{"role": "system", "content": "s \\n"}]'), "t/x").meta),
    ).toEqual([{ role: "system", content: "s \n" }]);
  });
});

describe("VBench-2.0's numbers and readings", () => {
  it("the 64 frames of an 8 fps clip of 27 frames: repeated indices, times at 8 fps, duration 3.38 s", () => {
    const frames = Array.from({ length: 27 }, (_, index) => ({
      id: `f${index}`,
      index,
      timestampS: index / 8,
      isKeyFrame: false,
      cluster: null,
      storageKey: `k${index}`,
      sha256: `s${index}`,
    }));
    const sampled = sampledFrames({ frames, fps: 8, frameCount: 27, imageLimit: null });
    expect(sampled.frames.map((f) => f.index)).toEqual(vbenchUniformIndices(27, 64));
    expect(sampled.times.slice(0, 6)).toEqual(["0.00s", "0.00s", "0.00s", "0.12s", "0.12s", "0.25s"]);
    expect(pythonFixed2(sampled.videoTime)).toBe("3.38");
    expect(sampled.deviation).toBeNull();
    const limited = sampledFrames({ frames, fps: 8, frameCount: 27, imageLimit: 16 });
    expect(limited.frames).toHaveLength(16);
    expect(limited.deviation).toBe("16 of 64 frames: the endpoint takes at most 16 images");
  });

  it("reads answers as VBench does", () => {
    expect([
      saidYes({ text: "Yes.", refusal: null, finishReason: "stop" }),
      saidYes({ text: "Eyes closed: no", refusal: null, finishReason: "stop" }),
      saidYes({ text: "No", refusal: null, finishReason: "stop" }),
    ]).toEqual([true, true, false]);
    expect(saidYes({ notAsked: "gate" })).toBeNull();
    expect(splitByNumberedList("1. A girl walks. 2.The ghost appears.\n3.  She runs. ")).toEqual([
      "A girl walks.",
      "The ghost appears.",
      "She runs.",
    ]);
    // re.split(r'\d+\.\s*') splits a decimal number too, as in VBench.
    expect(splitByNumberedList("1. She waits 2.5 seconds. 2. She runs.")).toEqual([
      "She waits",
      "5 seconds.",
      "She runs.",
    ]);
  });
});
