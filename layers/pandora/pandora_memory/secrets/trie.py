"""Compile a word list into one trie-shaped regex: one pass over the text, few branch tests per char."""

import re
from collections.abc import Iterable

Trie = dict[str, "Trie"]
_END = ""


def trie_pattern(words: Iterable[str]) -> str:
    """A regex alternation equivalent to ``word1|word2|...`` with shared prefixes factored out.

    Longer words win over their prefixes (``passwords`` before ``password`` before ``pass``)."""
    trie: Trie = {}
    for word in sorted(set(words)):
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[_END] = {}
    return _render(trie)


def _render(node: Trie) -> str:
    branches = [re.escape(char) + _render(child) for char, child in sorted(node.items()) if char != _END]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    if _END not in node:
        return body
    return ("(?:" + body + ")" if len(branches) == 1 else body) + "?"
