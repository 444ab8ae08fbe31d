"""What the sub-commands share: reading a list of bot specs from the command line."""

from __future__ import annotations

from cardhall.errors import InvalidOptionError


def bot_list(text: str | None) -> list[str] | None:
    """``"search(ms=500,k=2),random"`` -> ``["search(ms=500,k=2)", "random"]`` (None when not given); an
    empty name between commas is refused, not skipped, so the bots stay on the seats meant."""
    if not text:
        return None
    # Commas inside parentheses belong to a bot's options: "search(ms=500,k=2),random".
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    out.append(cur.strip())
    if not all(out):
        raise InvalidOptionError(f"--bots {text!r}: a bot name is missing between commas")
    return out
