"""Process environment changes that are undone on stop, so an in-process stack leaves no trace."""

import os
from collections.abc import Iterable, Mapping


class EnvironmentPatch:
    def __init__(self) -> None:
        self._saved: dict[str, str | None] = {}

    def _remember(self, name: str) -> None:
        if name not in self._saved:
            self._saved[name] = os.environ.get(name)

    def set(self, values: Mapping[str, str]) -> None:
        for name, value in values.items():
            self._remember(name)
            os.environ[name] = value

    def unset(self, names: Iterable[str]) -> None:
        for name in names:
            self._remember(name)
            os.environ.pop(name, None)

    def restore(self) -> None:
        for name, value in self._saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        self._saved.clear()
