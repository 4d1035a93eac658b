"""Loads the single versioned rules file. Parsed once per process: policies stay pure and fast."""

import tomllib
from functools import cache
from importlib import resources
from typing import Any

RULES_FILE = "rules.toml"


@cache
def load_rules() -> dict[str, Any]:
    text = resources.files("pandora_memory.policy").joinpath(RULES_FILE).read_text(encoding="utf-8")
    return tomllib.loads(text)


def policy_version() -> str:
    return str(load_rules()["version"])


def section(name: str) -> dict[str, Any]:
    rules: dict[str, Any] = load_rules()[name]
    return rules
