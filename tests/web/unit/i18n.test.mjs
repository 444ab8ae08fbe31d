// i18n.js: a text's placeholders, its plural forms (CLDR's, through Intl.PluralRules), English for what a
// language lacks, numbers in the language's digits, and the language a first visit starts in.
import "./shim.mjs";
import { speak, WEB } from "./shim.mjs";
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { has, initialLanguage, language, localDigits, num, t } from "../../../src/cardhall/web/i18n.js";

const en = {
  hello: "Hello, {name}!",
  seats: "{count} seats",
  "seats#one": "{count} seat",
  score: "{who} has {points} points",
  only_en: "English only",
  plural_en: "{count} things",
  "plural_en#one": "{count} thing",
};
const bn = { hello: "নমস্কার, {name}!", seats: "{count}টি আসন", score: "{who}: {points} পয়েন্ট" };

test("a text's placeholders are filled, numbers in the language's digits", async () => {
  await speak("en", { en });
  assert.equal(language(), "en");
  assert.equal(t("hello", { name: "Ann" }), "Hello, Ann!");
  assert.equal(t("score", { who: "Ann", points: 12 }), "Ann has 12 points");
  assert.equal(t("hello"), "Hello, !", "a placeholder without a value is left empty");
  assert.equal(t("hello", { name: "{count}" }), "Hello, {count}!", "a value is put in as it is, once");
  assert.equal(t("no.such.key"), "no.such.key");
  await speak("bn", { en, bn });
  assert.equal(t("score", { who: "Ann", points: 12 }), "Ann: ১২ পয়েন্ট");
  assert.equal(t("hello", { name: "12" }), "নমস্কার, 12!", "text stays as it is: only numbers are written");
});

test("a number of things takes the language's plural form", async () => {
  await speak("en", { en });
  assert.equal(t("seats", { count: 1 }), "1 seat");
  assert.equal(t("seats", { count: 0 }), "0 seats");
  assert.equal(t("seats", { count: 2 }), "2 seats");
  assert.equal(t("seats", { count: 1.5 }), "1.5 seats");
  assert.equal(t("seats", { count: "1" }), "1 seats", "a count that is no number chooses no form");
  await speak("bn", { en, bn });
  assert.equal(t("seats", { count: 1 }), "১টি আসন", "Bengali's own form, never English's #one");
  assert.equal(t("seats", { count: 3 }), "৩টি আসন");
  assert.equal(t("plural_en", { count: 1 }), "১ thing", "a text only English has keeps its forms");
  assert.equal(t("plural_en", { count: 4 }), "৪ things");
});

test("what a language lacks is said in English", async () => {
  await speak("bn", { en, bn });
  assert.equal(language(), "bn");
  assert.equal(t("only_en"), "English only");
  assert.ok(has("only_en") && has("hello") && !has("nothing"));
  await speak("xx", { en });
  assert.equal(language(), "en", "a language the page does not speak is English");
  assert.equal(localStorage.getItem("cardhall.lang"), "en");
  assert.equal(document.documentElement.lang, "en");
});

test("numbers and a text's digits", async () => {
  await speak("en", { en });
  assert.equal(num(1500), "1500", "no grouping");
  assert.equal(localDigits("10♥ and 25 points"), "10♥ and 25 points");
  await speak("bn", { en, bn });
  assert.equal(num(1500), "১৫০০");
  assert.equal(num(-2.5), "-২.৫");
  // a card's index stays as printed on the card, every other number takes the language's digits
  assert.equal(localDigits("10♥ 10H QS: 25 points, 3 deals"), "10♥ 10H QS: ২৫ points, ৩ deals");
});

test("a first visit starts in the browser's language, a choice is kept", () => {
  localStorage.clear();
  navigator.languages = ["fr-FR", "bn-BD", "en"];
  assert.equal(initialLanguage(), "bn");
  navigator.languages = ["de"];
  assert.equal(initialLanguage(), "en");
  navigator.languages = ["BN-in"];
  assert.equal(initialLanguage(), "bn");
  localStorage.setItem("cardhall.lang", "bn");
  assert.equal(initialLanguage(), "bn");
  localStorage.setItem("cardhall.lang", "xx");
  navigator.languages = ["de"];
  assert.equal(initialLanguage(), "en");
});

test("the real catalogues' plural forms are forms of their language, of a text they have", () => {
  for (const lang of ["en", "bn"]) {
    const catalogue = JSON.parse(fs.readFileSync(new URL(`i18n/${lang}.json`, WEB), "utf8"));
    const forms = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    const plural = Object.keys(catalogue).filter((key) => key.includes("#"));
    assert.ok(plural.length > 5, `${lang}: plural texts found`);
    for (const key of plural) {
      const [base, form] = key.split("#");
      assert.ok(forms.includes(form), `${lang}: ${key} is no plural form of ${lang} (${forms})`);
      assert.ok(base in catalogue, `${lang}: ${key} without ${base}`);
    }
  }
});
