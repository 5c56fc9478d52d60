import { describe, expect, it } from "vitest";
import { sniffQuestionFile } from "./sniff-question-file";

const question = { id: "q1", video: "a.mp4", question: "What happens?", format: "open", answer: "It rolls." };

describe("sniffQuestionFile", () => {
  it("knows a question set by its first record's question and answer, in JSONL, a JSON array or CSV", () => {
    expect(sniffQuestionFile("set.jsonl", `${JSON.stringify(question)}\n`)).toBe(true);
    expect(sniffQuestionFile("set.json", JSON.stringify([question, question], null, 2))).toBe(true);
    expect(sniffQuestionFile("set.json", `${JSON.stringify(question)}\n${JSON.stringify(question)}\n`)).toBe(true);
    expect(sniffQuestionFile("set.csv", "id,video,question,format,A,B,answer\nq1,a.mp4,What?,mc,x,y,A\n")).toBe(true);
    // Only the head of a large array was read.
    expect(
      sniffQuestionFile(
        "set.json",
        `[\n  {"id": "q1", "video": "a.mp4", "question": "What?", "answer": "A", "format": "mc", "options": {"A": "x", "B": "y"}},\n  {"id": "q2", "vid`,
      ),
    ).toBe(true);
  });

  it("leaves caption files, prompt lists and metadata alone", () => {
    expect(sniffQuestionFile("ref.jsonl", `${JSON.stringify({ id: 1, video: "a.mp4", conversations: [] })}\n`)).toBe(
      false,
    );
    expect(sniffQuestionFile("out.csv", "id,output\n1,A ball.\n")).toBe(false);
    expect(
      sniffQuestionFile(
        "VBench2_full_text_info.json",
        JSON.stringify([{ prompt_en: "A ball", dimension: ["Mechanics"] }]),
      ),
    ).toBe(false);
    expect(sniffQuestionFile("notes.txt", "question,answer\n")).toBe(false);
  });
});
