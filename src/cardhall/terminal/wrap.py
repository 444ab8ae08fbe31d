"""Prose for a terminal: wrapped at words, never inside a grapheme cluster, measured as the terminal will.

Why not rich's wrapping: rich counts a Bengali vowel sign such as ো (a spacing mark, Unicode category Mc)
as 0 columns, where xterm, tmux and VTE draw it in a column of its own, so a line of Bengali that rich
fills to 80 columns runs past the edge, the terminal breaks it inside a word, and rich's padding to the
width then spills a blank line after it. Python's ``textwrap`` counts code points and may split a
cluster (ক + ্ + ষ) in two.

Decisions:

- Widths are counted code point by code point, as xterm, tmux and VTE draw them (glibc's ``wcwidth``):
  0 for a combining mark (Mn, Me) or a format character (Cf), 2 for an East Asian wide or full-width
  one, 1 for everything else, a spacing vowel sign (Mc) too. Measured in tmux, every word of the Bengali
  rules takes exactly that. The ``wcwidth`` library's own ``width`` joins a conjunct (ক্ত) into fewer
  columns, as grapheme-aware terminals (kitty, foot, WezTerm) draw it: 3 for চুক্তি where tmux takes
  4, and lines measured so still ran over. A terminal that draws a cluster narrower only gets a line a
  little shorter than the width, never longer.
- Lines break at spaces; a word wider than the whole line (a long game string) is broken between two
  grapheme clusters (the ``wcwidth`` library's ``iter_graphemes``, Unicode's segmentation), never
  inside one.
- A wrapped line is printed as it is (``soft_wrap``): rich neither wraps it again nor pads it. A text's
  own leading spaces stay on its first line (the seats of a table laid out in columns).
- The text is rich markup or a :class:`rich.text.Text`, so a styled word (bold, a red card) keeps its style
  across the breaks.
"""

from __future__ import annotations

import unicodedata
from functools import cache

import wcwidth
from rich.console import Console
from rich.text import Text

WIDTH = 80


@cache
def _cell(ch: str) -> int:
    if unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def cells(text: str) -> int:
    """The columns a terminal gives ``text`` (one line, no control codes)."""
    return sum(_cell(ch) for ch in text)


def _pieces(word: str, room: int, width: int) -> list[str]:
    """A word too wide for a line, cut between grapheme clusters: the first piece fits ``room``, the
    others ``width`` each."""
    out, piece, used = [], "", 0
    for cluster in wcwidth.iter_graphemes(word):
        size = cells(cluster)
        if piece and used + size > room:
            out.append(piece)
            piece, used, room = "", 0, width
        piece += cluster
        used += size
    out.append(piece)
    return out


def line_spans(plain: str, width: int, first: int = 0, rest: int = 0) -> list[tuple[int, int]]:
    """(start, end) of each line of ``plain`` wrapped to ``width`` columns, the first line after an indent
    of ``first`` columns, the others after ``rest``; spaces at a break are dropped."""
    spans: list[tuple[int, int]] = []
    start = end = 0  # the line being filled: plain[start:end]
    used, limit = 0, width - first
    k, n = 0, len(plain)
    while k < n:
        if plain[k] == " ":
            k += 1
            continue
        stop = plain.find(" ", k)
        stop = n if stop < 0 else stop
        word = plain[k:stop]
        gap = k - end if end > start else 0  # the spaces before the word, inside a line
        size = cells(word)
        if end > start and used + gap + size <= limit:
            end, used = stop, used + gap + size
        elif end > start and size <= width - rest:
            spans.append((start, end))
            start, end, used, limit = k, stop, size, width - rest
        else:  # the line is empty, or the word is wider than any line: cut it between clusters
            if end > start:
                spans.append((start, end))
                start, used, limit = k, 0, width - rest
            offset = k
            pieces = _pieces(word, max(1, limit - used), max(1, width - rest))
            for piece in pieces[:-1]:
                spans.append((offset, offset + len(piece)))
                offset += len(piece)
                limit = width - rest
            start, end, used = offset, stop, cells(pieces[-1])
        k = stop
    if end > start or not spans:
        spans.append((start, end))
    return spans


def wrap(text: str | Text, width: int = WIDTH, indent: str = "", hanging: str = "") -> list[Text]:
    """``text`` (markup, or a Text) as lines of at most ``width`` columns: the first line starts with
    ``indent`` and the text's own leading spaces (a line laid out in columns keeps them), the others
    with ``hanging``."""
    body = Text.from_markup(text) if isinstance(text, str) else text
    leading = len(body.plain) - len(body.plain.lstrip(" "))
    if leading:
        indent, body = indent + " " * leading, body[leading:]
    lines = []
    for k, (start, end) in enumerate(line_spans(body.plain, width, cells(indent), cells(hanging))):
        line = Text(indent if k == 0 else hanging)
        line.append_text(body[start:end])
        lines.append(line)
    return lines


def print_wrapped(
    console: Console, text: str | Text, width: int = WIDTH, indent: str = "", hanging: str = ""
) -> None:
    """Print ``text`` wrapped to ``width`` columns (at most the console's)."""
    for line in wrap(text, min(width, console.width), indent, hanging):
        console.print(line, soft_wrap=True, highlight=False)
