"""The scripts of ``benchmarks/`` loaded as modules, so tests can call their functions."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load_script(script: str) -> ModuleType:
    name = "cardhall_bench_" + script.removesuffix(".py")
    if str(BENCHMARKS) not in sys.path:  # (a script imports its siblings, as run from benchmarks/)
        sys.path.append(str(BENCHMARKS))
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look the module up while defining its classes
    spec.loader.exec_module(module)
    return module
