"""Means, win rates and their 95% confidence intervals (normal approximation; Wilson for rates)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def as_dict(self) -> dict[str, float]:
        return {"value": self.value, "low": self.low, "high": self.high}


def mean_interval(values: Sequence[float]) -> Interval:
    n = len(values)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return Interval(mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return Interval(mean, mean - half, mean + half)


def rate_interval(successes: float, n: int) -> Interval:
    """Wilson score interval for a proportion (shared wins count as fractions)."""
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    p = successes / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))
