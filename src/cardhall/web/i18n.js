// The message catalogue: every text of the interface, in English and Bengali (i18n/<lang>.json). The
// first page follows the browser's language (Bengali when the browser prefers it, English otherwise)
// until the person picks one, which is kept.
export const LANGS = ["en", "bn"];
let lang = "en";
let messages = {};
let fallback = {};

async function load(code) {
  const response = await fetch(`/static/i18n/${code}.json`);
  return response.json();
}

export async function setLanguage(code) {
  lang = LANGS.includes(code) ? code : "en";
  fallback = lang === "en" ? {} : await load("en");
  messages = await load(lang);
  localStorage.setItem("cardhall.lang", lang);
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}

export function language() {
  return lang;
}

export function has(key) {
  return key in messages || key in fallback;
}

/** The text of `key`, its {placeholders} filled from `vars` (numbers in the language's digits). A text
 * about a number of things (`vars.count`) takes the form the language's plural rules (CLDR, through the
 * browser's `Intl.PluralRules`) choose for it: `key#one` for "1 match", `key` itself otherwise. */
export function t(key, vars = {}) {
  const text = pick(key, vars.count) ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => {
    const value = vars[name];
    return typeof value === "number" ? num(value) : String(value ?? "");
  });
}

function pick(key, count) {
  if (typeof count === "number") {
    const form = `${key}#${plurals().select(count)}`;
    if (form in messages) return messages[form];
    // (a text this language has gets its own other form, never English's "one")
    if (!(key in messages) && form in fallback) return fallback[form];
  }
  return messages[key] ?? fallback[key];
}

let rules = null;
function plurals() {
  if (!rules || rules.resolvedOptions().locale.split("-")[0] !== lang) rules = new Intl.PluralRules(lang);
  return rules;
}

export function num(value) {
  return new Intl.NumberFormat(lang === "bn" ? "bn-BD" : "en-US", { useGrouping: false }).format(value);
}

/** The language to start in: the one chosen before, else the browser's first of ours, else English. */
export function initialLanguage() {
  const chosen = localStorage.getItem("cardhall.lang");
  if (LANGS.includes(chosen)) return chosen;
  for (const wanted of navigator.languages || [navigator.language || ""]) {
    const code = String(wanted).toLowerCase().split("-")[0];
    if (LANGS.includes(code)) return code;
  }
  return "en";
}

const BN_DIGITS = "০১২৩৪৫৬৭৮৯";
// A card's index stays as printed on the card ("10♥", "10H"); every other number takes the language's digits.
const NUMBER = /\d+(?![\dCDHS♣♦♥♠])/g;

/** `text` with its numbers in the page's digits (cards' indices left as they are printed). */
export function localDigits(text) {
  if (lang !== "bn") return text;
  return text.replace(NUMBER, (n) => [...n].map((d) => BN_DIGITS[Number(d)]).join(""));
}
