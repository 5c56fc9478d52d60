import { describe, expect, it } from "vitest";
import { modelFromFileName, sniffCaptionFile } from "./sniff-caption-file";

describe("sniffCaptionFile", () => {
  it("knows an AnyCapEval reference line by its conversations", () => {
    const line = JSON.stringify({
      id: 1,
      video: "a.mp4",
      conversations: [
        { from: "human", value: "Describe" },
        { from: "gpt", value: "A ball." },
      ],
      restriction: ["brief", ""],
    });
    expect(sniffCaptionFile("ref.jsonl", `\n${line}\n{"id":2`)).toBe("caption_reference");
    // A head that cuts the first line still shows its keys.
    expect(sniffCaptionFile("ref.jsonl", line.slice(0, 60))).toBe("caption_reference");
  });

  it("knows outputs by their output field or column", () => {
    expect(sniffCaptionFile("alpha.jsonl", '{"id": 1, "output": "A ball."}\n')).toBe("caption_outputs");
    expect(sniffCaptionFile("alpha.csv", '\uFEFFvideo,type,"output"\r\na.mp4,brief,A ball.\r\n')).toBe(
      "caption_outputs",
    );
  });

  it("leaves prompt lists, metadata and other files alone", () => {
    expect(sniffCaptionFile("prompts.jsonl", '{"prompt": "A ball rolls"}\n')).toBeNull();
    expect(sniffCaptionFile("meta.csv", "path,prompt,model\n")).toBeNull();
    expect(sniffCaptionFile("notes.jsonl", "not json at all\n")).toBeNull();
    expect(sniffCaptionFile("list.jsonl", "[1, 2]\n")).toBeNull();
    expect(sniffCaptionFile("ref.json", '{"conversations": []}')).toBeNull();
  });
});

describe("modelFromFileName", () => {
  it("takes the file's stem without an outputs suffix", () => {
    expect(modelFromFileName("runs/qwen2-vl_outputs.jsonl")).toBe("qwen2-vl");
    expect(modelFromFileName("gpt-4o.csv")).toBe("gpt-4o");
    expect(modelFromFileName("outputs.jsonl")).toBe("outputs");
  });
});
