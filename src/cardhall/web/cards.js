// Cards drawn with CSS: a label like "10H" or "QS" becomes a card with its rank and suit in colour; cards
// scale with the font size of their container. Also the texts of cards and action labels, in the page's
// language, and the names screen readers say ("queen of spades, legal").
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
