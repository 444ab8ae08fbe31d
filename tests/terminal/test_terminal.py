"""The terminal game for people, driven through a pseudo-terminal (pexpect) as a person would: every
game from the first prompt to the end of a deal, with the screens checked against the real state (no
card hidden from the person is ever shown), every bad input answered in one line with a new prompt,
save and resume, and ``replay --show``."""

from __future__ import annotations

import io
import json
import os
import random
import re
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pexpect
import pytest
from rich.console import Console

import cardhall
from cardhall.cards import format_card
from cardhall.cli import main
from cardhall.records import replay
from cardhall.table import Occupant, Table
from cardhall.terminal.rulebook_text import options_line
from cardhall.terminal.session import Session
from cardhall.terminal.style import Style

SRC = Path(cardhall.__file__).resolve().parent.parent
PROMPT = r"Your move \(1-(\d+), an action, help, rules, quit\): "
ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")
ASCII_CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([CDHS])(?![0-9A-Za-z])")
PRETTY_CARD = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])")
PRETTY_SUITS = dict(zip("♣♦♥♠", "CDHS", strict=True))
MENU_LINE = re.compile(r"\s*1\. ")
NEW_DEAL = ("--- Deal", "--- Svara deal")


def spawn(args: list[str], colour: bool = False, tmpdir: Path | None = None) -> pexpect.spawn:
    # This tree's code first; what else PYTHONPATH names stays importable.
    path = os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "PYTHONPATH": path, "COLUMNS": "80", "LINES": "24"}
    env.pop("NO_COLOR", None)
    env["TERM"] = "xterm-256color" if colour else "dumb"
    if colour:
        env["FORCE_COLOR"] = "1"
    if tmpdir is not None:  # the temporary folder of the child (where a finished match is kept)
        env["TMPDIR"] = str(tmpdir)
    return pexpect.spawn(
        sys.executable, ["-m", "cardhall", *args], env=env, encoding="utf-8", dimensions=(24, 80), timeout=30
    )


def cards_named(text: str) -> set[str]:
    found = {r + s for r, s in ASCII_CARD.findall(text)}
    return found | {r + PRETTY_SUITS[s] for r, s in PRETTY_CARD.findall(text)}


def secret_faces(save: Path, me: int) -> set[str]:
    """The faces the person cannot know now: every copy of them is hidden from him (the state is the
    saved record replayed)."""
    state = replay(_record(save))
    hidden = state.hidden_cards(me)
    everywhere = {c for cards in state.zones().values() for c in cards}
    seen = {c % 52 for c in everywhere - hidden}
    return {format_card(c) for c in hidden if c % 52 not in seen}


def _record(save: Path) -> dict[str, object]:
    data = json.loads(save.read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if k not in ("seat", "bots")}


def shown_hand(chunk: str) -> list[str]:
    """The cards of the last 'Your hand:' line on the screen, sorted."""
    line = ANSI.sub("", chunk).split("Your hand:")[-1].splitlines()[0].split("(")[0]
    if "face down" in line:
        return []
    return sorted(
        [r + s for r, s in ASCII_CARD.findall(line)]
        + [r + PRETTY_SUITS[s] for r, s in PRETTY_CARD.findall(line)]
    )


def real_hand(save: Path, me: int) -> list[str]:
    hand = replay(_record(save)).observation(me)["hand"]
    return sorted(format_card(cardhall.parse_card(c)) for c in hand)  # canonical: 'QS'


def visible_now(chunk: str) -> str:
    """The part of the output since the last prompt that shows the present deal: the screen, and the
    narration after the last new deal began (a finished deal's cards are public and may be dealt again)."""
    lines = []
    in_hint = False
    for line in ANSI.sub("", chunk).splitlines():
        # The phase's hint is the rules' prose ("avoid taking Q♠"), not a card on the table; the menu
        # follows it.
        in_hint = line.startswith("Hint:") or (in_hint and not MENU_LINE.match(line))
        if not in_hint:
            lines.append(line)
    start = max((k for k, line in enumerate(lines) if line.lstrip().startswith(NEW_DEAL)), default=0)
    return "\n".join(lines[start:])


def drive(child: pexpect.spawn, save: Path, me: int, rng: random.Random, max_prompts: int = 400) -> str:
    """Answer every prompt with a random menu number until the program ends; check each screen for
    hidden cards against the saved state. The whole output."""
    out = []
    for _ in range(max_prompts):
        k = child.expect([PROMPT, pexpect.EOF])
        out.append(child.before)
        if k == 1:
            child.close()
            assert child.exitstatus == 0, "".join(out)[-2000:]
            return ANSI.sub("", "".join(out))
        leaked = cards_named(visible_now(child.before)) & secret_faces(save, me)
        assert not leaked, f"cards hidden from seat {me} on screen: {leaked}\n{child.before}"
        assert shown_hand(child.before) == real_hand(save, me), child.before
        screen = ANSI.sub("", child.before).split("you are seat")[-1].splitlines()[1:]
        assert len(screen) + 2 <= 24 and all(len(line) <= 80 for line in screen), child.before  # 80x24
        child.sendline(str(rng.randint(1, int(child.match.group(1)))))
    raise AssertionError("the match did not end")


def answers_in_one_line(child: pexpect.spawn, text: str, expected: str) -> None:
    child.sendline(text)
    child.expect(PROMPT)
    shown = [line for line in ANSI.sub("", child.before).splitlines()[1:] if line.strip()]  # [0]: the echo
    assert len(shown) == 1 and expected in shown[0], shown


GAMES = {
    "hokm": ("hokm(max_hands=1)", ["Trick", "takes it", "Bidding over", "contract", "Deal 1 scored", "made"]),
    "kierki": ("kierki(last_deal=1)", ["Deal 1: no tricks", "Trick 13", "Deal 1 scored", "tricks x"]),
    "hearts": (
        "hearts(max_hands=1)",
        ["pass left", "You passed", "You received", "cancelled", "Deal 1 scored"],
    ),
    "gin": ("gin(max_hands=1)", ["Deal 1 scored", "captain", "advisor", "melds", "deadwood", "points"]),
    # The largest tables must fit 80x24 too.
    "hearts, 11 players": ("hearts(players=11,max_hands=1)", ["You passed", "Deal 1 scored"]),
    "svara, 8 players": ("svara(players=8,max_deals=1)", ["Deal 1 scored"]),
    "svara": ("svara(max_deals=2)", ["Deal 1 scored", "won you", "paid you", "Showdown:", "pot of"]),
}


@pytest.mark.process
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_deal_of_each_game_in_a_pseudo_terminal(name: str, tmp_path: Path) -> None:
    game, told = GAMES[name]
    save = tmp_path / "match.json"
    child = spawn(
        ["play", game, "--seed", "4", "--delay", "0", "--bots", "rules", "--ascii", "--save", str(save)]
    )
    child.expect(PROMPT)
    assert "you are seat 1" in child.before and "Your hand:" in child.before
    answers_in_one_line(child, "99", "99 is not in the list")
    answers_in_one_line(child, "fly away", "cannot read action 'fly away'")
    answers_in_one_line(child, "", "type a number")
    child.sendline("1")
    out = drive(child, save, 0, random.Random(name))
    for fragment in told:
        assert fragment in out, fragment
    assert "Match over" in out
    state = replay(_record(save))
    assert state.is_over and str(state.game) == str(cardhall.load_game(game))


@pytest.mark.process
def test_unicode_cards_in_colour(tmp_path: Path) -> None:
    save = tmp_path / "match.json"
    child = spawn(
        ["play", "hokm(max_hands=1)", "--seed", "5", "--delay", "0", "--save", str(save)], colour=True
    )
    child.expect(PROMPT)
    first = child.before
    assert "\x1b[" in first  # colour
    assert "♠" in first or "♥" in first
    assert not ASCII_CARD.search(ANSI.sub("", first).split("Your hand:")[1])  # no plain QS in the hand
    child.sendline("1")
    out = drive(child, save, 0, random.Random(5))
    assert "Match over" in out


@pytest.mark.process
def test_the_hand_and_the_menu_share_one_order(tmp_path: Path) -> None:
    child = spawn(["play", "kierki", "--seed", "2", "--delay", "0", "--ascii"])
    child.expect(PROMPT)
    screen = ANSI.sub("", child.before)
    hand = screen.split("Your hand:")[1].splitlines()[0].split()
    menu = re.findall(r"\d+\. play (\S+)", screen)
    assert menu and [c for c in hand if c in menu] == menu
    child.sendline("quit")
    child.expect(pexpect.EOF)


@pytest.mark.process
def test_hearts_never_shows_another_seats_pass(tmp_path: Path) -> None:
    save = tmp_path / "match.json"
    child = spawn(
        [
            "play",
            "hearts(decks=1,players=4,max_hands=1)",
            "--seed",
            "3",
            "--delay",
            "0",
            "--bots",
            "rules",
            "--ascii",
            "--save",
            str(save),
            "--seat",
            "3",  # engine seat 2: seats are typed counted from 1
        ]
    )
    out = drive(child, save, 2, random.Random(3))
    record = _record(save)
    game = cardhall.load_game(str(record["game"]))
    others_passes = [
        game.action_label(a)
        for s, a in record["actions"]
        if s != 2 and game.action_label(a).startswith("pass ")
    ]
    assert len(others_passes) == 9
    passes = [line for line in out.splitlines() if "(rules): pass" in line]
    assert len(passes) == 9 and all(line.rstrip().endswith(": pass") for line in passes)
    assert "You passed" in out and "You received" in out


# --- in-process: the play loop with scripted answers ------------------------------------------------


def session_output(
    table: Table, me: int, answers: list[str], save: Path | None = None
) -> tuple[str, Session]:
    lines = iter(answers)
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None, highlight=False)
    session = Session(
        table, me, console, Style(pretty=False, colour=False), save=save, read=lambda: next(lines, None)
    )
    session.run()
    return out.getvalue(), session


def gin_table(role: str) -> tuple[Table, int]:
    """A gin table (seed 1) with the person in the seat that holds ``role`` in the first hand."""
    roles = Table("gin", ["random"] * 3, seed=1).observation(0)["roles"]
    me = roles[role]
    seats = [Occupant.person() if s == me else Occupant.for_bot("rules") for s in range(3)]
    return Table("gin", seats, seed=1), me


def test_gin_a_person_as_advisor_is_asked_before_his_captain_moves() -> None:
    table, me = gin_table("advisor")
    out, _ = session_output(table, me, ["quit"])
    first_screen = out.split("Your move")[0]
    assert "suggest" in first_screen
    captain = table.observation(me)["roles"]["captain"]
    assert f"seat {captain} (rules):" not in first_screen  # the captain waits for his advisor
    assert [s for s, _ in table.record()["actions"]] == []


def test_gin_a_bot_advisor_advises_before_the_person_as_captain_is_asked() -> None:
    table, me = gin_table("captain")
    out, _ = session_output(table, me, ["1", "1", "1", "quit"])
    advisor = table.observation(me)["roles"]["advisor"]
    actions = table.record()["actions"]
    mine = [k for k, (s, _) in enumerate(actions) if s == me]
    assert mine
    for k in mine:  # every decision of the person as captain came after his advisor's word
        assert actions[k - 1][0] == advisor, actions
    assert "Your advisor suggests" in out


def test_save_then_resume_continues_the_same_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "hokm.json"
    code = main_with(
        ["play", "hokm(max_hands=1)", "--seed", "9", "--delay", "0", "--bots", "rules", "--save", str(save)],
        "1\n1\n1\nquit\n",
    )
    assert code == 0
    first = json.loads(save.read_text(encoding="utf-8"))
    assert first["seat"] == 0 and first["bots"] == [None, "rules", "rules"]
    out = capsys.readouterr().out
    assert f"cardhall play --resume {save}" in out
    code = main_with(["play", "--resume", str(save), "--delay", "0"], "1\n" * 40)
    out = capsys.readouterr().out
    assert code == 0 and f"after {len(first['actions'])} actions" in out and "Match over" in out
    final = json.loads(save.read_text(encoding="utf-8"))
    assert final["actions"][: len(first["actions"])] == first["actions"]
    assert replay(_record(save)).is_over
    assert main_with(["play", "--resume", str(save)], "") == 2
    assert "that match is over" in " ".join(capsys.readouterr().err.split())  # however it wraps


def main_with(argv: list[str], stdin: str) -> int:
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        return main(argv)
    finally:
        sys.stdin = old


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["play", "--resume", "nowhere.json"], "no such file"),
        (["play", "hokm", "--delay", "-1"], "--delay must be 0 or more"),
        (["play", "hokm", "--save", "nodir/x.json"], "does not exist"),
        (["replay", "nowhere.json", "--show"], "no such file"),
        (["replay", ".", "--show"], "is a folder"),
    ],
)
def test_bad_files_and_options_get_one_line(
    argv: list[str],
    fragment: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main_with(argv, "") == 2
    err = capsys.readouterr().err
    assert fragment in err and len(err.strip().splitlines()) == 1, err


def test_replay_show_steps_with_every_hand_open(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = Table("hokm(max_hands=1)", ["rules"] * 3, seed=4)
    table.play()
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(table.record()) + "\n", encoding="utf-8")
    assert main_with(["replay", str(path), "--show", "--ascii"], "\n\nq\n") == 0
    out = capsys.readouterr().out
    steps = re.findall(r"\[(\d+)/(\d+)\]", out)
    assert [s for s, _ in steps] == ["1", "2", "3"]  # two steps shown, stopped at the third
    state = cardhall.load_game("hokm(max_hands=1)").new_game(seed=4)
    for seat, action in table.record()["actions"][:2]:
        state.apply(seat, action)
    last = out.split("[3/")[0]
    for seat in range(3):
        hand = sorted(format_card(c) for c in state.zones()[f"hand {seat}"])
        shown = re.findall(rf"seat {seat + 1}: (.*)", last)[-1].split()  # seats counted from 1
        assert sorted(shown) == hand
    assert main_with(["replay", str(path), "--show", "--ascii"], "\n" * 200) == 0
    assert "End of the record (over)" in capsys.readouterr().out


def test_help_and_rules_at_a_prompt_then_the_same_choice() -> None:
    table = Table("hokm", [Occupant.person(), "rules", "rules"], seed=3)
    out, _ = session_output(table, 0, ["help", "rules", "quit"])
    assert "Answer with the number of a choice" in out
    assert "Options in force: target=500" in out
    assert out.count("Your move") == 3


@pytest.mark.parametrize("lang", ["en", "bn"])
def test_rules_of_hokm_with_the_options_in_force(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main_with(["rules", "hokm(target=300)", "--lang", lang], "") == 0
    out = capsys.readouterr().out
    assert "Options in force: target=300" in out
    if lang == "bn":
        assert re.search("[\u0980-\u09ff]{3}", out)  # Bengali script
    else:
        assert "Hokm" in out and "Kaboot" in out


def test_rules_in_an_unknown_language_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main_with(["rules", "hokm", "--lang", "xx"], "") == 2
    assert "unknown language 'xx'" in capsys.readouterr().err


# --- replay: files, the summary line, --quiet ---------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda: Path("absent.jsonl"), "no such file"),
        (lambda: Path("."), "is a folder"),
        (lambda: _write(Path("empty.jsonl"), "\n\n"), "holds no record"),
    ],
)
def test_replay_of_no_records_is_one_line_of_error(
    make: Callable[[], Path],
    fragment: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main_with(["replay", str(make())], "") == 2
    out, err = capsys.readouterr()
    assert not out and fragment in err and err.count("\n") == 1, err


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_replay_ends_with_a_summary_and_quiet_prints_only_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)  # (piped and no width asked: one record a line)
    done = Table("hokm(max_hands=1)", ["random"] * 3, seed=1)
    done.play()
    started = Table("hokm", ["random"] * 3, seed=2)
    started.play_bot(started.to_act[0])
    lines = [json.dumps(done.record()), json.dumps(started.record()), "[1, 2]"]
    path = _write(tmp_path / "r.jsonl", "\n".join(lines) + "\n")
    assert main_with(["replay", str(path)], "") == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "3 records: 1 finished, 1 unfinished, 1 bad"
    assert len(out) == 4 and out[2].startswith("line 3: cannot replay")
    assert main_with(["replay", str(path), "--quiet"], "") == 1
    quiet = capsys.readouterr().out.splitlines()
    assert quiet == [out[2], out[-1]]


def test_svara_amounts_are_typed_with_a_short_menu() -> None:
    table = Table("svara", [Occupant.person(), "rules", "rules", "rules"], seed=7)
    out, _ = session_output(table, 0, ["raise 255", "raise 250", "quit"])
    first = out.split("Your move")[0]
    menu = re.findall(r"(\d+)\. (raise \d+)", first)
    assert 2 <= len(menu) <= 5  # the minimum, double, about the pot, the maximum: not a hundred lines
    assert "or type 'raise N' with N from 20 to" in first
    answer = out.split("Your move")[1].splitlines()
    assert "'raise 255' is not an amount you may use now: type 'raise N' with N from 20 to" in answer[0]
    mine = [table.game.action_label(a) for s, a in table.record()["actions"] if s == 0]
    assert mine == ["raise 250"]


@pytest.mark.parametrize(
    "game",
    ["hokm(max_hands=3)", "kierki", "hearts(decks=1,players=4)", "gin(max_hands=3)", "svara(max_deals=8)"],
)
def test_every_event_of_a_match_is_told_in_its_own_words(game: str) -> None:
    from cardhall.terminal.narrate import Narrator, handler_of

    table = Table(game, ["rules"] * cardhall.load_game(game).num_players, seed=11)
    table.play()
    assert {"deal", "deal_scored", "match_over"} <= {e["type"] for e in table.events(0)}
    for seat in (0, None):
        narrator = Narrator(table.game.name, ["rules"] * table.game.num_players, seat, Style(False, False))
        for event in table.events(seat):
            assert handler_of(table.game.name, event["type"]) is not None, event
            lines = narrator.lines(event)
            assert all(isinstance(line, str) and "\n" not in line for line in lines)
            if event["type"] not in ("seat", "action"):
                assert lines, event


def test_the_delay_follows_each_bot_move_the_person_sees() -> None:
    table = Table("hearts(decks=1,players=4)", [Occupant.person(), "rules", "rules", "rules"], seed=3)
    pauses: list[float] = []
    lines = iter(["1", "1", "1", "quit"])
    out = io.StringIO()
    session = Session(
        table,
        0,
        Console(file=out, width=80, color_system=None),
        Style(pretty=False, colour=False),
        delay=0.25,
        read=lambda: next(lines, None),
        sleep=pauses.append,
    )
    session.run()
    seen = [e for e in table.events(0) if e["type"] == "action" and e["seat"] != 0 and not e["hidden"]]
    # Another seat's pass is told ("pass") but not waited for; every card a bot plays is.
    assert seen and pauses == [0.25] * len(seen)


def test_hints_and_rules_in_bengali_at_the_prompt() -> None:
    table = Table("hokm", [Occupant.person(), "rules", "rules"], seed=3)
    out = io.StringIO()
    lines = iter(["rules", "quit"])
    console = Console(file=out, width=80, color_system=None)
    Session(table, 0, console, Style(False, False), lang="bn", read=lambda: next(lines, None)).run()
    hint = next(line for line in out.getvalue().splitlines() if line.startswith("Hint:"))
    assert re.search("[\u0980-\u09ff]{3}", hint)
    assert out.getvalue().count("Your move") == 2 and "Options in force" in out.getvalue()


# --- 80 columns, the end of a match, replay --show --move ---------------------------------------------


def columns(line: str) -> int:
    """The columns xterm, tmux and VTE give a line (Bengali vowel signs take one, virama none)."""
    return sum(
        0
        if unicodedata.category(ch) in ("Mn", "Me", "Cf")
        else 2
        if unicodedata.east_asian_width(ch) in "WF"
        else 1
        for ch in line
    )


def source_words(game: str, lang: str) -> set[str]:
    from cardhall import rulebook

    text = rulebook.rules_text(game, lang=lang).replace("**", "")
    return {w for w in text.split() if w not in ("#", "##", "###", "-")}


@pytest.mark.process
@pytest.mark.parametrize(("game", "lang"), [("hokm", "bn"), ("kierki", "bn"), ("hokm", "en")])
def test_the_rules_fit_80_columns_broken_only_between_words(game: str, lang: str) -> None:
    """Bengali rules at 80 columns broke mid-word with doubled blank lines (issue 51): rich measured
    the vowel signs as 0 columns, its lines ran past the edge. Each line now fits, no word is cut, and
    blocks are one blank line apart."""
    child = spawn(["rules", game, "--lang", lang], colour=True)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    lines = ANSI.sub("", child.before).replace("\r\n", "\n").split("\n")
    wide = [(columns(line), line) for line in lines if columns(line) > 80]
    assert not wide, wide
    assert "\n\n\n" not in "\n".join(line.rstrip() for line in lines)
    words = {w for line in lines for w in line.split() if w not in ("•", "-")}
    known = source_words(game, lang) | set(options_line(cardhall.load_game(game)).split())
    assert words - known == set()  # every word shown whole, as the rules text has it
    assert len(words) > 100


@pytest.mark.process
def test_a_bengali_hint_at_the_prompt_fits_80_columns() -> None:
    child = spawn(["play", "hokm", "--seed", "3", "--delay", "0", "--lang", "bn"], colour=True)
    child.expect(PROMPT)
    screen = ANSI.sub("", child.before).replace("\r\n", "\n").split("\n")
    assert any(line.startswith("Hint:") and re.search("[\u0980-\u09ff]{3}", line) for line in screen)
    assert all(columns(line) <= 80 for line in screen), [line for line in screen if columns(line) > 80]
    child.sendline("quit")
    child.expect(pexpect.EOF)


@pytest.mark.process
def test_the_end_of_a_match_names_the_command_that_reviews_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No --save: the finished match is kept in a new file of the temporary folder, and the last lines
    name the exact commands that review the person's play and step through the match."""
    child = spawn(["play", "hokm(max_hands=1)", "--seed", "4", "--delay", "0", "--ascii"], tmpdir=tmp_path)
    for _ in range(100):
        if child.expect([PROMPT, pexpect.EOF]) == 1:
            break
        child.sendline("1")
    child.close()
    assert child.exitstatus == 0
    end = ANSI.sub("", child.before).replace("\r\n", "\n")
    assert "Match over." in end
    saved_in = re.search(r"^The match is saved in (.+)\.$", end, flags=re.M)
    assert saved_in is not None, end
    path = Path(saved_in.group(1))
    assert path.parent == tmp_path and path.name.startswith("cardhall-hokm-")
    assert f"\n  cardhall review {path}\n" in end
    assert f"\n  cardhall replay {path} --show\n" in end
    assert main_with(["review", str(path), "--budget", "2", "--quiet"], "") == 0
    assert capsys.readouterr().out.startswith("Reviewing your play (seat 1): hokm(max_hands=1), seed 4, ")


def test_replay_show_opens_at_a_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = Table("hokm(max_hands=1)", ["rules"] * 3, seed=4)
    table.play()
    record = table.record()
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert main_with(["replay", str(path), "--show", "--ascii", "--move", "20"], "\nq\n") == 0
    out = capsys.readouterr().out
    assert "opened at move 20" in out
    assert [s for s, _ in re.findall(r"\[(\d+)/(\d+)\]", out)] == ["20", "21"]
    state = cardhall.load_game("hokm(max_hands=1)").new_game(seed=4)
    for seat, action in record["actions"][:19]:
        state.apply(seat, action)
    opening = out.split("[20/")[0]
    for seat in range(3):  # every hand as it was before move 20
        hand = sorted(format_card(c) for c in state.zones()[f"hand {seat}"])
        assert sorted(re.findall(rf"seat {seat + 1}: (.*)", opening)[-1].split()) == hand
    seat, action = record["actions"][19]
    assert f"seat {seat + 1}: {state.game.action_label(action)}" in out.split("[20/")[1]
    steps = len(record["actions"])
    assert main_with(["replay", str(path), "--show", "--move", str(steps + 1)], "") == 2
    assert f"--move {steps + 1}: this match has moves 1 to {steps}" in capsys.readouterr().err
    assert main_with(["replay", str(path), "--move", "3"], "") == 2
    assert "give --show too" in capsys.readouterr().err
