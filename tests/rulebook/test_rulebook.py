"""The rules texts and phase hints of ``cardhall.rulebook``: every game in both languages, every option
named, the Bengali as the English block for block, only the Markdown subset, a hint for every phase of
each schema."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from cardhall.errors import InvalidOptionError
from cardhall.games.kierki.rules import DEAL_INFO
from cardhall.registry import game_classes
from cardhall.rulebook import LANGUAGES, deal_hint, phase_hint, rules_text
from tests.games import schemas

GAMES = sorted(game_classes())
ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "cardhall" / "rulebook"
NUMBER = re.compile(r"\d+")
BENGALI = re.compile(r"[\u0980-\u09ff]")


def blocks(text: str) -> list[list[str]]:
    """The blocks of a text: runs of lines between blank lines."""
    return [block.split("\n") for block in text.strip("\n").split("\n\n")]


def shape(block: list[str]) -> str:
    """What a block is: ``h1``..``h3``, ``p``, or ``list<n>`` (n items)."""
    first = block[0]
    if first.startswith("#"):
        return "h" + str(len(first) - len(first.lstrip("#")))
    if first.startswith("- "):
        return f"list{len(block)}"
    return "p"


def phases(game: str) -> list[str]:
    """The values of the observation's ``phase`` in the game's ``schema.json``."""
    doc = schemas.documents()[f"{game}.json"]
    node: dict[str, Any] = doc["$defs"]["observation"]["properties"]["phase"]
    while "$ref" in node:
        node = doc["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return list(node["enum"])


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_its_rules_in_every_language(game: str, lang: str) -> None:
    text = rules_text(game, lang)
    assert text.startswith("# ") and text.endswith("\n")
    assert len(blocks(text)) >= 10
    if lang == "en":
        words = len(re.findall(r"[A-Za-z]+", text))
        assert 400 <= words <= 900, f"{game}: {words} words"
    else:
        assert len(BENGALI.findall(text)) > len(re.findall(r"[A-Za-z]", text)), "mostly Bengali"
        # the decision in the package docstring: Latin digits in Bengali too, never a mix
        assert not re.search("[০-৯]", text)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_option_of_the_game_is_named_in_its_options_section(game: str, lang: str) -> None:
    text = rules_text(game, lang)
    options = text[text.rindex("\n## ") :]
    for option in game_classes()[game].option_spec:
        assert f"- **{option.name}**" in options or f"**{option.name}**:" in options, option.name


@pytest.mark.parametrize("game", GAMES)
def test_the_bengali_text_has_the_english_blocks_headings_and_numbers(game: str) -> None:
    english, bengali = blocks(rules_text(game, "en")), blocks(rules_text(game, "bn"))
    assert [shape(b) for b in bengali] == [shape(b) for b in english]
    options = [o.name for o in game_classes()[game].option_spec] + ["auto_arrange"] * (game == "gin")
    cards = r"(?:10|[2-9AKQJ])[♣♦♥♠]"
    last_section = max(i for i, block in enumerate(english) if shape(block) == "h2")
    for i, (en, bn) in enumerate(zip(english, bengali, strict=True)):
        # Line by line (item by item in a list): the same numbers and cards, and in the Options section
        # each option under its own name.
        for en_line, bn_line in zip(en, bn, strict=True):
            assert sorted(NUMBER.findall(bn_line)) == sorted(NUMBER.findall(en_line)), (en_line, bn_line)
            assert sorted(re.findall(cards, bn_line)) == sorted(re.findall(cards, en_line)), en_line
            for option in options if i > last_section else ():
                assert (f"**{option}**" in bn_line) == (f"**{option}**" in en_line), (option, bn_line)


def subset_problems(text: str) -> list[str]:
    """The lines of a text outside the Markdown subset: blocks separated by one blank line, each a heading
    (``#``, ``##`` or ``###``), a one-line paragraph or a list of ``- `` items, with only ``**bold**``."""
    problems = []
    if not text.endswith("\n") or "\n\n\n" in text or "\t" in text or "\r" in text:
        problems.append("blank lines, tabs or the final newline")
    for block in blocks(text):
        if shape(block) == "p" and len(block) > 1:
            problems.append(f"a wrapped paragraph: {block[0]!r}")
        for line in block:
            heading = re.fullmatch(r"(#+) \S.*", line)
            if (heading and len(heading.group(1)) > 3) or (line.startswith("#") and not heading):
                problems.append(f"a heading: {line!r}")
            body = line.lstrip("#- ") if heading or line.startswith("- ") else line
            plain = re.sub(r"\*\*[^*\n]+?\*\*", "", body).replace(" > ", " ")
            if line != line.strip() or not line:
                problems.append(f"spaces: {line!r}")
            if re.match(r"(\d+[.)]|[*+>]) ", body) or set("*`|[]<>\\#_~") & set(plain):
                problems.append(f"markup outside the subset: {line!r}")
    return problems


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_only_the_markdown_subset_is_used(game: str, lang: str) -> None:
    text = rules_text(game, lang)
    assert not subset_problems(text)
    assert text.count("\n# ") == 0, "one title"


def test_the_subset_check_can_fail() -> None:
    assert not subset_problems("# Title\n\nSome **bold** text, J > 9.\n\n## Part\n\n- one\n- two **x_y**\n")
    bad = [
        "a `code` span",
        "a [link](x)",
        "*emphasis*",
        "wrapped\nparagraph",
        "| a | b |",
        "#### deep",
        "1. numbered",
        "> quote",
        "#no space",
        "snake_case outside bold",
        "two\n\n\nblanks",
    ]
    for text in bad:
        assert subset_problems(text + "\n"), text


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_phase_of_the_schema_has_a_hint(game: str, lang: str) -> None:
    for phase in phases(game):
        hint = phase_hint(game, phase, lang)
        assert "\n" not in hint and 20 <= len(hint) <= 140, hint
        assert hint.endswith((".", "।")), hint
    # a new phase being added to gin (the knocker's arrangement) has its hint already
    if game == "gin":
        assert phase_hint(game, "arrange", lang)


def test_the_hints_are_the_same_in_both_languages() -> None:
    for game in GAMES:
        for phase in phases(game) + (["arrange"] if game == "gin" else []):
            en, bn = phase_hint(game, phase, "en"), phase_hint(game, phase, "bn")
            assert en != bn and BENGALI.search(bn) and not re.search("[০-৯]", bn)
            assert sorted(NUMBER.findall(bn)) == sorted(NUMBER.findall(en)), (game, phase)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_kierki_deal_has_its_penalty_rule(lang: str) -> None:
    assert len(DEAL_INFO) == 12
    for name, rule in DEAL_INFO:
        hint = deal_hint("kierki", name, lang)
        # the penalty or prize of the deal, as the engine states it, is in the hint
        for number in NUMBER.findall(rule):
            assert number in NUMBER.findall(hint), (name, number, hint)
    assert "20" in deal_hint("kierki(first_deal=2)", "no tricks", lang)


def test_unknown_games_languages_phases_and_deals_are_refused_by_name() -> None:
    cases = [
        (lambda: rules_text("poker"), "poker", "hokm"),
        (lambda: rules_text("poker(players=3)", "bn"), "poker", "hokm"),
        (lambda: rules_text("hokm", "fr"), "fr", "bn"),
        (lambda: phase_hint("hokm", "dancing"), "dancing", "bidding"),
        (lambda: phase_hint("hokm", "bidding", "de"), "de", "en"),
        (lambda: phase_hint("chess", "play"), "chess", "kierki"),
        (lambda: deal_hint("kierki", "no aces"), "no aces", "robber"),
        (lambda: deal_hint("hokm", "no tricks"), "hokm", "deal"),
    ]
    for call, named, choice in cases:
        with pytest.raises(InvalidOptionError) as info:
            call()
        assert named in str(info.value) and choice in str(info.value), str(info.value)


def test_game_strings_with_options_name_their_game() -> None:
    assert rules_text("hearts(players=8)") == rules_text("hearts")
    assert rules_text("gin(players=2)", "bn") == rules_text("gin", "bn")
    assert phase_hint("svara(players=3,ante=5)", "svara join", "bn") == phase_hint(
        "svara", "svara join", "bn"
    )
    assert rules_text(" hokm ") == rules_text("hokm") != rules_text("kierki")


def test_the_texts_are_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["cardhall"]
    src = PACKAGE.parent
    files = sorted(p.relative_to(src).as_posix() for p in PACKAGE.iterdir() if p.suffix in (".md", ".json"))
    for game in GAMES:
        files += [
            f"games/{game}/{p.name}" for p in (src / "games" / game).iterdir() if p.suffix in (".md", ".json")
        ]
    # The table's options, and each game's rules, hints and options in every language.
    assert len(files) >= len(LANGUAGES) + len(GAMES) * len(LANGUAGES) * 3
    for name in files:
        assert any(fnmatch.fnmatch(name, g) for g in globs), name


# The texts against the engine: where a text states a default, a hand value, a deal or a score, the engine
# agrees (texts follow the engine where it made a rule choice).

CARD = r"(?:10|[2-9AKQJ])[♣♦♥♠]"


def option_lines(game: str) -> dict[str, str]:
    text = rules_text(game, "en")
    return {m.group(1): m.group(0) for m in re.finditer(r"^- \*\*([a-z_]+)\*\*.*$", text, re.MULTILINE)}


@pytest.mark.parametrize("game", GAMES)
def test_the_defaults_the_options_section_names_are_the_engines(game: str) -> None:
    lines = option_lines(game)
    for option in game_classes()[game].option_spec:
        line = lines[option.name]
        default = option.default
        expected = ("on" if default else "off") if isinstance(default, bool) else str(default)
        stated = re.search(r"\(default (-?\w+)", line) or re.search(
            r"(?:\*\*)?(-?\w+)(?:\*\*)? \((?:the standard rule|the default)\)", line
        )
        assert stated, f"{option.name}: the default is not stated"
        assert stated.group(1) == expected, (option.name, stated.group(1), expected)


def test_the_svara_hand_values_in_the_text_are_the_engines() -> None:
    from cardhall.games.svara.hands import hand_value

    text = rules_text("svara")
    examples = re.findall(rf"((?:{CARD} ){{2}}{CARD})(?: is worth)? (\d+)\b", text)
    examples += [
        (cards, value) for value, cards in re.findall(rf"worth (\d+) \(((?:{CARD} ){{2}}{CARD})\)", text)
    ]
    assert len(examples) >= 8
    for cards, value in examples:
        assert hand_value(cards.split()) == int(value), cards
    substitute = re.search(rf"((?:{CARD} ){{2}}{CARD}) is three kings, (\d+)", text)
    assert substitute and hand_value(substitute.group(1).split(), joker="substitute") == int(
        substitute.group(2)
    )


def test_the_hearts_deal_table_is_the_engines() -> None:
    import cardhall

    text = rules_text("hearts")
    for players in range(6, 12):
        obs = cardhall.load_game(f"hearts(players={players})").new_game(seed=1).observation(0)
        widow = obs["widow_size"]
        ending = f"a widow of {widow}." if widow else "no widow."
        assert f"- {players} players: {len(obs['hand'])} cards each, {ending}" in text
    one_deck = {p: cardhall.load_game(f"hearts(decks=1,players={p})").new_game(seed=1) for p in range(3, 8)}
    widows = {p: state.observation(0)["widow_size"] for p, state in one_deck.items()}
    assert widows[4] == 0 and "4 players get 13 cards each and there is no widow" in text
    assert (
        f"3, 5, 6 and 7 players leave a widow of {widows[3]}, {widows[5]}, {widows[6]} and {widows[7]}"
        in text
    )


def test_the_kierki_robber_example_is_the_engines() -> None:
    from cardhall.cards import mask_of, parse_card
    from cardhall.games.kierki.rules import trick_penalty

    text = rules_text("kierki")
    example = re.search(r"the 7th trick holds (K♥) and (Q♠)\..*: (\d+) points\.", text)
    assert example
    trick = mask_of(parse_card(c) for c in (example.group(1), example.group(2), "2C", "3C"))
    assert trick_penalty(7, 7, trick) == -int(example.group(3))


def test_the_hokm_example_is_the_engines() -> None:
    from cardhall.games.hokm.rules import hand_score

    example = next(line for line in rules_text("hokm").split("\n") if line.startswith("Example:"))
    for contract, tricks in ((5, 6), (2, 1), (3, 3)):
        score = hand_score(contract, tricks, "ignore", -100)
        assert f"{'gains' if score > 0 else 'loses'} {abs(score)}" in example, (contract, tricks)
    assert hand_score(10, 10, "ignore", -100) == 200 and "he gains 200 points" in rules_text("hokm")
