import { getEventListeners } from "node:events";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { EndpointLimiter, headStartCalls } from "../endpoints/endpoint-limiter";
import { nextMove } from "../engine/recovery";
import {
  attemptError,
  chatCompletionBody,
  chatResultOf,
  chatCompletionPieces,
  LlmError,
  openAiCompatibleClient,
  parseRetryAfter,
  retryAfterMsOf,
  type ChatImage,
  type ChatRequest,
} from "./llm-client";

let stub: StubServer;
beforeAll(async () => {
  stub = await startStubLlm();
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

const request = {
  model: "stub-vision",
  text: "hello",
  images: [{ url: "data:image/jpeg;base64,/9j/", detail: "low" as const }],
};

/** Sends as the recovery loop does: after each failed attempt, nextMove says whether and after how long it goes again. */
async function retrying(delays: number[]) {
  const client = openAiCompatibleClient({ baseURL: stub.baseURL, apiKey: null });
  const retry = { random: () => 0.5, policy: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000 } };
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.complete(request, { timeoutMs: 500 });
    } catch (error) {
      const move = nextMove([], { retry }, { error: attemptError(error), attempt });
      if (move.next === "fail") throw move.error;
      delays.push(move.delayMs);
    }
  }
}

describe("LLM client over real HTTP", () => {
  it("retries a 429 no sooner than retry-after, then succeeds", async () => {
    stub.addFault({ fault: { kind: "status", status: 429, retryAfter: 3 } });
    const delays: number[] = [];
    const result = await retrying(delays);
    expect(result.text).toMatch(/stub LLM/);
    expect(delays).toEqual([3000]);
    expect(stub.requests).toHaveLength(2);
  });

  it("retries 500s, timeouts and malformed bodies with growing backoff", async () => {
    stub.addFault({ fault: { kind: "status", status: 500 } });
    stub.addFault({ fault: { kind: "hang" } });
    stub.addFault({ fault: { kind: "malformed" } });
    const delays: number[] = [];
    const result = await retrying(delays);
    expect(result.finishReason).toBe("stop");
    expect(delays).toEqual([50, 100, 200]); // base·2^(n-1)·jitter(0.5)
    expect(stub.requests.map((r) => r.fault)).toEqual(["status", "hang", "malformed", null]);
  });

  it("gives up after the last attempt, and does not retry a 400", async () => {
    stub.addFault({ fault: { kind: "status", status: 503 }, times: 10 });
    const error = await retrying([]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).kind).toBe("server");
    expect(stub.requests).toHaveLength(4);

    stub.reset();
    stub.addFault({ fault: { kind: "status", status: 400, message: "bad image" } });
    const refused = await retrying([]).catch((e: unknown) => e);
    expect((refused as LlmError).kind).toBe("client");
    // The endpoint's words (sanitised) follow the app's in the member-visible message: they say what to change.
    expect((refused as LlmError).message).toBe(
      'The endpoint refused the request (400). The endpoint said: "bad image"',
    );
    expect((refused as LlmError).excerpt).toMatch(/bad image/);
    expect(stub.requests).toHaveLength(1);
  });

  it("leaves no listener on the caller's signal after a call: one job's signal shared by many calls stays bounded", async () => {
    const client = openAiCompatibleClient({ baseURL: stub.baseURL, apiKey: null });
    const job = new AbortController();
    for (let i = 0; i < 15; i++) {
      await client.complete(request, { timeoutMs: 5000, signal: job.signal });
      expect(getEventListeners(job.signal, "abort")).toHaveLength(0);
    }
    expect(stub.requests).toHaveLength(15);
    // The signal still cancels a call under way.
    stub.addFault({ fault: { kind: "hang" } });
    const hanging = client.complete(request, { timeoutMs: 60_000, signal: job.signal }).catch((e: unknown) => e);
    await expect.poll(() => stub.requests.length).toBe(16);
    job.abort();
    const error = await hanging;
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).kind).toBe("cancelled");
    expect(getEventListeners(job.signal, "abort")).toHaveLength(0);
  });

  it("reads retry-after as seconds or an HTTP date", () => {
    expect(parseRetryAfter("2")).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter("soon")).toBeNull();
  });

  it("prefers retry-after-ms to retry-after, over HTTP too", async () => {
    expect(retryAfterMsOf(new Headers({ "retry-after-ms": "1500", "retry-after": "2" }))).toBe(1500);
    expect(retryAfterMsOf(new Headers({ "retry-after-ms": "", "retry-after": "2" }))).toBe(2000);
    expect(retryAfterMsOf(new Headers({ "retry-after-ms": "later" }))).toBeNull();
    expect(retryAfterMsOf(new Headers())).toBeNull();

    stub.addFault({ fault: { kind: "status", status: 429, retryAfterMs: 750 } });
    const limited = await openAiCompatibleClient({ baseURL: stub.baseURL, apiKey: null })
      .complete(request, { timeoutMs: 500 })
      .catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(LlmError);
    expect((limited as LlmError).kind).toBe("rate_limited");
    expect((limited as LlmError).retryAfterMs).toBe(750);
  });
});

describe("EndpointLimiter", () => {
  it("never runs more than maxConcurrency tasks at once", async () => {
    const limiter = new EndpointLimiter({ maxConcurrency: 3, requestsPerMinute: null });
    let running = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 12 }, () =>
        limiter.run(async () => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((r) => setTimeout(r, 5));
          running -= 1;
        }),
      ),
    );
    expect(peak).toBe(3);
  });

  it("waits for the sliding minute when requestsPerMinute is used up", async () => {
    let now = 0;
    const slept: number[] = [];
    const limiter = new EndpointLimiter(
      { maxConcurrency: 10, requestsPerMinute: 2 },
      {
        now: () => now,
        sleep: async (ms) => {
          slept.push(ms);
          now += ms;
        },
      },
    );
    for (let i = 0; i < 3; i++) await limiter.run(async () => null);
    expect(slept).toEqual([60_000]);
  });

  it("gives a head start to a quarter of the endpoint's concurrency, at least 8", () => {
    expect([1, 2, 32, 33, 64, 256].map(headStartCalls)).toEqual([8, 8, 8, 9, 16, 64]);
  });

  it.each([2, 256])(
    "at concurrency %i gives a head start only to calls that hold a slot or are next in line, each once",
    async (maxConcurrency) => {
      const nextInLine = headStartCalls(maxConcurrency);
      const limiter = new EndpointLimiter({ maxConcurrency, requestsPerMinute: null });
      const headStarts: number[] = [];
      const finish: (() => void)[] = [];
      const calls = Array.from({ length: maxConcurrency + nextInLine + 3 }, (_, i) =>
        limiter.run(
          () => new Promise<void>((resolve) => finish.push(resolve)),
          () => headStarts.push(i),
        ),
      );
      await new Promise((r) => setImmediate(r));
      // maxConcurrency hold slots, nextInLine wait next in line; the last three wait without one.
      expect(headStarts).toEqual(Array.from({ length: maxConcurrency + nextInLine }, (_, i) => i));
      finish.shift()!();
      await new Promise((r) => setImmediate(r));
      expect(headStarts).toHaveLength(maxConcurrency + 1 + nextInLine);
      expect(headStarts.at(-1)).toBe(maxConcurrency + nextInLine);
      while (finish.length) {
        finish.shift()!();
        await new Promise((r) => setImmediate(r));
      }
      await Promise.all(calls);
      expect(headStarts).toEqual(Array.from({ length: calls.length }, (_, i) => i));
    },
  );
});

describe("chatCompletionPieces", () => {
  const image = (n: number, detail: ChatImage["detail"] = "low"): ChatImage => ({
    url: `data:image/jpeg;base64,${Buffer.alloc(30 + n, n).toString("base64")}`,
    detail,
  });
  const shapes: [string, ChatRequest][] = [
    ["text only", { model: "m", text: "Describe.", images: [] }],
    [
      "frames after the text, with every option",
      {
        model: 'm"odel',
        system: "Be brief.",
        text: 'Is it \u00e9t\u00e9? \u{1F600}\n"quoted"',
        images: [image(1), image(2, null), image(3, "high")],
        temperature: 0,
        responseFormat: { type: "json_object" },
        maxTokens: 50,
        topLogprobs: 5,
      },
    ],
    [
      "frames first, with turns",
      {
        model: "m",
        text: "Q",
        images: [image(1), image(2)],
        imagesFirst: true,
        turns: [
          { role: "system", content: "sys " },
          { role: "user", content: "ex" },
          { role: "assistant", content: "Yes" },
        ],
      },
    ],
    [
      "a repair request",
      { model: "m", text: "Q", images: [image(4)], followUp: { previousAnswer: "bad", correction: "Answer in JSON." } },
    ],
    [
      "two captioned clips (a pairwise question)",
      {
        model: "m",
        text: "Which is better?",
        images: [],
        videos: [
          { caption: "Video A:", video: { url: "data:video/mp4;base64,AAAA", mediaIo: { num_frames: 8 } } },
          { caption: "Video B:", video: { url: "data:video/mp4;base64,BBBB", mediaIo: { num_frames: 8 } } },
        ],
      },
    ],
  ];
  it.each(shapes)("is JSON.stringify(chatCompletionBody(request)) byte for byte: %s", (_name, request) => {
    const bytes = Buffer.concat(chatCompletionPieces(request));
    expect(bytes.toString("utf8")).toBe(JSON.stringify(chatCompletionBody(request)));
    // The same image objects again (a video's next call): the same bytes, its images' pieces the same buffers.
    const again = chatCompletionPieces(request);
    expect(Buffer.concat(again).equals(bytes)).toBe(true);
    const third = chatCompletionPieces(request);
    expect(again.filter((piece, i) => piece === third[i] && piece.includes('"image_url"')).length).toBe(
      request.images.length,
    );
  });

  it("sends captioned videos as caption, video, caption, video after the text, with their one media_io_kwargs", () => {
    const clip = (url: string, numFrames: number) => ({ url, mediaIo: { num_frames: numFrames } });
    const request: ChatRequest = {
      model: "m",
      text: "Which is better?",
      images: [],
      videos: [
        { caption: "Video A:", video: clip("data:video/mp4;base64,AAAA", 8) },
        { caption: "Video B:", video: clip("data:video/mp4;base64,BBBB", 8) },
      ],
    };
    const body = chatCompletionBody(request) as unknown as {
      messages: { content: { type: string; text?: string; video_url?: { url: string } }[] }[];
      media_io_kwargs: unknown;
    };
    expect(body.messages[0]!.content.map((part) => part.text ?? part.video_url?.url)).toEqual([
      "Which is better?",
      "Video A:",
      "data:video/mp4;base64,AAAA",
      "Video B:",
      "data:video/mp4;base64,BBBB",
    ]);
    expect(body.media_io_kwargs).toEqual({ video: { num_frames: 8 } });
    // vLLM would sample both by one set of kwargs: videos asking for different ones are refused before sending.
    const uneven = { ...request, videos: [request.videos![0]!, { caption: "Video B:", video: clip("data:x", 4) }] };
    expect(() => chatCompletionBody(uneven)).toThrow(/share their media_io_kwargs/);
  });

  it("reaches the endpoint as JSON, with its content type, images, roles and options", async () => {
    const client = openAiCompatibleClient({ baseURL: stub.baseURL, apiKey: null });
    const result = await client.complete(
      { model: "stub-vision", system: "Be brief.", text: "hello", images: [image(5, null), image(6)], maxTokens: 40 },
      { timeoutMs: 5000 },
    );
    expect(result.text).toBeTruthy();
    expect(stub.requests.at(-1)).toMatchObject({
      path: "/v1/chat/completions",
      model: "stub-vision",
      imageCount: 2,
      roles: ["system", "user"],
      maxTokens: 40,
      imageDetail: true,
    });
  });

  it("names an Azure deployment from the request's model", async () => {
    const client = openAiCompatibleClient({ baseURL: `${stub.url}/openai`, apiKey: "k", apiVersion: "2024-10-21" });
    await client.complete({ model: "my-deployment", text: "hello", images: [] }, { timeoutMs: 5000 });
    expect(stub.requests.at(-1)?.path).toBe(
      "/openai/deployments/my-deployment/chat/completions?api-version=2024-10-21",
    );
  });
});

describe("chatResultOf", () => {
  it("drops NULs and lone surrogates from every text an answer brings, which the database could not hold", () => {
    const result = chatResultOf({
      model: "gpt\u0000x",
      choices: [
        {
          message: { content: '{"a":\u0000 1}', refusal: "no\u0000", reasoning_content: "think\u0000ing \ud800" },
          finish_reason: "st\u0000op",
          logprobs: {
            content: [{ token: "{\u0000", logprob: -0.1, top_logprobs: [{ token: "\u0000[", logprob: -2 }] }],
          },
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1 },
    });
    expect(result).toMatchObject({
      text: '{"a": 1}',
      refusal: "no",
      reasoning: "thinking \ufffd",
      finishReason: "stop",
      reportedModel: "gptx",
      logprobs: [{ token: "{", logprob: -0.1, top: [{ token: "[", logprob: -2 }] }],
    });
  });

  it("takes usage the call row cannot hold (a fraction, a negative, past a PostgreSQL integer) as unknown", () => {
    const answer = (prompt_tokens: number, completion_tokens: number) =>
      chatResultOf({
        choices: [{ message: { content: "{}" }, finish_reason: "stop" }],
        usage: { prompt_tokens, completion_tokens },
      });
    expect(answer(12, 3)).toMatchObject({ promptTokens: 12, completionTokens: 3, usageKnown: true });
    for (const [prompt, completion] of [
      [3_000_000_000, 3],
      [12.5, 3],
      [12, -1],
    ] as const)
      expect(answer(prompt, completion)).toMatchObject({ promptTokens: 0, completionTokens: 0, usageKnown: false });
  });
});
