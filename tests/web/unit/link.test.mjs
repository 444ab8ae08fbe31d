// link.js: the connection's back-off after a drop (half a second, doubling, 4 s at most, a quarter either
// way, back to the start once a connection worked), its hello and the messages that waited.
import "./shim.mjs";
import test from "node:test";
import assert from "node:assert/strict";
import { FIRST_RETRY_MS, Link, RETRY_MAX_MS, jittered, nextRetry, whole } from "../../../src/cardhall/web/link.js";

test("the waits double from half a second to 4 s", () => {
  const schedule = [FIRST_RETRY_MS];
  while (schedule.length < 7) schedule.push(nextRetry(schedule.at(-1)));
  assert.deepEqual(schedule, [500, 1000, 2000, 4000, 4000, 4000, 4000]);
  assert.equal(RETRY_MAX_MS, 4000);
});

test("each wait is a quarter either way", () => {
  assert.equal(jittered(1000, 0), 750);
  assert.equal(jittered(1000, 0.5), 1000);
  assert.ok(jittered(1000, 0.999999) < 1250);
  for (let i = 0; i < 100; i += 1) {
    const wait = jittered(4000);
    assert.ok(wait >= 3000 && wait < 5000, String(wait));
  }
});

class FakeSocket {
  static all = [];
  constructor(url) {
    this.url = url;
    this.sent = [];
    FakeSocket.all.push(this);
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.onclose?.();
  }
}

test("a dropped connection is opened again on the schedule, and hello'd", (t) => {
  globalThis.WebSocket = FakeSocket;
  globalThis.location = { protocol: "https:", host: "cards.example" };
  localStorage.setItem("cardhall.token", "tok-9");
  const waits = [];
  t.mock.method(globalThis, "setTimeout", (callback, ms) => waits.push({ callback, ms }));
  t.mock.method(Math, "random", () => 0.5); // (no jitter: the waits are the schedule's)
  const statuses = [];
  const frames = [];
  const link = new Link((frame) => frames.push(frame), (status) => statuses.push(status));
  link.deltas = true;
  link.send({ type: "join", table: "t1" }); // before the connection: it waits
  link.open();
  const ws = FakeSocket.all.at(-1);
  assert.equal(ws.url, "wss://cards.example/ws");
  ws.onopen();
  assert.deepEqual(ws.sent, [{ type: "hello", token: "tok-9", deltas: true, id: "hello" }]);
  link.wanted = () => ({ type: "attach", table: "t1" });
  ws.onmessage({ data: JSON.stringify({ type: "welcome" }) });
  assert.deepEqual(ws.sent.slice(1), [{ type: "attach", table: "t1" }, { type: "join", table: "t1" }]);
  assert.deepEqual(frames, [{ type: "welcome" }]);
  link.send({ type: "chat" });
  assert.deepEqual(ws.sent.at(-1), { type: "chat" }, "sent at once while connected");
  // Four drops in a row: 500, 1000, 2000, 4000 ms, then 4000 again.
  for (let drop = 0; drop < 5; drop += 1) {
    FakeSocket.all.at(-1).onclose();
    assert.equal(link.ready, false);
    waits.at(-1).callback();
  }
  assert.deepEqual(waits.map((w) => w.ms), [500, 1000, 2000, 4000, 4000]);
  link.send({ type: "later" });
  assert.deepEqual(statuses, ["connecting", "online", "offline", "offline", "offline", "offline", "offline", "offline", "offline", "offline", "offline", "offline"]);
  // A connection that works starts the schedule again, and sends what waited.
  const last = FakeSocket.all.at(-1);
  last.onmessage({ data: JSON.stringify({ type: "welcome" }) });
  assert.deepEqual(last.sent, [{ type: "attach", table: "t1" }, { type: "later" }]);
  last.onclose();
  assert.equal(waits.at(-1).ms, 500);
  // A socket replaced already (closed on purpose, a new one opened) schedules nothing when it closes.
  const count = waits.length;
  ws.onclose();
  assert.equal(waits.length, count);
});

test("an update's delta is put back together from the table's previous frame, in its order", () => {
  const shown = new Map();
  const tricks = [{ winner: 1 }];
  const first = { type: "table", table: "t1", n: 3, observation: { seat: 0, hand: ["AS", "2C"], trick: [], tricks, scores: [0, 0] } };
  assert.equal(whole(first, shown), first, "a whole frame is left as it is");
  const other = { type: "table", table: "t2", n: 1, observation: { seat: 1, hand: ["KD"] } };
  whole(other, shown);
  const update = { type: "update", table: "t1", n: 4, observation: { trick: [{ seat: 1, card: "3C" }], moon: null }, delta: [], legal: [] };
  const got = whole(update, shown);
  assert.deepEqual(got, { type: "update", table: "t1", n: 4, observation: { seat: 0, hand: ["AS", "2C"], trick: [{ seat: 1, card: "3C" }], tricks, scores: [0, 0], moon: null }, legal: [] });
  assert.deepEqual(Object.keys(got.observation), ["seat", "hand", "trick", "tricks", "scores", "moon"]);
  assert.ok(!("delta" in got));
  // A key gone is gone; a list that grew gets its new items appended; the next builds on this one.
  const next = whole({ type: "update", table: "t1", n: 5, observation: { hand: ["AS"], tricks: [{ winner: 0 }] }, delta: ["moon", "scores"], grown: ["tricks"] }, shown);
  assert.deepEqual(next.observation, { seat: 0, hand: ["AS"], trick: [{ seat: 1, card: "3C" }], tricks: [{ winner: 1 }, { winner: 0 }] });
  assert.ok(!("grown" in next));
  assert.deepEqual(tricks, [{ winner: 1 }], "the previous frame's list is left as it was");
  // An update without delta is whole; other tables' and other frames' are untouched.
  const plain = { type: "update", table: "t2", n: 2, observation: { seat: 1, hand: [] } };
  assert.equal(whole(plain, shown), plain);
  assert.deepEqual(shown.get("t2"), { seat: 1, hand: [] });
  const chat = { type: "chat", table: "t1", text: "hi" };
  assert.equal(whole(chat, shown), chat);
});

test("the link hands the page whole frames, per connection", (t) => {
  globalThis.WebSocket = FakeSocket;
  globalThis.location = { protocol: "http:", host: "cards.example" };
  t.mock.method(globalThis, "setTimeout", () => {});
  const frames = [];
  const link = new Link((frame) => frames.push(frame), () => {});
  link.deltas = true;
  link.open();
  const ws = FakeSocket.all.at(-1);
  ws.onopen();
  assert.equal(ws.sent[0].deltas, true, "its hello asks for deltas");
  ws.onmessage({ data: JSON.stringify({ type: "table", table: "t1", observation: { hand: ["AS"], scores: [1] } }) });
  ws.onmessage({ data: JSON.stringify({ type: "update", table: "t1", observation: { scores: [2] }, delta: [] }) });
  assert.deepEqual(frames.at(-1), { type: "update", table: "t1", observation: { hand: ["AS"], scores: [2] } });
});

test("a server that knows no deltas gets the hello again without them", (t) => {
  globalThis.WebSocket = FakeSocket;
  globalThis.location = { protocol: "http:", host: "cards.example" };
  t.mock.method(globalThis, "setTimeout", () => {});
  const frames = [];
  const link = new Link((frame) => frames.push(frame), () => {});
  link.deltas = true;
  link.open();
  const ws = FakeSocket.all.at(-1);
  ws.onopen();
  const refusal = { type: "error", code: "bad_message", message: "Object contains unknown field `deltas`", ref: null };
  ws.onmessage({ data: JSON.stringify(refusal) });
  assert.equal(ws.sent.length, 2);
  assert.ok(!("deltas" in ws.sent[1]) && ws.sent[1].type === "hello");
  assert.deepEqual(frames, [], "the page never sees the refusal");
  ws.onmessage({ data: JSON.stringify({ type: "welcome" }) });
  assert.equal(link.ready, true);
});
