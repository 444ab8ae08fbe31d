// Cards drawn with CSS: a label like "10H" or "QS" becomes a card with its rank and suit in colour.
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

/** A card's short text: "10♥". */
export function cardText(label) {
  const c = parseCard(label);
  return c ? c.rank + SUITS[c.suit] : label;
}

export function cardElement(label, extra = "") {
  const c = parseCard(label);
  const el = document.createElement("span");
  el.className = `card ${c && "HD".includes(c.suit) ? "red" : "black"} ${extra}`.trim();
  el.dataset.card = label;
  el.setAttribute("aria-label", cardName(label));
  if (!c) {
    el.textContent = label;
    return el;
  }
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.textContent = c.rank + SUITS[c.suit];
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.textContent = SUITS[c.suit];
  el.append(corner, pip);
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
  return label
    .split(" ")
    .map((word, i) => {
      if (isCard(word)) return cardText(word);
      if (i > 0 && SUITS[word]) return SUITS[word];
      if (/^\d+$/.test(word)) return num(Number(word));
      return has(`word.${word}`) ? t(`word.${word}`) : word;
    })
    .join(" ");
}
