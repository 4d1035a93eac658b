"""The Lambda layer ships exactly the versions the tests ran with, and everything the functions import."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LAYER_REQUIREMENTS = REPO / "layers" / "pandora" / "requirements.txt"
CONSTRAINTS = REPO / "constraints.txt"
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==(\S+)$")
# Distributions the functions import at run time (the Tracer needs the X-Ray SDK in AWS).
RUNTIME_IMPORTS = {"aws-lambda-powertools", "aws-xray-sdk", "pydantic", "markdown-it-py", "boto3", "botocore"}


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins(path: Path) -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            match = PIN.match(line)
            assert match, f"{path.name}: {line!r} is not an exact pin"
            pins[_normalised(match[1])] = match[2]
    return pins


def test_every_layer_pin_matches_the_tested_version() -> None:
    tested = _pins(CONSTRAINTS)
    layer = _pins(LAYER_REQUIREMENTS)
    assert {name: version for name, version in layer.items() if tested.get(name) != version} == {}


def test_the_layer_ships_what_the_functions_import() -> None:
    assert {_normalised(name) for name in RUNTIME_IMPORTS} <= _pins(LAYER_REQUIREMENTS).keys()
