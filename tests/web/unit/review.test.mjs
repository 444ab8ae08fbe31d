// review.js's and profile.js's pure parts: the review plot's axis steps, an amount with its unit, a
// verdict's words; a person's rating plot (where each value goes on its grid) and a rating's text.
import "./shim.mjs";
import { speak } from "./shim.mjs";
import test, { before } from "node:test";
import assert from "node:assert/strict";
import { amount, ticks, verdictText } from "../../../src/cardhall/web/review.js";
import { H, PAD, W, plotPoints, ratingText } from "../../../src/cardhall/web/profile.js";

const en = {
  "review.points": "{sign}{count} points",
  "review.points#one": "{sign}{count} point",
  "review.chips": "{sign}{count} chips",
  "review.chips#one": "{sign}{count} chip",
  "review.verdict.good": "Good",
  "review.verdict.unclear": "Unclear",
};

before(() => speak("en", { en }));

test("the review plot's axis: round steps (1, 2 or 5 times a power of ten), the range inside", () => {
  assert.deepEqual(ticks(0, 10), [0, 10, 5]);
  assert.deepEqual(ticks(-3, 7), [-5, 10, 5]);
  assert.deepEqual(ticks(-120, 45), [-150, 50, 50]);
  for (const [lo, hi] of [[0, 10], [-3, 7], [0.01, 0.09], [-120, 45], [5, 5], [0, 1], [-0.5, 0.2], [100, 1900]]) {
    const [bottom, top, step] = ticks(lo, hi);
    assert.ok(bottom <= lo && top >= hi && top > bottom, `${lo}..${hi}: ${bottom}..${top}`);
    const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-9);
    assert.ok([1, 2, 5].some((k) => Math.abs(mantissa - k) < 1e-9), `${lo}..${hi}: step ${step}`);
    const steps = Math.round((top - bottom) / step);
    assert.ok(steps >= 1 && steps <= 6, `${lo}..${hi}: ${steps} steps of ${step}`);
  }
  assert.deepEqual(ticks(5, 5), [5, 5.5, 0.5], "one value: a step above it");
});

test("an amount carries its unit, its sign, and one decimal (three when small)", () => {
  assert.equal(amount(3.24, "points"), "3.2 points");
  assert.equal(amount(3.24, "points", true), "+3.2 points");
  assert.equal(amount(-3.26, "points", true), "-3.3 points");
  assert.equal(amount(-3.26, "points"), "-3.3 points");
  assert.equal(amount(1, "chips"), "1 chip");
  assert.equal(amount(0.0123, "points"), "0.012 points");
  assert.equal(amount(-0.00001, "points", true), "0 points", "never -0");
  assert.equal(amount(0, "points", true), "0 points");
});

test("a verdict's words, unclear without one", () => {
  assert.equal(verdictText("good"), "Good");
  assert.equal(verdictText(null), "Unclear");
  assert.equal(verdictText(undefined), "Unclear");
});

test("a rating plot: oldest left, highest top, one value level across the middle", () => {
  const at = plotPoints([1500, 1540, 1520]);
  assert.deepEqual(at.map(([x]) => x), [PAD, W / 2, W - PAD]);
  assert.equal(at[0][1], H - PAD, "the lowest on the bottom line");
  assert.equal(at[1][1], PAD, "the highest on the top line");
  assert.equal(at[2][1], (H - PAD + PAD) / 2);
  assert.deepEqual(plotPoints([1500]), [[W / 2, H / 2]]);
  assert.deepEqual(plotPoints([1500, 1500]), [[PAD, H / 2], [W - PAD, H / 2]]);
});

test("a rating's text, marked while provisional", () => {
  assert.equal(ratingText(1512, false), "1512");
  assert.equal(ratingText(1512, true), "1512?");
});
