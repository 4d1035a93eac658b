"""CloudWatch statistics over a set of samples: Sum, Average, Minimum, Maximum, SampleCount, pNN."""

import math
import re
from collections.abc import Sequence

_PERCENTILE = re.compile(r"p(\d{1,2}(?:\.\d+)?|100)")


class UnsupportedStatisticError(ValueError):
    pass


def _percentile(values: Sequence[float], percent: float) -> float:
    ordered = sorted(values)
    rank = max(1, math.ceil(percent / 100 * len(ordered)))  # nearest rank
    return ordered[rank - 1]


def statistic(values: Sequence[float], stat: str) -> float | None:
    """None when there is no sample, as CloudWatch draws no point for an empty period."""
    if not values:
        return None
    if stat == "Sum":
        return math.fsum(values)
    if stat == "Average":
        return math.fsum(values) / len(values)
    if stat == "Minimum":
        return min(values)
    if stat == "Maximum":
        return max(values)
    if stat == "SampleCount":
        return float(len(values))
    match = _PERCENTILE.fullmatch(stat)
    if match is not None:
        return _percentile(values, float(match.group(1)))
    raise UnsupportedStatisticError(f"statistic {stat!r} is not computed locally")


def combine(values: Sequence[float], function: str) -> float | None:
    """The metric-math functions a widget applies to several series (SUM, AVG, MIN, MAX)."""
    names = {"SUM": "Sum", "AVG": "Average", "MIN": "Minimum", "MAX": "Maximum"}
    if function not in names:
        raise UnsupportedStatisticError(f"metric math {function}() is not computed locally")
    return statistic(values, names[function])
