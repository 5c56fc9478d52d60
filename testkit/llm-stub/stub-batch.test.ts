import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startStubLlm, type StubServer } from "./stub-server";

let stub: StubServer;
let client: OpenAI;

beforeAll(async () => {
  stub = await startStubLlm({ batch: { completionDelayMs: 300 } });
  client = new OpenAI({ baseURL: stub.baseURL, apiKey: "stub-key", maxRetries: 0, timeout: 5000 });
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.reset();
  stub.setBatchOptions({ completionDelayMs: 300, failedShare: 0 });
});

const frame = "data:image/jpeg;base64,/9j/4AAQSkZJRg==";
const staticKgPrompt =
  "The following is a frame from a video. Perform the following actions:\n- Identify objects in the foreground of the frame and output a list.";

function line(customId: string, text: string) {
  return JSON.stringify({
    custom_id: customId,
    method: "POST",
    url: "/v1/chat/completions",
    body: {
      model: "stub-vision",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text },
            { type: "image_url", image_url: { url: frame } },
          ],
        },
      ],
    },
  });
}

async function batchOf(lines: string[]) {
  const file = await client.files.create({
    file: await toFile(Buffer.from(lines.join("\n") + "\n"), "in.jsonl"),
    purpose: "batch",
  });
  return client.batches.create({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h" });
}

async function lines(fileId: string | null | undefined) {
  if (!fileId) return [];
  const text = await (await client.files.content(fileId)).text();
  return text
    .split("\n")
    .filter(Boolean)
    .map(
      (l) =>
        JSON.parse(l) as {
          custom_id: string;
          response: { status_code: number; body: OpenAI.Chat.ChatCompletion } | null;
          error: unknown;
        },
    );
}

describe("stub LLM (test tool): the Batch API through the openai SDK", () => {
  it("answers each line after the completion delay, with the same answer a chat completion gets", async () => {
    const online = await client.chat.completions.create({
      model: "stub-vision",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: staticKgPrompt },
            { type: "image_url", image_url: { url: frame } },
          ],
        },
      ],
    });
    const created = await batchOf([line("a", staticKgPrompt), line("b", "hello")]);
    expect(created.status).toBe("in_progress");
    expect((await client.batches.retrieve(created.id)).status).toBe("in_progress");
    await new Promise((r) => setTimeout(r, 350));
    const done = await client.batches.retrieve(created.id);
    expect(done.status).toBe("completed");
    expect(done.request_counts).toEqual({ total: 2, completed: 2, failed: 0 });
    const output = await lines(done.output_file_id);
    expect(output.map((l) => l.custom_id).sort()).toEqual(["a", "b"]);
    const a = output.find((l) => l.custom_id === "a")!;
    expect(a.response!.status_code).toBe(200);
    expect(a.response!.body.choices[0]!.message.content).toBe(online.choices[0]!.message.content);
    expect(done.error_file_id).toBeNull();
    expect(stub.batchLines.map((l) => l.rule).sort()).toEqual(["fallback", "static-knowledge-graph"].sort());
  });

  it("fails the configured share of lines and applies queued faults to lines", async () => {
    stub.setBatchOptions({ completionDelayMs: 0, failedShare: 0.5 });
    stub.addFault({ fault: { kind: "status", status: 400, message: "bad line" }, match: "fault-me" });
    const created = await batchOf(
      ["1", "2", "3", "4"].map((id) => line(id, `plain ${id}`)).concat(line("5", "fault-me")),
    );
    const done = await client.batches.retrieve(created.id);
    expect(done.status).toBe("completed");
    const errors = await lines(done.error_file_id);
    const output = await lines(done.output_file_id);
    // round(5 × 0.5) = 3 failed by share (unless the faulted line is among them), plus the 400 fault.
    expect(errors.length + output.length).toBe(5);
    expect(stub.batchLines.filter((l) => l.fault === "failed_line")).toHaveLength(3);
    const faulted = stub.batchLines.find((l) => l.customId === "5")!;
    if (faulted.fault !== "failed_line") {
      expect(faulted.status).toBe(400);
      expect(errors.find((l) => l.custom_id === "5")!.response!.status_code).toBe(400);
      expect(errors).toHaveLength(4);
    } else expect(errors).toHaveLength(3);
    expect(done.request_counts!.failed).toBe(errors.length);
  });

  it("cancels a batch that has not finished", async () => {
    stub.setBatchOptions({ completionDelayMs: 60_000 });
    const created = await batchOf([line("a", "hello")]);
    const cancelling = await client.batches.cancel(created.id);
    expect(cancelling.status).toBe("cancelling");
    expect((await client.batches.retrieve(created.id)).status).toBe("cancelled");
    expect(stub.batches.get(created.id)!.cancelledAt).not.toBeNull();
    expect(stub.batchLines).toHaveLength(0);
  });
});
