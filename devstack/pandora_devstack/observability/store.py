"""Every datapoint the local stack saw, kept in memory per metric and dimension set.

A bounded number of samples per series keeps a long `make dev` session from growing without end;
the oldest samples go first, as CloudWatch forgets old data.
"""

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pandora_devstack.observability.emf import Datapoint, Dimensions

MAX_SAMPLES_PER_SERIES = 20_000


@dataclass(frozen=True)
class SeriesKey:
    namespace: str
    metric: str
    dimensions: Dimensions

    def dimension(self, name: str) -> str | None:
        return dict(self.dimensions).get(name)


@dataclass(frozen=True)
class Sample:
    timestamp: float
    value: float


@dataclass(frozen=True)
class Series:
    key: SeriesKey
    samples: tuple[Sample, ...]


class MetricStore:
    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._series: dict[SeriesKey, deque[Sample]] = {}
        self.started_at = clock()

    def now(self) -> float:
        return self._clock()

    def add(self, points: Iterable[Datapoint]) -> None:
        with self._lock:
            for point in points:
                key = SeriesKey(point.namespace, point.metric, point.dimensions)
                samples = self._series.setdefault(key, deque(maxlen=MAX_SAMPLES_PER_SERIES))
                samples.append(Sample(point.timestamp, point.value))

    def snapshot(self) -> list[Series]:
        with self._lock:
            return [Series(key, tuple(samples)) for key, samples in self._series.items()]
