// chat.js: the lines kept in view (each once, in the order said, the last hundred) and the table a
// refused line was for.
import "./shim.mjs";
import test from "node:test";
import assert from "node:assert/strict";
import { chatTable, keepLine } from "../../../src/cardhall/web/chat.js";

const line = (n, text = `line ${n}`) => ({ type: "chat", line: n, text, from: "Ann", player: 1 });

test("a new line is kept after the others, and is fresh", () => {
  const first = keepLine([], line(1));
  assert.deepEqual(first, { lines: [line(1)], fresh: true });
  const second = keepLine(first.lines, line(2));
  assert.deepEqual(second.lines.map((l) => l.line), [1, 2]);
  assert.equal(second.fresh, true);
  assert.deepEqual(first.lines.map((l) => l.line), [1], "the list given is left as it was");
});

test("a line sent again (a reconnect) is kept once", () => {
  const lines = [line(1), line(2)];
  assert.equal(keepLine(lines, line(2, "again")), null);
  assert.equal(keepLine(lines, line(1)), null);
});

test("an older line that comes late goes in its place, and is not fresh", () => {
  const kept = keepLine([line(1), line(5)], line(3));
  assert.deepEqual(kept.lines.map((l) => l.line), [1, 3, 5]);
  assert.equal(kept.fresh, false);
});

test("the last hundred lines are kept", () => {
  let lines = [];
  for (let n = 1; n <= 105; n += 1) lines = keepLine(lines, line(n)).lines;
  assert.equal(lines.length, 100);
  assert.equal(lines[0].line, 6);
  assert.equal(lines.at(-1).line, 105);
  const older = keepLine(lines, line(3));
  assert.deepEqual(older.lines.map((l) => l.line), lines.map((l) => l.line), "one older than all kept drops out again");
  assert.equal(keepLine([line(1), line(2)], line(3), 2).lines.length, 2);
});

test("a refused line's table, from its message's id", () => {
  assert.equal(chatTable("chat:t-42:7"), "t-42");
  assert.equal(chatTable("chat:abc:1"), "abc");
});
