// catalogue.js: the games' catalogue asked once, a game string read, options named in the page's words.
import "./shim.mjs";
import { fetched, serve, speak } from "./shim.mjs";
import test, { before } from "node:test";
import assert from "node:assert/strict";
import * as catalogue from "../../../src/cardhall/web/catalogue.js";

const en = { "game.hokm.title": "Hokm", "lobby.yes": "yes", "lobby.no": "no" };
const bn = { "game.hokm.title": "হোকম", "lobby.yes": "হ্যাঁ" };
const target = {
  name: "target",
  type: "int",
  default: 7,
  help: "the help in code",
  text: { en: { title: "Points to win", help: "Hands to win the match." }, bn: { title: "জেতার পয়েন্ট", help: "..." } },
};
const trump = {
  name: "trump",
  type: "choice",
  values: ["hakem", "random"],
  default: "hakem",
  text: { en: { title: "Trump chosen by", values: { hakem: "the hakem", random: "chance" } } },
};
const open = { name: "open", type: "bool", default: false, text: { en: { title: "Open hands" } } };
const GAMES = { games: [{ name: "hokm", options: [target, trump, open] }], settings: [], bot_levels: {} };

before(() => speak("en", { en }));

test("a game string's game, and a game string from options", () => {
  assert.equal(catalogue.gameName("hokm(target=300)"), "hokm");
  assert.equal(catalogue.gameName("gin"), "gin");
  assert.equal(catalogue.gameString("hokm", {}), "hokm");
  assert.equal(catalogue.gameString("hokm", { target: 5, open: true }), "hokm(target=5,open=true)");
  assert.equal(catalogue.gameTitle("hokm"), "Hokm");
});

test("an option's words in the page's language, English or its code without them", async () => {
  assert.equal(catalogue.optionText(target).title, "Points to win");
  assert.equal(catalogue.optionHelp(target), "Hands to win the match.");
  assert.deepEqual(catalogue.optionText({ name: "x", help: "h" }), { title: "x", help: "h" });
  assert.equal(catalogue.optionValue(trump, "random"), "chance");
  assert.equal(catalogue.optionValue(trump, "other"), "other");
  assert.equal(catalogue.optionValue(open, true), "yes");
  assert.equal(catalogue.optionValue(open, false), "no");
  assert.equal(catalogue.optionValue(target, 12), "12");
  await speak("bn", { en, bn });
  try {
    assert.equal(catalogue.optionText(target).title, "জেতার পয়েন্ট");
    assert.equal(catalogue.optionText(trump).title, "Trump chosen by", "English when Bengali has none");
    assert.equal(catalogue.optionValue(target, 12), "১২");
    assert.equal(catalogue.optionValue(open, true), "হ্যাঁ");
    assert.equal(catalogue.gameTitle("hokm"), "হোকম");
  } finally {
    await speak("en", { en });
  }
});

test("the catalogue is asked for once; a game string's options in words once it came", async () => {
  assert.equal(catalogue.gamesKnown(), null);
  assert.deepEqual(catalogue.gameOptionsText("hokm(target=5)"), [], "nothing before the catalogue came");
  serve("/api/games", GAMES);
  fetched.length = 0;
  const first = await catalogue.gameList();
  assert.equal(await catalogue.gameList(), first);
  assert.deepEqual(fetched.map((f) => f.path), ["/api/games"]);
  assert.equal(catalogue.gamesKnown(), first);
  assert.deepEqual(catalogue.gameOptionsText("hokm(target=5, trump=random,open=true)"), [
    "Points to win: 5",
    "Trump chosen by: chance",
    "Open hands: yes",
  ]);
  assert.deepEqual(catalogue.gameOptionsText("hokm(open=false,nonsense=1)"), ["Open hands: no"], "an option the game lacks is left out");
  assert.deepEqual(catalogue.gameOptionsText("hokm"), []);
  assert.deepEqual(catalogue.gameOptionsText("gin(max_hands=1)"), [], "a game the catalogue lacks");
  await speak("bn", { en, bn });
  try {
    assert.deepEqual(catalogue.gameOptionsText("hokm(target=5)"), ["জেতার পয়েন্ট: ৫"], "a number in the page's digits");
  } finally {
    await speak("en", { en });
  }
});
