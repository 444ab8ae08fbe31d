// The message catalogue: every text of the interface, in English and Bengali (i18n/<lang>.json).
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

/** The text of `key`, its {placeholders} filled from `vars` (numbers in the language's digits). */
export function t(key, vars = {}) {
  const text = messages[key] ?? fallback[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => {
    const value = vars[name];
    return typeof value === "number" ? num(value) : String(value ?? "");
  });
}

export function num(value) {
  return new Intl.NumberFormat(lang === "bn" ? "bn-BD" : "en-US", { useGrouping: false }).format(value);
}
