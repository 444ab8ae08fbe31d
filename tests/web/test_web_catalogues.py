"""The browser client's two message catalogues (``src/cardhall/web/i18n/en.json`` and ``bn.json``, with each
game's ``i18n.<lang>.json`` merged in as the server sends them: ``cardhall.server.client_games``): the
same keys in the same order, the same placeholders in each text, and every key a module of the client
asks for by name (``t("table.rules")``) in both. Keys built at run time (``t(`game.${name}.title`)``)
are checked in the browser by the tests that look for English left on a Bengali screen."""

from __future__ import annotations

import re
from pathlib import Path

import cardhall
from cardhall.registry import entries
from cardhall.server.client_games import catalogue, game_module_path

WEB = Path(cardhall.__file__).parent / "web"
EN, BN = (catalogue(lang) for lang in ("en", "bn"))


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_both_catalogues_have_the_same_keys_in_the_same_order() -> None:
    assert len(EN) > 300
    assert list(EN) == list(BN), sorted(set(EN) ^ set(BN))


def test_each_text_has_the_same_placeholders_in_both_languages() -> None:
    differ = [key for key in EN if placeholders(EN[key]) != placeholders(BN[key])]
    assert not differ, differ


def test_every_key_a_module_asks_for_by_name_is_in_the_catalogues() -> None:
    asked: set[str] = set()
    modules = [*WEB.rglob("*.js"), *filter(None, map(game_module_path, entries()))]
    for module in modules:
        asked |= set(re.findall(r'\bt\("([^"]+)"', module.read_text("utf-8")))
    assert len(asked) > 200
    assert not asked - set(EN), sorted(asked - set(EN))


# "{count} matches", "{count} hands won": a count followed by an English plural noun.
COUNTED_PLURAL = re.compile(r"\{count\}(?: \w+)*? (?:\w+s|people)\b")


def test_a_text_about_a_number_of_things_has_its_singular_form() -> None:
    """A count of "1 matches" (issue 46, D23): each text that counts things names them in the singular too
    (``key#one``, chosen by the browser's CLDR plural rules), and only texts that count have one."""
    counting = [k for k, text in EN.items() if "#" not in k and COUNTED_PLURAL.search(text)]
    missing = [k for k in counting if f"{k}#one" not in EN]
    assert not missing, missing
    forms = [k for k in EN if "#" in k]
    assert len(forms) >= 15
    stray = [k for k in forms if k.split("#")[0] not in EN or "{count}" not in EN[k] or k[-4:] != "#one"]
    assert not stray, stray


def test_counts_are_all_named_count() -> None:
    """The plural form is chosen by ``count``: a text that counts by another name would never get it."""
    for k, text in EN.items():
        counted = r"\{(\w+)\} (?:\w+ )?(?:matches|cards|tricks|hands|lines|chips|events)\b"
        for name in re.findall(counted, text):
            assert name == "count", (k, text)
