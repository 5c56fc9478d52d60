/**
 * TEST TOOL. The stub LLM's rules for VBench-2.0's prompts (prompts/vbench2), so tests and the demo run the task
 * with no model:
 * - A yes/no question to the VLM is answered "Yes." or "No." by rule: a question containing "[no]" gets no and one
 *   containing "[yes]" gets yes (tests write the answers they want into auxiliary_info); any other is yes 7 times in
 *   10, by a hash of the question and the frames, so the demo's generators differ.
 * - A description (the interaction, the video, the landscape, the plot, the action order) is a short text, numbered
 *   on the template when asked for one.
 * - The text judges say "Yes" when prompt2 holds at least half of prompt1's words (three letters or more), "[no]"
 *   and "[yes]" in prompt1 deciding as above; the person-number judge says yes when the description names two
 *   people. Each answer gives a reason after the yes or no, as VBench's system prompts ask.
 */
import type { StubRequestContext, StubRule } from "../../../testkit/llm-stub/stub-rule";

const lastLine = (text: string) => text.trimEnd().split("\n").pop() ?? "";
const words = (text: string) => new Set(text.toLowerCase().match(/\p{L}{3,}/gu) ?? []);

function decided(text: string): boolean | null {
  if (text.includes("[no]")) return false;
  if (text.includes("[yes]")) return true;
  return null;
}

function yesOrNo(question: string, context: StubRequestContext): string {
  const marked = decided(question);
  const yes = marked ?? context.pick(10, question) < 7;
  return yes ? "Yes." : "No.";
}

/** The user prompt of a text judge: the last `prompt1:`/`prompt2:` pair in the request. */
function promptPair(text: string): { prompt1: string; prompt2: string } | null {
  const at = text.lastIndexOf("prompt1: ");
  if (at < 0) return null;
  const rest = text.slice(at + "prompt1: ".length);
  const split = rest.indexOf("prompt2: ");
  if (split < 0) return null;
  return { prompt1: rest.slice(0, split).trim(), prompt2: rest.slice(split + "prompt2: ".length).trim() };
}

function consistent(pair: { prompt1: string; prompt2: string }): boolean {
  const marked = decided(pair.prompt1);
  if (marked !== null) return marked;
  const expected = [...words(pair.prompt1)];
  const found = words(pair.prompt2);
  return expected.length > 0 && expected.filter((w) => found.has(w)).length * 2 >= expected.length;
}

const numbered = (count: number, context: StubRequestContext) =>
  Array.from(
    { length: count },
    (_, i) =>
      `${i + 1}. ${["A figure walks into the scene", "The camera follows the figure", "The figure stops and looks around", "Something moves in the background", "The scene fades out", "The light changes"][(i + context.pick(6, "plot")) % 6]}.`,
  ).join("\n");

export const VBENCH2_RULES: StubRule[] = [
  {
    name: "vbench2-text-judge",
    match:
      /You are Qwen, created by Alibaba Cloud\. You are a helpful assistant and a brilliant (plot|landscape|human interaction|action order) consistency judger|brilliant human interaction judger|brilliant action order judger/,
    respond: (context) => {
      const pair = promptPair(context.text);
      if (!pair) return "No. The prompts could not be read.";
      return consistent(pair)
        ? "Yes. prompt2 contains the key elements of prompt1."
        : "No. prompt2 does not contain what prompt1 describes.";
    },
  },
  {
    name: "vbench2-person-number",
    match: /brilliant person number judger/,
    respond: (context) => {
      const description = lastLine(context.text);
      const marked = decided(description);
      const more = marked ?? /\b(two|people|persons|another|each other)\b/i.test(description);
      return more ? "Yes. The description mentions more than one person." : "No. The description mentions one person.";
    },
  },
  {
    name: "vbench2-summarise",
    match: /brilliant (landscape )?plot summarizer/,
    respond: (context) => {
      const template = /template: (.*)/.exec(context.text)?.[1] ?? "";
      return numbered(Math.max(1, (template.match(/\d\./g) ?? []).length), context);
    },
  },
  {
    name: "vbench2-describe",
    match:
      /frames are uniformly sampled from it\. These frames are located at .*\. (Describe the human interaction|Describe the video in details?\.|Describe the landscape|Return the plot in video|Return the action order in video)/s,
    respond: (context) => {
      if (/Describe the human interaction/.test(context.text))
        return context.pick(4, "interaction") === 0
          ? "A person stands alone."
          : "A person hands something to another person.";
      if (/Describe the video in details\./.test(context.text))
        return context.pick(4, "people") === 0
          ? "A person stands in a room."
          : "Two people stand in a room and talk to each other.";
      if (/Describe the landscape/.test(context.text))
        return "The camera moves through a landscape of hills, a forest and a river under a changing sky.";
      if (/Return the action order/.test(context.text))
        return context.pick(5, "order") === 0
          ? "The person moves."
          : "1. The person does the first action. 2. The person does the second action.";
      const template = lastLine(context.text);
      return numbered(Math.max(1, (template.match(/\d\./g) ?? []).length), context);
    },
  },
  {
    name: "vbench2-yes-no",
    match:
      /(frames are uniformly sampled from it\. These frames are located at .*(yes or no|Judging whether))|^Please answer yes or no only for the following questions\./ms,
    respond: (context) =>
      yesOrNo(
        /Judging whether the video occurs only one creature/.test(context.text)
          ? "only one creature"
          : lastLine(context.text),
        context,
      ),
  },
];
