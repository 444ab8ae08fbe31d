"""MkDocs hooks (``hooks:`` in mkdocs.yml): the site's anchors as GitHub makes them.

A heading that repeats an earlier one's anchor gets ``-1``, ``-2`` ... on GitHub and ``_1``, ``_2`` from
Python-Markdown's ``toc``; the documents link to the GitHub form (``docs/protocol.md``'s ``#rematch-1``,
which ``tests/server/test_protocol_doc.py`` checks), so they read the same on GitHub and on the site. The
slugs themselves are GitHub's already (``pymdownx.slugs.slugify``, set in mkdocs.yml); this extension
only renames the duplicates' suffix, in the headings, their permalinks and the page's table of contents,
before MkDocs collects the page's anchors (its collector runs after ``toc``, at the same priority).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from markdown import Extension, Markdown
from markdown.treeprocessors import Treeprocessor

DUPLICATE = re.compile(r"^(.+)_(\d+)$")


def _github(anchor: str, ids: set[str]) -> str:
    """``rematch_1`` -> ``rematch-1`` when ``rematch`` is an anchor of the page too (a duplicate)."""
    m = DUPLICATE.match(anchor)
    return f"{m.group(1)}-{m.group(2)}" if m and m.group(1) in ids else anchor


class _GithubDuplicates(Treeprocessor):
    def run(self, root: ET.Element) -> None:
        ids = {e.get("id", "") for e in root.iter()} - {""}
        for element in root.iter():
            if element.get("id"):
                element.set("id", _github(element.get("id", ""), ids))
            href = element.get("href", "")
            if href.startswith("#"):
                element.set("href", "#" + _github(href[1:], ids))
        self._tokens(getattr(self.md, "toc_tokens", []), ids)

    def _tokens(self, tokens: list[dict[str, Any]], ids: set[str]) -> None:
        for token in tokens:
            token["id"] = _github(token["id"], ids)
            self._tokens(token.get("children", []), ids)


class GithubAnchors(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        # priority 5, registered after toc's: runs after toc and before MkDocs' anchor collector
        md.treeprocessors.register(_GithubDuplicates(md), "github_anchors", 5)


def on_config(config: Any) -> Any:
    config.markdown_extensions.append(GithubAnchors())
    return config
