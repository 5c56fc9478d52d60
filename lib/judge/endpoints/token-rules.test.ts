/**
 * The token rules the cost estimate applies: an endpoint's own, else the documented provider's its base URL or model
 * names (docs/guide/providers.md, "Token rules"), else 255 per picture.
 */
import { describe, expect, it } from "vitest";
import {
  geminiImageTokens,
  openAiImageTokens,
  providerOf,
  qwenTokens,
  storedTokenRule,
  tokenRuleFor,
  tokenRuleSchema,
} from "./token-rules";

const endpoint = (baseUrl: string, model: string, tokenRule: unknown = null, imageDetail = "high") => ({
  baseUrl,
  model,
  imageDetail,
  tokenRule,
});

describe("token rules", () => {
  it("counts OpenAI pictures as 85 at low detail, else 85 plus 170 per 512-pixel tile after fitting", () => {
    expect(openAiImageTokens({ width: 4000, height: 3000 }, "low")).toBe(85);
    // 1024×1024 → short side 768 → 768×768 → 2×2 tiles.
    expect(openAiImageTokens({ width: 1024, height: 1024 }, "high")).toBe(85 + 170 * 4);
    // 2048×4096 → fitted 1024×2048 → short side 768: 768×1536 → 2×3 tiles.
    expect(openAiImageTokens({ width: 2048, height: 4096 }, "high")).toBe(85 + 170 * 6);
    // Small pictures are not scaled up: one tile.
    expect(openAiImageTokens({ width: 320, height: 240 }, "auto")).toBe(255);
  });

  it("counts Gemini pictures as 258, or 258 per 768-pixel tile past 384 pixels", () => {
    expect(geminiImageTokens({ width: 384, height: 384 })).toBe(258);
    expect(geminiImageTokens({ width: 1280, height: 720 })).toBe(258 * 2);
  });

  it("counts Qwen2.5-VL pictures as one token per 28×28 pixels after resizing to multiples of 28", () => {
    expect(qwenTokens({ width: 448, height: 448 }, 12_845_056)).toBe(256);
    // 1280×720 → 1288×728 (rounded to 28s) = 46×26 patches.
    expect(qwenTokens({ width: 1280, height: 720 }, 12_845_056)).toBe(46 * 26);
    // A video frame is capped at 768 tokens' worth of pixels.
    expect(qwenTokens({ width: 1920, height: 1080 }, 768 * 28 * 28)).toBeLessThanOrEqual(768);
    const rule = tokenRuleFor(endpoint("http://vllm:8000/v1", "Qwen/Qwen2.5-VL-7B-Instruct"));
    expect(rule.source).toBe("qwen-vl");
    // Two frames make one temporal patch.
    expect(rule.videoFrame({ width: 448, height: 448 })).toBe(128);
  });

  it("finds the provider by host or model, and the stub's rule is its own (255 a picture, 128 a video frame, 16 a second)", () => {
    expect(providerOf(endpoint("https://api.openai.com/v1", "gpt-4o"))).toBe("openai");
    expect(providerOf(endpoint("https://generativelanguage.googleapis.com/v1beta/openai", "x"))).toBe("gemini");
    expect(providerOf(endpoint("http://127.0.0.1:9/v1", "stub-vision"))).toBe("stub");
    expect(providerOf(endpoint("http://127.0.0.1:9/v1", "llava-onevision"))).toBe("default");
    const stub = tokenRuleFor(endpoint("http://x/v1", "stub-vision"));
    expect(stub.image({ width: 4000, height: 4000 })).toBe(255);
    expect([stub.videoFrame(null), stub.clipFrame(null), stub.videoSecond]).toEqual([128, 128, 16]);
  });

  it("uses the endpoint's own rule over its provider's, and ignores a stored rule that does not parse", () => {
    const own = { tokensPerImage: 100, tokensPerVideoFrame: 50, tokensPerVideoSecond: 300 };
    const rule = tokenRuleFor(endpoint("https://api.openai.com/v1", "gpt-4o", own));
    expect(rule).toMatchObject({ source: "endpoint", videoSecond: 300 });
    expect(rule.image(null)).toBe(100);
    expect(storedTokenRule({ tokensPerImage: -1, tokensPerVideoFrame: 1, tokensPerVideoSecond: 1 })).toBeNull();
    expect(tokenRuleFor(endpoint("https://api.openai.com/v1", "gpt-4o", { tokensPerImage: "x" })).source).toBe(
      "openai",
    );
    expect(tokenRuleSchema.safeParse({ ...own, extra: 1 }).success).toBe(false);
  });
});
