"""The interactive walk through pending candidates: one key per decision.

Field keys ([e] summary, [n]amespace, [s]ensitivity) only change the pending edit and show the
candidate again with its new values; nothing is stored until [a]pprove (or [r]eject).

On a terminal a key is read without Enter (termios cbreak mode, restored after every key); when
stdin is not a terminal (a pipe, a script) each answer is a line, of which the first letter counts.
"""

import os
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any, Protocol, TextIO

from pandora_memory.cli.review_api import ReviewApi, ReviewApiError
from pandora_memory.namespaces import Namespace

SENSITIVITY_KEYS = {"l": "low", "m": "medium", "h": "high", "p": "private"}
ACTIONS = "[a]pprove  [r]eject  edit: [e] summary [n]amespace [s]ensitivity [u]ndo edits  [k] skip  [q]uit"
ACTION_KEYS = "arensukq"
EDIT_KEYS = "ens"
END_OF_INPUT = "q"
# In line mode a whole word may be typed; only "skip" does not start with its key.
_WORDS = {"skip": "k"}
_CONTROL_D = "\x04"
_ESCAPE = "\x1b"
# Refusals after which the same candidate is offered again (the reviewer can fix the edit).
_RETRY_CODES = frozenset({"edited_summary_required", "secret_in_summary", "invalid_edit", "invalid_request"})


class Keys(Protocol):
    def key(self, prompt: str, allowed: str) -> str: ...

    def line(self, prompt: str) -> str: ...


class TerminalKeys:
    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self._in = stdin or sys.stdin
        self._out = stdout or sys.stdout
        self._tty = self._in.isatty()

    def key(self, prompt: str, allowed: str) -> str:
        while True:
            self._out.write(prompt)
            self._out.flush()
            pressed = self._read_key()
            if pressed in allowed:
                self._out.write(f"{pressed}\n")
                return pressed
            if pressed == END_OF_INPUT:  # end of input always stops, even where q is not offered
                self._out.write("\n")
                return END_OF_INPUT
            self._out.write(f"\n  press one of: {', '.join(allowed)}\n")

    def line(self, prompt: str) -> str:
        self._out.write(prompt)
        self._out.flush()
        return self._in.readline().rstrip("\r\n")

    def _read_key(self) -> str:
        if not self._tty:
            line = self._in.readline()
            if not line:
                return END_OF_INPUT
            word = line.strip().lower()
            return _WORDS.get(word, word[:1])
        import termios
        import tty

        fd = self._in.fileno()
        saved = termios.tcgetattr(fd)
        try:
            # TCSANOW keeps keys typed ahead; cbreak keeps Ctrl-C working.
            tty.setcbreak(fd, termios.TCSANOW)
            pressed = os.read(fd, 1).decode("utf-8", errors="ignore")
            if pressed == _ESCAPE:  # arrow and function keys: drop the rest of the sequence
                termios.tcflush(fd, termios.TCIFLUSH)
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        if not pressed or pressed == _CONTROL_D:
            return END_OF_INPUT
        return pressed.lower()


def describe(candidate: dict[str, Any], position: int) -> str:
    lines = [
        f"\n[{position}] {candidate['id']}  ({candidate['status']})",
        f"  summary      {candidate['summary']}",
        f"  type         {candidate['memory_type']}    sensitivity {candidate['sensitivity']}"
        f"    confidence {float(candidate.get('confidence', 0.0)):.2f}",
        f"  reason       {candidate.get('reason', '')}",
        f"  rules        {', '.join(candidate.get('rules', [])) or '-'}",
        f"  source       {candidate.get('source', '')} at {candidate.get('created_at', '')}"
        f" (policy {candidate.get('policy_version', '')})",
    ]
    if candidate.get("secret_kinds"):
        lines.append(f"  secret held  {', '.join(candidate['secret_kinds'])}: approve only with an edit")
    if candidate.get("user_message_preview"):
        lines.append(f"  message      {candidate['user_message_preview']}")
    return "\n".join(lines)


def pending_lines(candidate: dict[str, Any], edits: dict[str, str]) -> str:
    changes = [f"{field} {candidate.get(field, '')} -> {value}" for field, value in edits.items()]
    return f"  pending      {'; '.join(changes)}  (stored on [a]pprove)"


def with_edits(candidate: dict[str, Any], edits: dict[str, str]) -> dict[str, Any]:
    return candidate | edits


def other_namespace(value: str) -> str:
    return next(namespace.value for namespace in Namespace if namespace.value != value)


class Walkthrough:
    def __init__(self, api: ReviewApi, keys: Keys, out: TextIO | None = None) -> None:
        self._api = api
        self._keys = keys
        self._out = out or sys.stdout
        self.counts: Counter[str] = Counter()

    def run(self, namespace: str, statuses: Sequence[str], page_size: int = 20) -> int:
        waiting = " and ".join(statuses)
        self._say(f"Reviewing {waiting} candidates in {namespace} at {self._api.api_url}")
        position = 0
        quit_ = False
        for status in statuses:
            for candidate in self._api.iter_candidates(namespace, status, page_size):
                position += 1
                if not self._review(candidate, position):
                    quit_ = True
                    break
            if quit_:
                break
        if position == 0:
            self._say(f"No {waiting} candidates in {namespace}.")
        done = ", ".join(f"{count} {name}" for name, count in sorted(self.counts.items())) or "nothing done"
        self._say(f"Done: {done}.")
        return 0

    def _review(self, candidate: dict[str, Any], position: int) -> bool:
        """Returns False when the reviewer quits."""
        edits: dict[str, str] = {}
        self._say(describe(candidate, position))
        while True:
            choice = self._keys.key(f"{ACTIONS}\n> ", ACTION_KEYS)
            if choice == "q":
                return False
            if choice == "k":
                self.counts["skipped"] += 1
                return True
            if choice in EDIT_KEYS or choice == "u":
                if self._edit(choice, candidate, edits):
                    self._say(describe(with_edits(candidate, edits), position))
                    if edits:
                        self._say(pending_lines(candidate, edits))
                continue
            try:
                label = self._decide(choice, str(candidate["id"]), edits)
            except ReviewApiError as error:
                if error.status is None or error.status in (401, 403) or error.status >= 500:
                    raise  # credentials, network or server: the walk cannot go on
                self._say(f"  ! {error}")
                if error.code in _RETRY_CODES:
                    continue
                self.counts["conflicts"] += 1
                return True
            self.counts[label] += 1
            return True

    def _edit(self, choice: str, candidate: dict[str, Any], edits: dict[str, str]) -> bool:
        """Changes the pending edit; True when it changed."""
        if choice == "u":
            had = bool(edits)
            edits.clear()
            return had
        if choice == "e":
            summary = self._keys.line("  new summary (empty: keep): ").strip()
            return bool(summary) and _set(edits, "summary", summary, candidate)
        if choice == "n":
            current = edits.get("namespace", str(candidate["namespace"]))
            target = other_namespace(current)
            if self._keys.key(f"  move to {target}? [y/n] ", "yn") != "y":
                return False
            return _set(edits, "namespace", target, candidate)
        pressed = self._keys.key("  sensitivity [l]ow [m]edium [h]igh [p]rivate, [c]ancel: ", "lmhpc")
        if pressed not in SENSITIVITY_KEYS:
            return False
        return _set(edits, "sensitivity", SENSITIVITY_KEYS[pressed], candidate)

    def _decide(self, choice: str, candidate_id: str, edits: dict[str, str]) -> str:
        if choice == "r":
            reason = self._keys.line("  reason (optional): ").strip() or None
            return self._rejected(self._api.reject(candidate_id, reason))
        label = "moved" if "namespace" in edits else "edited" if "summary" in edits else "approved"
        return self._approved(self._api.approve(candidate_id, **edits), label)

    def _approved(self, reply: dict[str, Any], label: str = "approved") -> str:
        memory = reply.get("memory", {})
        self._say(f"  approved: memory {memory.get('id', '?')} ({memory.get('namespace', '?')})")
        return label

    def _rejected(self, reply: dict[str, Any]) -> str:
        self._say(f"  rejected: {reply.get('candidate', {}).get('id', '?')}")
        return "rejected"

    def _say(self, text: str) -> None:
        self._out.write(text + "\n")
        self._out.flush()


def _set(edits: dict[str, str], field: str, value: str, candidate: dict[str, Any]) -> bool:
    """Records the new value; a value equal to the candidate's own is no edit at all."""
    before = dict(edits)
    if value == str(candidate.get(field, "")):
        edits.pop(field, None)
    else:
        edits[field] = value
    return edits != before
