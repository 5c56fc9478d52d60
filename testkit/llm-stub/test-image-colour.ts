import { inflateSync } from "node:zlib";
import { TEST_COLOURS, type TestColour } from "../../lib/judge/endpoints/test-image";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The test colour of an image lib/judge/endpoints/test-image.ts made (a data: URL), or null for any other image. The stub
 * LLM reads it so that it can answer the test prompt as a model that saw the image would.
 */
export function testColourOfDataUrl(url: string): TestColour | null {
  const match = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(url);
  if (!match) return null;
  try {
    const png = Buffer.from(match[1]!, "base64");
    if (
      !png.subarray(0, 8).equals(PNG_SIGNATURE) ||
      png.toString("ascii", 12, 16) !== "IHDR" ||
      png[25] !== 2 ||
      png[24] !== 8
    )
      return null;
    const idatLength = png.readUInt32BE(33);
    if (png.toString("ascii", 37, 41) !== "IDAT") return null;
    const pixels = inflateSync(png.subarray(41, 41 + idatLength));
    const [r, g, b] = [pixels[1]!, pixels[2]!, pixels[3]!];
    const found = Object.entries(TEST_COLOURS).find(([, rgb]) => rgb[0] === r && rgb[1] === g && rgb[2] === b);
    return (found?.[0] as TestColour | undefined) ?? null;
  } catch {
    return null;
  }
}
