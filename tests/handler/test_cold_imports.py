"""What a cold container loads: each handler imports only what its requests use (bench/cold_start.py
measures the cost). Each case runs in a fresh interpreter, since this one has long loaded everything."""

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LAYER = REPO / "layers" / "pandora"

# Loads the handler file by path as Lambda does, runs `then`, prints the loaded module names.
PROBE = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("app", sys.argv[1])
module = importlib.util.module_from_spec(spec)
sys.modules["app"] = module
spec.loader.exec_module(module)
{then}
print(json.dumps(sorted(sys.modules)))
"""


def loaded_modules(function: str, then: str = "") -> set[str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(LAYER),
        "AWS_DEFAULT_REGION": "us-east-1",
        "POWERTOOLS_TRACE_DISABLED": "true",
    }
    result = subprocess.run(
        [sys.executable, "-s", "-c", PROBE.format(then=then), str(REPO / "functions" / function / "app.py")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    names: list[str] = json.loads(result.stdout.strip().splitlines()[-1])
    return set(names)


def _packages(modules: set[str], *names: str) -> set[str]:
    return {module for module in modules if module.split(".")[0] in names}


def test_the_authorizer_loads_no_pydantic_and_no_markdown() -> None:
    loaded = loaded_modules("token_authorizer")

    assert "pandora_memory.tokens" in loaded and "pandora_memory.settings" in loaded
    assert _packages(loaded, "pydantic", "pydantic_core", "markdown_it") == set()


def test_the_ingest_loads_no_pydantic() -> None:
    loaded = loaded_modules("markdown_ingest")

    assert "pandora_memory.ingest.pipeline" in loaded and "pandora_memory.ingest.config" in loaded
    assert _packages(loaded, "pydantic", "pydantic_core") == set()


def test_the_turn_search_path_loads_no_markdown_parser() -> None:
    # What the first pre_answer that packs context or the first search imports on top of the handler.
    loaded = loaded_modules(
        "adaptive_turn",
        then="import pandora_memory.turn.search_context, pandora_memory.turn.search_endpoint",
    )

    assert "pandora_memory.search.passages" in loaded and "pandora_memory.search.tokenize" in loaded
    assert _packages(loaded, "markdown_it") == set()
    assert "pandora_memory.markdown.structure" not in loaded
    assert "pandora_memory.markdown.token_estimate" not in loaded


def test_redacting_plain_text_compiles_none_of_the_gated_secret_patterns() -> None:
    # The turn redacts every decision reason; context and provider patterns wait for a message that
    # names a credential or holds a provider prefix.
    check = (
        "from pandora_memory.secrets import redact\n"
        "from pandora_memory.secrets.lazy_pattern import compiled\n"
        "assert redact('what did we decide about the bathroom heating?').findings == ()\n"
        "assert compiled.cache_info().currsize == 0, compiled.cache_info()\n"
        "assert redact('the wifi password is Velvet88').findings\n"
        "assert redact('key ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8').findings\n"
        "assert compiled.cache_info().currsize > 1, compiled.cache_info()\n"
    )
    loaded = loaded_modules("adaptive_turn", then=check)

    assert "pandora_memory.secrets.context_rules" in loaded
