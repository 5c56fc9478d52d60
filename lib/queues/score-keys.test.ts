import { describe, expect, it } from "vitest";
import { awaitsMoreDigits, continuesNumber, DIGIT_CHAIN_MS, typeDigit, type TypedNumber } from "./score-keys";

const tenScale = { min: 0, max: 10 };
function type(digits: [number, number][], range = tenScale, target = "t") {
  let state: TypedNumber | null = null;
  for (const [digit, at] of digits) state = typeDigit(state, target, digit, at, range) ?? state;
  return state?.value ?? null;
}

describe("typing scores with digits", () => {
  it("makes 10 from 1 then 0 within the chain window, and 1 then 0 after a pause", () => {
    expect(
      type([
        [1, 0],
        [0, 100],
      ]),
    ).toBe(10);
    expect(
      type([
        [1, 0],
        [0, DIGIT_CHAIN_MS + 1],
      ]),
    ).toBe(0);
    expect(type([[1, 0]])).toBe(1);
  });

  it("starts a new number when chaining would leave the range", () => {
    expect(
      type([
        [1, 0],
        [2, 100],
      ]),
    ).toBe(2);
    expect(
      type([
        [7, 0],
        [3, 100],
      ]),
    ).toBe(3);
    expect(
      type([
        [0, 0],
        [5, 100],
      ]),
    ).toBe(5); // no leading zeros
  });

  it("builds up to three digits on 0–100 and keeps verdicts to 0 and 1", () => {
    expect(
      type(
        [
          [8, 0],
          [5, 200],
        ],
        { min: 0, max: 100 },
      ),
    ).toBe(85);
    expect(
      type(
        [
          [1, 0],
          [0, 200],
          [0, 400],
        ],
        { min: 0, max: 100 },
      ),
    ).toBe(100);
    expect(typeDigit(null, "v", 2, 0, { min: 0, max: 1 })).toBeNull();
    expect(
      type(
        [
          [1, 0],
          [0, 100],
        ],
        { min: 0, max: 1 },
      ),
    ).toBe(0);
  });

  it("does not chain across targets", () => {
    const first = typeDigit(null, "a", 1, 0, tenScale);
    expect(typeDigit(first, "b", 0, 100, tenScale)).toEqual({ value: 0, at: 100, target: "b" });
  });
});

describe("a digit that moves on to the next target", () => {
  it("waits for a second digit only while the number can still grow on the target's scale", () => {
    const at = (value: number) => ({ value, at: 0, target: "t" });
    expect(awaitsMoreDigits(at(1), { max: 10 })).toBe(true);
    expect(awaitsMoreDigits(at(10), { max: 10 })).toBe(false);
    expect(awaitsMoreDigits(at(0), { max: 10 })).toBe(false);
    expect(awaitsMoreDigits(at(2), { max: 10 })).toBe(false);
    expect(awaitsMoreDigits(at(3), { max: 3 })).toBe(false);
    expect(awaitsMoreDigits(at(1), { max: 1 })).toBe(false);
    expect(awaitsMoreDigits(at(8), { max: 100 })).toBe(true);
  });

  it("continues a number only on the same target, within the window and the range", () => {
    const one = { value: 1, at: 0, target: "t" };
    expect(continuesNumber(one, "t", 0, 100, { max: 10 })).toBe(true);
    expect(continuesNumber(one, "t", 5, 100, { max: 10 })).toBe(false);
    expect(continuesNumber(one, "u", 0, 100, { max: 10 })).toBe(false);
    expect(continuesNumber(one, "t", 0, DIGIT_CHAIN_MS + 1, { max: 10 })).toBe(false);
    expect(continuesNumber(null, "t", 0, 0, { max: 10 })).toBe(false);
  });
});
