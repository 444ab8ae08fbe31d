"""What the sub-commands share: reading a list of bot specs from the command line."""

from __future__ import annotations


def bot_list(text: str | None) -> list[str] | None:
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
    return [b for b in out if b]
