"""``mypyc_attr`` for the engine's compiled build, or a no-op when mypy is not installed.

The decorator only carries instructions to the mypyc compiler (see :mod:`cardhall.engine_build`); plain
Python needs none of it, so the engine keeps to the standard library.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

T = TypeVar("T")

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:
    try:
        from mypy_extensions import mypyc_attr
    except ImportError:  # only without the dev tools, when nothing is compiled either

        def mypyc_attr(*attrs: str, **kwattrs: Any) -> Callable[[T], T]:
            def keep(cls: T) -> T:
                return cls

            return keep


__all__ = ["mypyc_attr"]
