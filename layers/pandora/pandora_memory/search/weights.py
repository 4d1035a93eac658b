"""BM25F arithmetic, in one place because rankings must not move by a bit between code paths.

A term's weight in a passage is BM25F: the field term frequencies, each length-normalised and weighted,
are summed (body, then heading, then path) before BM25's saturation, then multiplied by the term's idf.
Every formula below keeps the exact operation order of the original single-pass build, so an index
rebuilt from a snapshot, or extended by another segment, scores identically to a fresh build.
"""

import math
from array import array
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class FieldWeights:
    """BM25F parameters: weight and length normalisation per field, and the shared saturation k1."""

    body: float = 1.0
    heading: float = 2.0
    path: float = 2.0
    body_b: float = 0.75
    heading_b: float = 0.4
    path_b: float = 0.4
    k1: float = 1.2

    def fields(self) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
        """(weight, b) of body, heading and path."""
        return ((self.body, self.body_b), (self.heading, self.heading_b), (self.path, self.path_b))


DEFAULT_WEIGHTS = FieldWeights()


def average_length(total: int, count: int) -> float:
    return (total / count) if count and total else 1.0


def length_factors(lengths: Iterable[int], weight: float, b: float, average: float) -> "array[float]":
    """Per passage: weight / length normalisation, the multiplier of that field's term counts."""
    base = 1.0 - b
    return array("d", [weight / (base + b * length / average) for length in lengths])


def idf(passages: int, frequency: int) -> float:
    return math.log(1.0 + (passages - frequency + 0.5) / (frequency + 0.5))


def saturated(term_idf: float, pseudo_frequencies: Iterable[float], k1: float) -> "array[float]":
    """idf * tf / (k1 + tf) per posting, stored as float32 (half the memory, same for every path)."""
    return array("f", [term_idf * tf / (k1 + tf) for tf in pseudo_frequencies])
