import jpeg from "jpeg-js";
import { describe, expect, it } from "vitest";
import { gridFor, MAX_GRID_SIDE, tileFrames, tilingNote } from "./frame-tiling";

/** A solid-colour JPEG, made in code. */
function solid(width: number, height: number, rgb: [number, number, number]): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([...rgb, 255], i * 4);
  return jpeg.encode({ data, width, height }, 95).data;
}

function pixel(image: { width: number; data: Uint8Array }, x: number, y: number): [number, number, number] {
  const at = (Math.round(y) * image.width + Math.round(x)) * 4;
  return [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!];
}

const near = (actual: [number, number, number], expected: [number, number, number]) =>
  actual.every((value, i) => Math.abs(value - expected[i]!) <= 12);

const RED: [number, number, number] = [220, 30, 30];
const GREEN: [number, number, number] = [30, 200, 60];
const BLUE: [number, number, number] = [30, 60, 220];
const WHITE: [number, number, number] = [255, 255, 255];

describe("tiling frames into one grid image", () => {
  it("picks the squarest grid", () => {
    expect([1, 2, 3, 4, 5, 9, 10].map((n) => gridFor(n))).toEqual([
      { columns: 1, rows: 1 },
      { columns: 2, rows: 1 },
      { columns: 2, rows: 2 },
      { columns: 2, rows: 2 },
      { columns: 3, rows: 2 },
      { columns: 3, rows: 3 },
      { columns: 4, rows: 3 },
    ]);
  });

  it("puts the frames left to right, top to bottom in the order given, the empty cell white", () => {
    const tiled = tileFrames([solid(64, 48, RED), solid(64, 48, GREEN), solid(64, 48, BLUE)]);
    expect(tiled).toMatchObject({ columns: 2, rows: 2, width: 64 * 2 + 8, height: 48 * 2 + 8 });
    const image = jpeg.decode(tiled.jpeg, { useTArray: true });
    expect([image.width, image.height]).toEqual([136, 104]);
    // The centre of each cell: first frame top left, second top right, third bottom left, nothing bottom right.
    expect(near(pixel(image, 32, 24), RED)).toBe(true);
    expect(near(pixel(image, 72 + 32, 24), GREEN)).toBe(true);
    expect(near(pixel(image, 32, 56 + 24), BLUE)).toBe(true);
    expect(near(pixel(image, 72 + 32, 56 + 24), WHITE)).toBe(true);
    // The line between the cells is white.
    expect(near(pixel(image, 67, 24), WHITE)).toBe(true);
  });

  it("centres a smaller frame in its cell and scales a grid beyond the largest side down", () => {
    const mixed = jpeg.decode(tileFrames([solid(100, 100, RED), solid(40, 40, GREEN)]).jpeg, { useTArray: true });
    expect(near(pixel(mixed, 108 + 50, 50), GREEN)).toBe(true);
    expect(near(pixel(mixed, 108 + 5, 5), WHITE)).toBe(true);

    const big = tileFrames([
      solid(1600, 900, RED),
      solid(1600, 900, GREEN),
      solid(1600, 900, BLUE),
      solid(1600, 900, RED),
    ]);
    expect(Math.max(big.width, big.height)).toBe(MAX_GRID_SIDE);
    const image = jpeg.decode(big.jpeg, { useTArray: true });
    expect(near(pixel(image, big.width * 0.75, big.height * 0.25), GREEN)).toBe(true);
    expect(near(pixel(image, big.width * 0.25, big.height * 0.75), BLUE)).toBe(true);
  });

  it("says in the prompt how the grid is read", () => {
    expect(tilingNote(3, gridFor(3))).toContain(
      "the 3 frames are tiled into the one image below, in a 2×2 grid separated by white lines, read left to right, top to bottom",
    );
    expect(tilingNote(3, gridFor(3))).toContain("followed by 1 empty cell");
    expect(tilingNote(4, gridFor(4))).toContain("the last is at the bottom right");
  });
});
