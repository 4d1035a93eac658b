"""Kubernetes Secrets: every value a Secret holds is a credential, whatever its key is called.

A manifest's `data:` values are base64, which hides what they hold ("DATABASE_URL", ".dockerconfigjson"),
so the key name cannot be the test. Three shapes: the YAML manifest, the JSON one `kubectl get secret
-o json` prints, and `kubectl create secret ... --from-literal=KEY=VALUE`. Only the blocks of a document
whose `kind` is Secret count: a ConfigMap beside it holds settings.
"""

import re
from collections.abc import Iterator

from pandora_memory.secrets.findings import Candidate
from pandora_memory.secrets.values import is_dismissed, strip_value

PRIORITY = 1
MIN_VALUE_CHARS = 4
# "kind:Secret" and "kind:  Secret" are as valid YAML as "kind: Secret"; '"kind": "Secret"' is JSON.
KUBERNETES_NEEDLES = ("kind:", '"kind"', "--from-literal")

_KIND_LINE = re.compile(r"(?m)^[ \t]*kind:[ \t]*[\"']?(?P<kind>\w+)[\"']?[ \t]*$")
_DATA_BLOCK = re.compile(
    r"(?m)^(?P<indent>[ \t]*)(?:data|stringData):[ \t]*\r?\n(?P<body>(?:(?P=indent)[ \t]+[^\n]*(?:\n|$))+)"
)
_DATA_ENTRY = re.compile(r"(?m)^[ \t]+[^\s:#][^:\n]*:[ \t]*(?P<secret>[^\s#|>][^\n]*?)[ \t]*$")
_JSON_KIND = re.compile(r'"kind"\s*:\s*"Secret"')
_JSON_DATA_OBJECT = re.compile(r'"(?:data|stringData)"\s*:\s*\{(?P<body>[^{}]*)\}')
_JSON_ENTRY = re.compile(r'"[^"\n]+"\s*:\s*"(?P<secret>(?:[^"\\\n]|\\.)*)"')
_FROM_LITERAL = re.compile(r"--from-literal[= ][\"']?[^=\s\"']+=(?P<secret>\"[^\"\n]*\"|'[^'\n]*'|[^\s\"']+)")


def _in_secret_document(text: str, position: int) -> bool:
    document_start = max(text.rfind("\n---", 0, position), 0)
    kinds = list(_KIND_LINE.finditer(text, document_start, position))
    return bool(kinds) and kinds[-1].group("kind") == "Secret"


def _value(match: re.Match[str], offset: int, rule: str) -> Candidate | None:
    start, end = strip_value(match.group("secret"))
    value = match.group("secret")[start:end]
    if len(value) < MIN_VALUE_CHARS or is_dismissed(value):
        return None
    begin = offset + match.start("secret") + start
    return Candidate("kubernetes_secret", begin, begin + len(value), rule, PRIORITY)


def _yaml_values(text: str) -> Iterator[Candidate | None]:
    for block in _DATA_BLOCK.finditer(text):
        if _in_secret_document(text, block.start()):
            for entry in _DATA_ENTRY.finditer(block.group("body")):
                yield _value(entry, block.start("body"), "kubernetes-secret-data")


def _json_values(text: str) -> Iterator[Candidate | None]:
    if _JSON_KIND.search(text) is None:
        return
    for block in _JSON_DATA_OBJECT.finditer(text):
        for entry in _JSON_ENTRY.finditer(block.group("body")):
            yield _value(entry, block.start("body"), "kubernetes-secret-json")


def _literal_values(text: str) -> Iterator[Candidate | None]:
    for literal in _FROM_LITERAL.finditer(text):
        yield _value(literal, 0, "kubectl-from-literal")


def kubernetes_secrets(text: str) -> Iterator[Candidate]:
    for found in (*_yaml_values(text), *_json_values(text), *_literal_values(text)):
        if found is not None:
            yield found
