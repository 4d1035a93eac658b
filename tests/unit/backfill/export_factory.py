"""Synthetic ChatGPT data exports in the real `conversations.json` shape, for the backfill tests.

Each conversation is a tree in `mapping`: a root node with a null message, a hidden system message,
then user/assistant/tool nodes linked by `parent`/`children`. Edits make siblings and `current_node`
picks the branch that was kept. Images are dict parts of `multimodal_text`; tool calls are assistant
messages addressed to a tool. Every credential here is random and fake.
"""

import json
import random
import string
import uuid
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Part = str | dict[str, Any]
START = 1_700_000_000.0  # 2023-11-14, the synthetic exports' first conversation


def fake_github_token(rng: random.Random) -> str:
    return "ghp_" + "".join(rng.choices(string.ascii_letters + string.digits, k=36))


def image_part(rng: random.Random) -> dict[str, Any]:
    return {
        "content_type": "image_asset_pointer",
        "asset_pointer": f"file-service://file-{rng.getrandbits(64):016x}",
        "size_bytes": rng.randint(10_000, 900_000),
        "width": 1024,
        "height": 768,
        "fovea": None,
        "metadata": {"dalle": None, "gizmo": None, "sanitized": True},
    }


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


@dataclass
class ConversationBuilder:
    """Appends nodes under the current tip; `branch_from` moves the tip back to make an edit."""

    title: str
    start: float = START
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    conversation_id: str = ""
    nodes: dict[str, dict[str, Any]] = field(default_factory=dict)
    tip: str | None = None
    clock: float = 0.0

    def __post_init__(self) -> None:
        self.conversation_id = self.conversation_id or _uuid(self.rng)
        self.clock = self.start
        self._node(None)  # the root: a node without a message, as in every export
        self._message("system", {"content_type": "text", "parts": [""]}, hidden=True, timed=False, name=None)

    def _node(self, message: dict[str, Any] | None) -> str:
        node_id = message["id"] if message else _uuid(self.rng)
        self.nodes[node_id] = {"id": node_id, "message": message, "parent": self.tip, "children": []}
        if self.tip is not None:
            self.nodes[self.tip]["children"].append(node_id)
        self.tip = node_id
        return node_id

    def _message(
        self,
        role: str,
        content: dict[str, Any],
        *,
        hidden: bool = False,
        timed: bool = True,
        name: str | None = None,
        recipient: str = "all",
    ) -> str:
        self.clock += 30.0
        metadata: dict[str, Any] = {"is_visually_hidden_from_conversation": True} if hidden else {}
        if role == "assistant":
            metadata |= {"model_slug": "default", "finish_details": {"type": "stop"}}
        message: dict[str, Any] = {
            "id": _uuid(self.rng),
            "author": {"role": role, "name": name, "metadata": {}},
            "create_time": self.clock if timed else None,
            "update_time": None,
            "content": content,
            "status": "finished_successfully",
            "end_turn": True if role == "assistant" else None,
            "weight": 1.0,
            "metadata": metadata,
            "recipient": recipient,
            "channel": None,
        }
        return self._node(message)

    def user(self, *parts: Part) -> str:
        if all(isinstance(part, str) for part in parts):
            return self._message("user", {"content_type": "text", "parts": list(parts)})
        return self._message("user", {"content_type": "multimodal_text", "parts": list(parts)})

    def assistant(self, text: str) -> str:
        return self._message("assistant", {"content_type": "text", "parts": [text]})

    def custom_instructions(self, text: str) -> str:
        content = {"content_type": "user_editable_context", "user_profile": text, "user_instructions": ""}
        return self._message("user", content, hidden=True)

    def tool_call(self, tool: str, code: str, output: str) -> str:
        call = {"content_type": "code", "language": "unknown", "response_format_name": None, "text": code}
        self._message("assistant", call, recipient=tool)
        return self._message("tool", {"content_type": "execution_output", "text": output}, name=tool)

    def browse(self, query: str, result_text: str) -> str:
        self._message(
            "assistant", {"content_type": "code", "language": "unknown", "text": query}, recipient="browser"
        )
        display = {"content_type": "tether_browsing_display", "result": result_text, "summary": None}
        return self._message("tool", display, name="browser")

    def system_note(self, text: str) -> str:
        return self._message("system", {"content_type": "text", "parts": [text]})

    def branch_from(self, node_id: str) -> None:
        self.tip = node_id

    def parent_of(self, node_id: str) -> str:
        parent = self.nodes[node_id]["parent"]
        assert isinstance(parent, str)
        return parent

    def build(self, current_node: str | None = None) -> dict[str, Any]:
        return {
            "title": self.title,
            "create_time": self.start,
            "update_time": self.clock,
            "mapping": self.nodes,
            "moderation_results": [],
            "current_node": current_node or self.tip,
            "plugin_ids": None,
            "conversation_id": self.conversation_id,
            "conversation_template_id": None,
            "gizmo_id": None,
            "is_archived": False,
            "safe_urls": [],
            "default_model_slug": "default",
            "id": self.conversation_id,
        }


def simple_conversation(
    title: str,
    exchanges: Sequence[tuple[Part | Sequence[Part], str | None]],
    *,
    start: float = START,
    rng: random.Random | None = None,
) -> dict[str, Any]:
    builder = ConversationBuilder(title, start, rng or random.Random(title))
    for user, reply in exchanges:
        parts = (user,) if isinstance(user, str | dict) else tuple(user)
        builder.user(*parts)
        if reply is not None:
            builder.assistant(reply)
    return builder.build()


def edited_conversation(
    title: str,
    opening: tuple[str, str],
    original: tuple[str, str],
    edited: tuple[str, str],
    *,
    keep_edit: bool = True,
    start: float = START,
) -> dict[str, Any]:
    """The user edited their second message: two sibling branches, `current_node` on the kept one."""
    builder = ConversationBuilder(title, start, random.Random(title))
    builder.user(opening[0])
    fork = builder.assistant(opening[1])
    builder.user(original[0])
    original_end = builder.assistant(original[1])
    builder.branch_from(fork)
    builder.user(edited[0])
    edited_end = builder.assistant(edited[1])
    return builder.build(current_node=edited_end if keep_edit else original_end)


# -- a large export with a realistic mix ------------------------------------------------------------

_TOOLS = ("Neovim", "VS Code", "Helix", "Emacs", "Zed", "JetBrains Fleet")
_STYLES = ("dark mode", "tabs", "four-space indents", "British English", "short answers", "type hints")
_STORES = ("Postgres", "DynamoDB", "SQLite", "Redis", "ClickHouse", "MariaDB")
_SERVICES = ("ledger", "billing", "search", "auth", "reporting", "notifications", "exports", "payroll")
_REGIONS = ("eu-west-1", "us-east-2", "ap-southeast-2", "eu-central-1")
_PEOPLE = ("Sam", "Priya", "Jonas", "Aiko", "Mateo", "Noor")
_CHORES = ("the lease", "the invoice", "the visa letter", "the offsite budget", "the insurance claim")
_QUESTIONS = (
    "can you explain how quicksort works?",
    "what's the difference between TCP and UDP?",
    "write a haiku about autumn rain",
    "how do I center a div?",
    "summarise the French revolution in three lines",
    "what does idempotent mean?",
)


def _durable_statement(rng: random.Random, number: int) -> str:
    service = rng.choice(_SERVICES)
    statements = (
        f"I prefer {rng.choice(_STYLES)} in {rng.choice(_TOOLS)} from now on.",
        f"We decided to use {rng.choice(_STORES)} for the {service} service.",
        f"The {service} deploy is blocked because the staging migration {number} keeps failing.",
        f"Production runs the {service} service in {rng.choice(_REGIONS)} with {rng.randint(2, 9)} tasks.",
        f"PR #{number} adding retries to the {service} service was merged into main today.",
        f"I owe {rng.choice(_PEOPLE)} a call back about {rng.choice(_CHORES)} by Thursday.",
    )
    return rng.choice(statements)


def synthetic_conversation(index: int, rng: random.Random, *, secret_every: int = 0) -> dict[str, Any]:
    """2 to 6 exchanges: questions, durable statements, and now and then an image, a tool call, an
    edit, or (every `secret_every`-th conversation) a fake credential pasted by the user."""
    start = START + index * 3600.0
    builder = ConversationBuilder(f"Chat {index}: {rng.choice(_SERVICES)}", start, rng)
    if index % 7 == 0:
        builder.custom_instructions("I am a backend engineer; keep answers short.")
    fork: str | None = None
    for exchange in range(rng.randint(2, 6)):
        if rng.random() < 0.45:
            text = _durable_statement(rng, index * 10 + exchange)
        else:
            text = rng.choice(_QUESTIONS)
        if index % 11 == 0 and exchange == 0:
            builder.user(image_part(rng), f"what is in this screenshot? {text}")
        else:
            builder.user(text)
        if index % 13 == 0 and exchange == 1:
            builder.tool_call("python", "print(sum(range(10)))", "45")
        fork = builder.assistant("Sure. Noted." if rng.random() < 0.5 else "Here is an answer.")
    if secret_every and index % secret_every == 0:
        builder.user(f"my github token is {fake_github_token(rng)} for the CI, keep it handy")
        builder.assistant("Please rotate that token; I won't keep it.")
    if index % 17 == 0 and fork is not None:
        builder.branch_from(builder.parent_of(fork))
        builder.assistant("A regenerated answer the user kept.")
    return builder.build()


def synthetic_export(count: int, *, seed: int = 7, secret_every: int = 0) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [synthetic_conversation(index, rng, secret_every=secret_every) for index in range(1, count + 1)]


# -- files ------------------------------------------------------------------------------------------


def write_conversations_json(path: Path, conversations: Iterable[dict[str, Any]]) -> Path:
    # Non-ASCII stays raw UTF-8, as in real exports, so multi-byte characters cross read windows.
    path.write_text(json.dumps(list(conversations), ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def write_export_zip(
    path: Path, conversations: Iterable[dict[str, Any]], *, member: str = "conversations.json"
) -> Path:
    """The zip as ChatGPT sends it: conversations.json next to the export's other files."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(member, json.dumps(list(conversations), ensure_ascii=False))
        archive.writestr("user.json", json.dumps({"id": "user-fake", "email": "someone@example.com"}))
        archive.writestr("message_feedback.json", "[]")
        archive.writestr("shared_conversations.json", "[]")
        archive.writestr("chat.html", "<html><body>export</body></html>")
    return path
