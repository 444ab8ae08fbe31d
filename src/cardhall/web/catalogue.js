// The games' catalogue (GET /api/games, asked once per page) and the words it gives: a game's title, the
// name and options of a game string ("hokm(target=300)"), an option's title, explanation and values in
// the page's language. Every screen that names a game or an option takes its words from here.
//
// Decision: this module imports no screen. The lobby, the first page, the leaderboards, the rules and a
// person's page all name games; when these words lived in lobby.js, the dialogs that lobby.js opens
// (rules.js, profile.js) imported lobby.js back, a circle of imports (issue 48) that
// tests/web_unit/imports.test.mjs now refuses.
import { t, num, language } from "./i18n.js";
import { api } from "./util.js";

let games = null; // GET /api/games, asked once

export async function gameList() {
  if (!games) games = await api("GET", "/api/games");
  return games;
}

/** The catalogue if it came already, else null (for what is drawn again once it comes). */
export function gamesKnown() {
  return games;
}

export function gameTitle(name) {
  return t(`game.${name}.title`);
}

/** The name of a game string's game: "hokm(target=300)" -> "hokm". */
export function gameName(text) {
  return text.split("(")[0];
}

/** A game string: the game and the options that differ from their defaults, "hokm(target=300)". */
export function gameString(game, options) {
  const parts = Object.entries(options).map(([k, v]) => `${k}=${v}`);
  return parts.length ? `${game}(${parts.join(",")})` : game;
}

/** An option's texts in the page's language (its title, its explanation, its values' words). */
export function optionText(option) {
  return option.text?.[language()] ?? option.text?.en ?? { title: option.name, help: option.help };
}

/** An option of a game (or a table setting) explained in the page's language. */
export function optionHelp(option) {
  return optionText(option).help;
}

/** A value of an option in the page's language: its words, a number in the page's digits, yes or no. */
export function optionValue(option, value) {
  const words = optionText(option).values?.[String(value)];
  if (words) return words;
  if (typeof value === "boolean") return t(value ? "lobby.yes" : "lobby.no");
  if (typeof value === "number") return num(value);
  return String(value);
}

/** The value a game string gives an option ("max_hands=3": "3"), as the option's type has it. */
function typedValue(option, text) {
  if (option.type === "bool") return text === "true";
  if (option.type === "int") return Number(text);
  return (option.values || []).find((v) => String(v) === text) ?? text;
}

/** A game string's options in words ("Hands at most: 3"), from the game's option list; [] before the
 * list came (the waiting room is drawn again then). */
export function gameOptionsText(game) {
  const name = gameName(game);
  const described = games?.games.find((g) => g.name === name);
  const inner = /\((.*)\)$/.exec(game)?.[1];
  if (!described || !inner) return [];
  return inner.split(",").map((pair) => {
    const [key, value = ""] = pair.split("=");
    const option = described.options.find((o) => o.name === key.trim());
    return option ? `${optionText(option).title}: ${optionValue(option, typedValue(option, value.trim()))}` : null;
  }).filter(Boolean);
}
