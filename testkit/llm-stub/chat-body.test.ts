import { describe, expect, it } from "vitest";
import { cutImageHash, imageHashOf, parseChatBody } from "./chat-body";

const dataUrl = (n: number) => `data:image/jpeg;base64,${Buffer.alloc(4000 + n, n).toString("base64")}`;

/** A body cut into chunks at awkward places, as a socket delivers it. */
function chunked(json: string, size: number): Buffer[] {
  const bytes = Buffer.from(json, "utf8");
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

describe("parseChatBody", () => {
  const body = {
    model: "m",
    messages: [
      { role: "system", content: 'The text mentions "url":"data:not-an-image" and {"url": "data:x"} in words.' },
      {
        role: "user",
        content: [
          { type: "text", text: "Is it \u00e9t\u00e9? \u{1F600}" },
          { type: "image_url", image_url: { url: dataUrl(1), detail: "low" } },
          { type: "image_url", image_url: { url: dataUrl(2) } },
          { type: "image_url", image_url: { url: "https://example.com/a.jpg" } },
        ],
      },
    ],
  };

  /** The parsed body with each reference resolved to its URL, and the hashes in order. */
  function resolved(json: string, size: number) {
    const parsed = parseChatBody(chunked(json, size));
    const hashes: string[] = [];
    const resolve = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(resolve);
      if (typeof value !== "object" || value === null) return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, inner]) => {
          if (key !== "url" || typeof inner !== "string") return [key, resolve(inner)];
          const image = parsed.imageOf(inner);
          hashes.push(image.hash);
          return [key, image.url];
        }),
      );
    };
    return { body: resolve(parsed.body), hashes, cut: JSON.stringify(parsed.body).length < json.length / 2 };
  }

  it.each([
    ["compact", JSON.stringify(body)],
    ["spaced", JSON.stringify(body, null, 2)],
    ["escaped slashes", JSON.stringify(body).replaceAll("/", "\\/")],
  ])("parses a %s body to what JSON.parse gives, each image with its hash", (_name, json) => {
    for (const size of [7, 4096, 1 << 20]) {
      const { body: parsed, hashes } = resolved(json, size);
      expect(parsed).toEqual(JSON.parse(json));
      expect(hashes).toEqual([dataUrl(1), dataUrl(2), "https://example.com/a.jpg"].map((url) => imageHashOf(url)));
    }
    // Data URLs written with escapes are left to JSON.parse; the others are cut out of what it parses.
    expect(resolved(json, 4096).cut).toBe(!json.includes("\\/"));
  });

  it("throws on malformed JSON as JSON.parse does", () => {
    expect(() => parseChatBody([Buffer.from('{"model": "m", "messages": [{"url": "data:abc')])).toThrow(SyntaxError);
    expect(() => parseChatBody([Buffer.from("not json")])).toThrow(SyntaxError);
  });

  it("hashes a repeated image from memory, and never gives two images one hash", () => {
    const image = Buffer.from(dataUrl(3));
    expect(cutImageHash(image)).toBe(imageHashOf(image));
    expect(cutImageHash(Buffer.from(image))).toBe(imageHashOf(image));
    // Same length and the same bytes everywhere but one: whatever the fingerprint samples, the hashes differ.
    for (let at = 30; at < image.length; at += 997) {
      const other = Buffer.from(image);
      other[at] = other[at] === 0x41 ? 0x42 : 0x41;
      expect(cutImageHash(other)).toBe(imageHashOf(other));
      expect(cutImageHash(other)).not.toBe(imageHashOf(image));
    }
    expect(cutImageHash(image)).toBe(imageHashOf(image));
  });
});
