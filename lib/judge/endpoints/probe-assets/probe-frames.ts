import jpeg from "jpeg-js";
import { TEST_COLOURS, type TestColour } from "../test-image";

/**
 * The endpoint probe's video frames (lib/judge/endpoints/endpoint-probe-video.ts): `count` small solid-colour JPEGs made in
 * code (jpeg-js), the test colours in turn, each as base64, ready to join into vLLM's
 * `data:video/jpeg;base64,<frame>,<frame>,…` URL.
 */
export function probeJpegFrames(count: number, size = 32): string[] {
  const colours = Object.keys(TEST_COLOURS) as TestColour[];
  const encoded = new Map<TestColour, string>();
  return Array.from({ length: count }, (_, index) => {
    const colour = colours[index % colours.length]!;
    const known = encoded.get(colour);
    if (known) return known;
    const [r, g, b] = TEST_COLOURS[colour];
    const data = Buffer.alloc(size * size * 4);
    for (let pixel = 0; pixel < size * size; pixel++) data.set([r, g, b, 255], pixel * 4);
    const frame = jpeg.encode({ data, width: size, height: size }, 80).data.toString("base64");
    encoded.set(colour, frame);
    return frame;
  });
}
