// Cards drawn with CSS: a label like "10H" or "QS" becomes a card with its rank and suit in colour; cards
// scale with the font size of their container. Also the texts of cards and moves in the page's language:
// a legal move from its structured fields (kind, card, amount, ...: the server's legal entries, never
// its label), a move of the log from the event's label; and the names screen readers say ("queen of
// spades, playable").
import { num, t, has } from "./i18n.js";

export const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const CARD = /^(10|[2-9AKQJT])([CDHS])$/;

export function isCard(text) {
  return CARD.test(text);
}

export function parseCard(label) {
  const m = CARD.exec(label);
  return m ? { rank: m[1] === "T" ? "10" : m[1], suit: m[2] } : null;
}

export function suitOf(label) {
  return parseCard(label)?.suit ?? null;
}

/** A card's short text: "10♥". Card indices stay as printed on real cards in both languages. */
export function cardText(label) {
  const c = parseCard(label);
  return c ? c.rank + SUITS[c.suit] : label;
}

/** A suit's symbol and name: "♥ hearts". */
export function suitText(suit) {
  return SUITS[suit] ? `${SUITS[suit]} ${t(`suit.${suit}`)}` : String(suit ?? "");
}

/** A card element; `extra` holds classes (legal, dim, new, ...); `state` adds to the spoken name. */
export function cardElement(label, extra = "", state = "") {
  const c = parseCard(label);
  const el = document.createElement("span");
  el.className = `card ${c && "HD".includes(c.suit) ? "red" : "black"} ${extra}`.trim();
  el.dataset.card = label;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", state ? t("table.card_state", { card: cardName(label), state }) : cardName(label));
  if (!c) {
    el.textContent = label;
    return el;
  }
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.setAttribute("aria-hidden", "true");
  corner.textContent = c.rank + SUITS[c.suit];
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.setAttribute("aria-hidden", "true");
  pip.textContent = SUITS[c.suit];
  el.append(corner, pip);
  return el;
}

/** A face-down card (the stock, a widow, a hand not looked at). */
export function cardBack(extra = "", label = "") {
  const el = document.createElement("span");
  el.className = `card back ${extra}`.trim();
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label || t("table.card_back"));
  return el;
}

/** A card's name for screen readers, from the catalogue ("queen of spades"). */
export function cardName(label) {
  const c = parseCard(label);
  if (!c) return label;
  const rank = has(`rank.${c.rank}`) ? t(`rank.${c.rank}`) : num(Number(c.rank));
  return t("card.name", { rank, suit: t(`suit.${c.suit}`) });
}

/** An action label ("bid bas", "play QS", "trump C", "blind 40") in the page's language. */
export function actionText(label) {
  if (has(`table.action.${label}`)) return t(`table.action.${label}`);
  // the gin advisor's "suggest <one of the captain's actions>"
  if (label.startsWith("suggest ")) return t("table.suggest", { action: actionText(label.slice(8)) });
  return label
    .split(" ")
    .map((word, i) => {
      if (isCard(word)) return cardText(word);
      if (i > 0 && SUITS[word]) return suitText(word);
      if (/^\d+$/.test(word)) return num(Number(word));
      if (has(`table.word.${word}`)) return t(`table.word.${word}`);
      return has(`word.${word}`) ? t(`word.${word}`) : word;
    })
    .join(" ");
}

/** A legal move's text in the page's language, from its structured fields (docs/protocol.md, legal
 * entries): `move.<kind>` of the catalogue with its card, suit, amount, contract, layout or choice. */
export function moveText(entry) {
  const kind = entry.kind;
  if (kind === "suggest") return t("move.suggest", { move: moveText(entry.suggestion) });
  if (kind === "bid" && has(`move.bid.${entry.contract}`)) return t(`move.bid.${entry.contract}`);
  if (kind === "moon") return t(`move.moon.${entry.choice}`);
  const key = entry.card && has(`move.${kind}.card`) ? `move.${kind}.card` : `move.${kind}`;
  if (!has(key)) return entry.label; // a kind this page does not know yet still gets its button
  return t(key, {
    card: entry.card ? cardText(entry.card) : "",
    suit: entry.suit ? suitText(entry.suit) : "",
    amount: entry.amount,
    contract: entry.contract,
    layout: entry.layout,
  });
}

/** The card of the hand a legal move is about (its own, or the suggested move's), or null. */
export function moveCard(entry) {
  return entry.card ?? entry.suggestion?.card ?? null;
}

/** A move someone made, as a statement for the log ("Ann plays Q♠"), from its structured fields (the
 * action event's `move`): `did.<kind>` of the catalogue. */
export function didText(who, move) {
  if (move.kind === "suggest") return t("did.suggest", { who, move: moveText(move.suggestion) });
  const key = move.card && has(`did.${move.kind}.card`) ? `did.${move.kind}.card` : `did.${move.kind}`;
  const contract = move.kind === "bid" && has(`move.bid.${move.contract}`) ? t(`move.bid.${move.contract}`) : move.contract;
  if (!has(key)) return t("ev.action", { who, action: moveText(move) });
  return t(key, {
    who,
    card: move.card ? cardText(move.card) : "",
    suit: move.suit ? suitText(move.suit) : "",
    amount: move.amount,
    contract: typeof contract === "number" ? num(contract) : contract,
    layout: move.layout,
    choice: move.choice ? t(`did.moon.${move.choice}`) : "",
  });
}
