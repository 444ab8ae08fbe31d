// cards.js: a card's label read, its short text and spoken name, and the texts of actions and moves in
// the page's language (from the move's structured fields, never its label).
import "./shim.mjs";
import { speak } from "./shim.mjs";
import test, { before } from "node:test";
import assert from "node:assert/strict";
import * as cards from "../../../src/cardhall/web/cards.js";

const en = {
  "card.name": "{rank} of {suit}",
  "rank.A": "ace",
  "rank.Q": "queen",
  "suit.C": "clubs",
  "suit.H": "hearts",
  "suit.S": "spades",
  "table.action.bid bas": "Bas",
  "table.suggest": "Suggest: {action}",
  "table.word.check": "check",
  "word.trump": "trumps",
  "move.play": "Play {card}",
  "move.trump": "Trumps: {suit}",
  "move.raise": "Raise by {amount}",
  "move.bid.2": "Bas",
  "move.moon.shoot": "Shoot the moon",
  "move.discard.card": "Discard {card}",
  "move.discard": "Discard",
  "move.suggest": "Suggest: {move}",
  "did.play": "{who} plays {card}",
  "did.bid": "{who} bids {contract}",
  "did.moon": "{who}: {choice}",
  "did.moon.shoot": "shoots the moon",
  "did.suggest": "{who} suggests: {move}",
  "ev.action": "{who}: {action}",
};
const bn = { "rank.Q": "বিবি", "suit.S": "ইস্কাপন", "card.name": "{suit}ের {rank}", "move.raise": "{amount} বাড়ান" };

before(() => speak("en", { en }));

test("a card's label is read, 10 written as T or 10", () => {
  assert.deepEqual(cards.parseCard("QS"), { rank: "Q", suit: "S" });
  assert.deepEqual(cards.parseCard("TH"), { rank: "10", suit: "H" });
  assert.deepEqual(cards.parseCard("10H"), { rank: "10", suit: "H" });
  for (const label of ["", "Q", "QX", "1S", "11S", "QSS", "qs", "bid"]) {
    assert.equal(cards.parseCard(label), null, label);
    assert.equal(cards.isCard(label), false, label);
  }
  assert.equal(cards.suitOf("2C"), "C");
  assert.equal(cards.suitOf("pass"), null);
});

test("a card's short text and spoken name", () => {
  assert.equal(cards.cardText("TH"), "10♥");
  assert.equal(cards.cardText("AS"), "A♠");
  assert.equal(cards.cardText("pass"), "pass");
  assert.equal(cards.suitText("C"), "♣ clubs");
  assert.equal(cards.suitText("X"), "X");
  assert.equal(cards.suitText(undefined), "");
  assert.equal(cards.cardName("QS"), "queen of spades");
  assert.equal(cards.cardName("7H"), "7 of hearts", "a rank without a name is its number");
  assert.equal(cards.cardName("nope"), "nope");
});

test("an action label in the page's words", () => {
  assert.equal(cards.actionText("bid bas"), "Bas", "a whole label the catalogue has");
  assert.equal(cards.actionText("play QS"), "play Q♠", "a card in it as printed");
  assert.equal(cards.actionText("trump C"), "trumps ♣ clubs", "a suit after the first word");
  assert.equal(cards.actionText("check 40"), "check 40");
  assert.equal(cards.actionText("D 2"), "D 2", "the first word is the action's, never a suit");
  assert.equal(cards.actionText("suggest bid bas"), "Suggest: Bas");
});

test("a legal move's text from its fields", () => {
  assert.equal(cards.moveText({ kind: "play", card: "QS", label: "play QS" }), "Play Q♠");
  assert.equal(cards.moveText({ kind: "trump", suit: "H", label: "trump H" }), "Trumps: ♥ hearts");
  assert.equal(cards.moveText({ kind: "raise", amount: 40, label: "raise 40" }), "Raise by 40");
  assert.equal(cards.moveText({ kind: "bid", contract: 2, label: "bid 2" }), "Bas");
  assert.equal(cards.moveText({ kind: "moon", choice: "shoot", label: "moon shoot" }), "Shoot the moon");
  assert.equal(cards.moveText({ kind: "discard", card: "2C", label: "discard 2C" }), "Discard 2♣");
  assert.equal(cards.moveText({ kind: "discard", label: "discard" }), "Discard");
  assert.equal(cards.moveText({ kind: "juggle", label: "juggle 3" }), "juggle 3", "a kind this page does not know keeps its label");
  const suggestion = { kind: "suggest", suggestion: { kind: "play", card: "AS", label: "play AS" }, label: "suggest play AS" };
  assert.equal(cards.moveText(suggestion), "Suggest: Play A♠");
  assert.equal(cards.moveCard(suggestion), "AS");
  assert.equal(cards.moveCard({ kind: "play", card: "2C" }), "2C");
  assert.equal(cards.moveCard({ kind: "pass" }), null);
});

test("a move someone made, as the log says it", () => {
  assert.equal(cards.didText("Ann", { kind: "play", card: "TH" }), "Ann plays 10♥");
  assert.equal(cards.didText("Ann", { kind: "bid", contract: 2 }), "Ann bids Bas");
  assert.equal(cards.didText("Ann", { kind: "bid", contract: 7 }), "Ann bids 7");
  assert.equal(cards.didText("Ann", { kind: "moon", choice: "shoot" }), "Ann: shoots the moon");
  assert.equal(cards.didText("Ann", { kind: "raise", amount: 5 }), "Ann: Raise by 5", "no did.<kind>: the move's text");
  assert.equal(cards.didText("Ann", { kind: "suggest", suggestion: { kind: "play", card: "QS" } }), "Ann suggests: Play Q♠");
});

test("in Bengali: names and numbers in its words and digits, card indices as printed", async () => {
  await speak("bn", { en, bn });
  try {
    assert.equal(cards.cardName("QS"), "ইস্কাপনের বিবি");
    assert.equal(cards.cardText("TH"), "10♥");
    assert.equal(cards.actionText("check 40"), "check ৪০");
    assert.equal(cards.moveText({ kind: "raise", amount: 40, label: "raise 40" }), "৪০ বাড়ান");
  } finally {
    await speak("en", { en });
  }
});
