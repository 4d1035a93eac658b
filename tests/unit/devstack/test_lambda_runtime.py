"""A local function serves one event at a time, as a Lambda container does, whatever threads call it."""

import sys
import threading
from pathlib import Path

from pandora_devstack.lambda_runtime import FunctionSpec, LocalFunction

# The first event holds the function until the test releases it; every event records its arrival.
HANDLER = """
import threading
arrived = []
first_inside = threading.Event()
release_first = threading.Event()

def lambda_handler(event, context):
    arrived.append(event["n"])
    if event["n"] == 1:
        first_inside.set()
        release_first.wait(30)
    return {"n": event["n"], "seen_before_me": list(arrived)}
"""


def _function(tmp_path: Path, name: str) -> LocalFunction:
    (tmp_path / "app.py").write_text(HANDLER, encoding="utf-8")
    spec = FunctionSpec(
        logical_id=name,
        code_dir=tmp_path,
        handler="app.lambda_handler",
        memory_mb=128,
        timeout_s=60,
        function_name=f"local-{name}",
        arn=f"arn:aws:lambda:us-east-1:123456789012:function:local-{name}",
    )
    return LocalFunction(spec)


def test_a_second_event_waits_until_the_first_has_been_answered(tmp_path: Path) -> None:
    function = _function(tmp_path, "SerialFunction")
    assert function.init_error is None
    module = sys.modules[function.spec.module_name]
    results: dict[int, object] = {}

    def call(n: int) -> None:
        results[n] = function.invoke({"n": n})

    first = threading.Thread(target=call, args=(1,))
    first.start()
    assert module.first_inside.wait(30)
    second = threading.Thread(target=call, args=(2,))
    second.start()
    second.join(timeout=0.5)  # only bounds the wait: with the lock the second event cannot get in
    assert second.is_alive() and module.arrived == [1]
    module.release_first.set()
    first.join(30)
    second.join(30)
    assert results == {1: {"n": 1, "seen_before_me": [1]}, 2: {"n": 2, "seen_before_me": [1, 2]}}
    function.unload()


def test_two_functions_do_not_wait_for_each_other(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    held, free = _function(tmp_path / "a", "HeldFunction"), _function(tmp_path / "b", "FreeFunction")
    held_module = sys.modules[held.spec.module_name]
    worker = threading.Thread(target=held.invoke, args=({"n": 1},))
    worker.start()
    assert held_module.first_inside.wait(30)
    assert free.invoke({"n": 2}) == {"n": 2, "seen_before_me": [2]}  # answered while the other is busy
    held_module.release_first.set()
    worker.join(30)
    held.unload()
    free.unload()
