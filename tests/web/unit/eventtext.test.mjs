// eventtext.js: the events' pages' pure parts (issue 50), with the real catalogues in both languages: the
// list grouped by status, an event's state in words, the standings' ranks and figures, a duplicate deal
// compared with the other tables, a private event's link (its token read back by router.js's eventToken
// and kept by util.js's eventTokens).
import "./shim.mjs";
import { speak, WEB } from "./shim.mjs";
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import {
  dealComparison,
  formatText,
  groupEvents,
  privateLink,
  rankedRows,
  seconds,
  shareText,
  spanText,
  standingsTable,
  stateText,
} from "../../../src/cardhall/web/eventtext.js";
import { eventToken as tokenOf } from "../../../src/cardhall/web/router.js";
import { eventTokens } from "../../../src/cardhall/web/util.js";

const catalogue = (lang) => JSON.parse(fs.readFileSync(new URL(`i18n/${lang}.json`, WEB), "utf-8"));
const en = catalogue("en");
const bn = catalogue("bn");

test("the events are grouped by status, soonest first, whether sent grouped or as one list", () => {
  const list = [
    { id: "a", status: "upcoming", starts_at: 300 },
    { id: "b", status: "finished", starts_at: 10 },
    { id: "c", status: "upcoming", starts_at: "1970-01-01T00:01:40Z" },
    { id: "d", status: "running", starts_at: 50 },
    { id: "e", status: "finished", starts_at: 20 },
    { id: "f", status: "cancelled", starts_at: 5 },
  ];
  const ids = (groups) => Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, v.map((e) => e.id)]));
  const wanted = { running: ["d"], upcoming: ["c", "a"], finished: ["e", "b"], cancelled: ["f"] };
  assert.deepEqual(ids(groupEvents({ events: list })), wanted);
  const grouped = { upcoming: [list[0], list[2]], running: [list[3]], finished: [list[1], list[4]], cancelled: [list[5]] };
  for (const g of Object.values(grouped)) for (const e of g) delete e.status; // (the group says it)
  assert.deepEqual(ids(groupEvents(grouped)), wanted);
  assert.deepEqual(ids(groupEvents({})), { running: [], upcoming: [], finished: [], cancelled: [] });
});

test("a time is read as seconds or as an ISO date", () => {
  assert.equal(seconds(12.5), 12.5);
  assert.equal(seconds("1970-01-01T00:02:00Z"), 120);
  assert.equal(seconds(null), null);
  assert.equal(seconds("soon"), null);
});

test("an event's format and where it is, in words, in both languages", async () => {
  await speak("en", { en });
  assert.equal(spanText(40.2), "41 s");
  assert.equal(spanText(61), "2 min");
  assert.equal(spanText(3600), "1 h");
  assert.equal(spanText(2 * 3600 + 600), "2 h 10 min");
  assert.equal(formatText({ kind: "arena", minutes: 30 }), "Arena, 30 min");
  assert.equal(formatText({ kind: "duplicate", rounds: 1, deals: 1 }), "Duplicate, 1 round, 1 deal each");
  assert.equal(formatText({ kind: "duplicate", rounds: 3, deals: 2 }), "Duplicate, 3 rounds, 2 deals each");
  const now = 1000;
  assert.equal(stateText({ kind: "arena", status: "upcoming", starts_at: now + 300 }, now), "starts in 5 min");
  assert.equal(stateText({ kind: "arena", status: "upcoming", starts_at: now - 2 }, now), "starting…");
  assert.equal(stateText({ kind: "arena", status: "running", starts_at: now - 60, ends_at: now + 90 }, now), "ends in 2 min");
  assert.equal(stateText({ kind: "duplicate", status: "running", starts_at: now - 60, round: 2, rounds: 3 }, now), "round 2 of 3");
  assert.equal(stateText({ kind: "duplicate", status: "finished" }, now), "finished");
  assert.equal(stateText({ kind: "duplicate", status: "cancelled" }, now), "cancelled");
  await speak("bn", { en, bn });
  assert.equal(stateText({ kind: "arena", status: "upcoming", starts_at: now + 300 }, now), "৫ মিনিট পরে শুরু");
  assert.equal(stateText({ kind: "duplicate", status: "running", starts_at: now - 60, round: 2, rounds: 3 }, now), "রাউন্ড ২/৩");
  assert.equal(formatText({ kind: "duplicate", rounds: 2, deals: 1 }), "ডুপ্লিকেট, ২টি রাউন্ড, প্রতিটিতে ১টি দান");
});

const standings = [
  { player: 7, name: "Cy", rank: 3, points: 2, matchpoints: 2, share: 0.25, strength: 0.525, performance: 1412.4, tables: 2 },
  { player: 5, name: "Ann", rank: 1, points: 6, matchpoints: 5.5, share: 0.6875, strength: 0.45, performance: 1630.6, tables: 2 },
  { player: 9, name: "bot", rank: 2, points: 5, is_bot: true },
  { player: 6, name: "Bob", rank: 1, points: 6, matchpoints: 5.5, share: 0.6875, strength: 2, performance: 1601, tables: 2 },
];

test("the standings: rank order, a shared rank marked on each of its lines, a bot never listed", async () => {
  await speak("en", { en });
  const rows = rankedRows(standings);
  assert.deepEqual(rows.map((s) => [s.rankText, s.name]), [["1=", "Ann"], ["1=", "Bob"], ["3", "Cy"]]);
  assert.deepEqual(rankedRows([]), []);
  assert.deepEqual(rankedRows(undefined), []);
});

test("an arena's standings count points; a duplicate's matchpoints, their share and the tie-breaks", async () => {
  await speak("en", { en });
  const [arenaHeads, arena] = standingsTable("arena", standings);
  assert.deepEqual(arenaHeads, ["#", "Player", "Points", "Tables"]);
  assert.deepEqual(arena.map(([rank, s, ...cells]) => [rank, s.name, ...cells]), [["1=", "Ann", "6", "2"], ["1=", "Bob", "6", "2"], ["3", "Cy", "2", "2"]]);
  const [heads, rows] = standingsTable("duplicate", standings);
  assert.deepEqual(heads, ["#", "Player", "Matchpoints", "Share", "Opponents", "Performance"]);
  assert.deepEqual(rows[0].slice(2), ["5.5", "68.8\u00a0%", "45\u00a0%", "1631"]);
  assert.deepEqual(rows[2].slice(2), ["2", "25\u00a0%", "52.5\u00a0%", "1412"]);
  assert.equal(shareText(null), "–");
  await speak("bn", { en, bn });
  const [bnHeads, bnRows] = standingsTable("duplicate", standings);
  assert.equal(bnHeads[2], "ম্যাচপয়েন্ট");
  assert.deepEqual(bnRows[0].slice(0, 1).concat(bnRows[0].slice(2)), ["১=", "৫.৫", "৬৮.৮\u00a0%", "৪৫\u00a0%", "১৬৩১"]);
});

test("a duplicate deal beside the other tables: each line marked from his side, his matchpoints summed", () => {
  // Ann scored 40 with the hand that Bob (30), Cy (40) and a bot (55) held at the other tables:
  // she beat Bob (1), tied Cy (1/2), lost to the bot (0): 1.5 matchpoints of 3.
  const deal = {
    deal: 0,
    score: 40,
    others: [
      { table: "t2", name: "Bob", score: 30 },
      { table: "t3", name: "Cy", score: 40 },
      { table: "t4", name: "bot", is_bot: true, score: 55 },
    ],
  };
  const higher = dealComparison(deal);
  assert.equal(higher.matchpoints, 1.5);
  assert.equal(higher.out_of, 3);
  assert.deepEqual(higher.lines.map((l) => [l.mine ? "her" : l.name, l.score, l.versus]), [["bot", 55, "lost"], ["her", 40, undefined], ["Cy", 40, "tie"], ["Bob", 30, "beat"]]);
  // Scored by penalties (lower wins): she beat the bot instead of Bob.
  const lower = dealComparison(deal, false);
  assert.equal(lower.matchpoints, 1.5);
  assert.deepEqual(lower.lines.map((l) => [l.mine ? "her" : l.name, l.versus]), [["Bob", "lost"], ["her", undefined], ["Cy", "tie"], ["bot", "beat"]]);
  // Not told which way: the direction whose count gives the server's matchpoints. Her 40 against Bob's
  // 30 and Cy's 40: higher-wins counts 1 + 1/2 = 1.5, lower-wins 0 + 1/2 = 0.5; the server's 0.5 says
  // a penalty-point game.
  const penalties = { score: 40, matchpoints: 0.5, others: [{ name: "Bob", score: 30 }, { name: "Cy", score: 40 }] };
  assert.equal(dealComparison(penalties).higher, false, "higher-wins would give 1.5, lower-wins gives 0.5");
  assert.deepEqual(dealComparison(penalties).lines.map((l) => l.versus ?? "her"), ["lost", "her", "tie"]);
  assert.equal(dealComparison({ ...penalties, matchpoints: 1.5 }).higher, true);
  assert.equal(dealComparison({ ...penalties, lowest_wins: true, matchpoints: 1.5 }).higher, false, "said outright: taken");
  assert.equal(dealComparison({ score: 1, others: [{ name: "bot", bot: true, score: 0 }] }).lines[1].is_bot, true, "a bot by the server's `bot`");
  // The server's own word (its matchpoints, each line's result) is taken as it is.
  const told = dealComparison({ ...deal, matchpoints: 2, others: [{ name: "Bob", score: 30, result: "lost" }] });
  assert.equal(told.matchpoints, 2);
  assert.equal(told.lines.find((l) => l.name === "Bob").versus, "lost");
});

test("a private event's link carries its token in the fragment, read back and kept per event", () => {
  const link = privateLink("https://hall.example", "ev-12", "AbC_9-x");
  assert.equal(link, "https://hall.example/events/ev-12#token=AbC_9-x");
  assert.equal(tokenOf(new URL(link).hash), "AbC_9-x");
  for (const hash of ["", "#", "#token=", "#token=a b", "#invite/t/x", "token=abc"]) assert.equal(tokenOf(hash), null, hash);
  assert.equal(tokenOf("", "?token=Q-1_z"), "Q-1_z", "the server's link: in the query");
  assert.equal(tokenOf("#token=F", "?token=Q"), "F");
  assert.equal(tokenOf("", "?token=a%20b"), null);
  assert.equal(eventTokens.get("ev-12"), null);
  eventTokens.set("ev-12", "AbC_9-x");
  eventTokens.set("ev-13", null);
  assert.equal(eventTokens.get("ev-12"), "AbC_9-x");
  assert.equal(eventTokens.get("ev-13"), null);
});
