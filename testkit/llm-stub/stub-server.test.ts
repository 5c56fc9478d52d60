import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startStubLlm, type StubServer } from "./stub-server";

let stub: StubServer;
let client: OpenAI;

beforeAll(async () => {
  stub = await startStubLlm();
  client = new OpenAI({ baseURL: stub.baseURL, apiKey: "stub-key", maxRetries: 0, timeout: 2000 });
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

const frame = "data:image/jpeg;base64,/9j/4AAQSkZJRg==";
const staticKgPrompt =
  "The following is a frame from a video. Perform the following actions:\n- Identify objects in the foreground of the frame and output a list.";

function ask(text: string, extra: Partial<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming> = {}) {
  return client.chat.completions.create({
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
    ...extra,
  });
}

describe("stub LLM (test tool) with the real openai SDK", () => {
  it("answers rule-matched prompts with stable JSON and usage", async () => {
    const first = await ask(staticKgPrompt);
    const second = await ask(staticKgPrompt);
    const graph = JSON.parse(first.choices[0]!.message.content!) as { objects: string[]; relations: string[][] };
    expect(graph.objects.length).toBeGreaterThanOrEqual(2);
    expect(graph.relations.every((r) => r.length === 3)).toBe(true);
    expect(second.choices[0]!.message.content).toBe(first.choices[0]!.message.content);
    expect(first.usage!.prompt_tokens).toBeGreaterThan(255);
    expect(stub.requests.map((r) => [r.rule, r.imageCount])).toEqual([
      ["static-knowledge-graph", 1],
      ["static-knowledge-graph", 1],
    ]);
  });

  it("returns 429 with retry-after, and 500, as the SDK's typed errors", async () => {
    stub.addFault({ fault: { kind: "status", status: 429, retryAfter: 7 } });
    const limited = await ask("hello").catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect((limited as InstanceType<typeof OpenAI.RateLimitError>).headers?.get("retry-after")).toBe("7");

    stub.addFault({ fault: { kind: "status", status: 500 } });
    expect(await ask("hello").catch((e: unknown) => e)).toBeInstanceOf(OpenAI.InternalServerError);
    expect((await ask("hello")).choices[0]!.message.content).toMatch(/stub LLM/);
  });

  it("logs when each request arrived and ended, and its status", async () => {
    stub.addFault({ fault: { kind: "latency", ms: 200 } });
    stub.addFault({ fault: { kind: "status", status: 429, retryAfterMs: 1200 } });
    const before = Date.now();
    await ask("slow");
    const limited = await ask("limited").catch((e: unknown) => e);
    expect((limited as InstanceType<typeof OpenAI.RateLimitError>).headers?.get("retry-after-ms")).toBe("1200");
    const [slow, refused] = stub.requests;
    expect(slow!.at).toBeGreaterThanOrEqual(before);
    // Node's timers keep a millisecond clock of their own, so a 200 ms wait can span 199 ms of Date.now().
    expect(slow!.endedAt! - slow!.at).toBeGreaterThanOrEqual(199);
    expect(slow!.status).toBe(200);
    expect(refused!.at).toBeGreaterThanOrEqual(slow!.endedAt!);
    expect(refused!.status).toBe(429);
  });

  it("hangs until the client's timeout, and breaks bodies on request", async () => {
    stub.addFault({ fault: { kind: "hang" } });
    expect(await ask("hello").catch((e: unknown) => e)).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);

    stub.addFault({ fault: { kind: "malformed" } });
    await expect(ask("hello")).rejects.toThrow();

    stub.addFault({ fault: { kind: "truncated" }, match: "foreground" });
    const truncated = await ask(staticKgPrompt);
    expect(truncated.choices[0]!.finish_reason).toBe("length");
    expect(() => JSON.parse(truncated.choices[0]!.message.content!)).toThrow();
  });

  it("wraps answers in prose, refuses, or returns given content, only for matching prompts", async () => {
    stub.addFault({ fault: { kind: "prose" }, match: "foreground" });
    stub.addFault({ fault: { kind: "content", content: '{"score": 11}' }, match: "never-matches" });
    const unrelated = await ask("unrelated prompt");
    expect(unrelated.choices[0]!.message.content).not.toMatch(/```/);
    const prose = await ask(staticKgPrompt);
    expect(prose.choices[0]!.message.content).toMatch(/^Sure![\s\S]*```json\n\{"objects"/);

    // A fault can also be asked for per request, through a header.
    const refused = await client.chat.completions.create(
      { model: "stub-vision", messages: [{ role: "user", content: "x" }], response_format: { type: "json_object" } },
      { headers: { "x-stub-fault": "refusal" } },
    );
    expect(refused.choices[0]!.message.refusal).toMatch(/can't help/);
    expect(refused.choices[0]!.message.content).toBeNull();
  });

  it("streams when asked", async () => {
    const stream = await client.chat.completions.create({
      model: "stub-vision",
      messages: [{ role: "user", content: staticKgPrompt }],
      stream: true,
    });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    expect(JSON.parse(text)).toHaveProperty("objects");
  });

  it("adds fixed latency when configured", async () => {
    const slow = await startStubLlm({ latencyMs: 150 });
    try {
      const c = new OpenAI({ baseURL: slow.baseURL, apiKey: "k", maxRetries: 0 });
      const started = performance.now();
      await c.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] });
      expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    } finally {
      await slow.close();
    }
  });

  it("pads a completion to about answerBytes, and the client still reads its answer", async () => {
    const padded = await startStubLlm({ answerBytes: 1500 });
    try {
      const response = await fetch(`${padded.baseURL}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "stub-vision", messages: [{ role: "user", content: staticKgPrompt }] }),
      });
      const text = await response.text();
      expect(text.length).toBeGreaterThanOrEqual(1490);
      expect(text.length).toBeLessThanOrEqual(1510);
      const c = new OpenAI({ baseURL: padded.baseURL, apiKey: "k", maxRetries: 0 });
      const completion = await c.chat.completions.create({
        model: "stub-vision",
        messages: [{ role: "user", content: staticKgPrompt }],
      });
      expect(JSON.parse(completion.choices[0]!.message.content!)).toHaveProperty("objects");
    } finally {
      await padded.close();
    }
  });
});
