"""A small hand-made export whose every turn has a known fate, shared by the runner and CLI tests."""

import random
from typing import Any

from unit.backfill.export_factory import (
    ConversationBuilder,
    edited_conversation,
    fake_github_token,
    image_part,
    simple_conversation,
)

DAY = 86_400.0
T0 = 1_714_521_600.0  # 2024-05-01T00:00:00Z
FAKE_TOKEN = fake_github_token(random.Random(2024))

PREFERENCE = "I prefer dark mode in every editor from now on."
DECISION = "We decided to use Postgres for the ledger service."
OPEN_LOOP = "I owe Sam a call back about the lease by Thursday."
MERGED = "PR #482 adding rate limiting was merged into main today."
DISCARDED = "We decided to use MongoDB for the billing service."
SECRET = f"my github token is {FAKE_TOKEN} for the CI"


def sample_export() -> list[dict[str, Any]]:
    """Queued: preference, decision (low), open loop (medium), merged PR (low) and one blocked secret;
    the preference repeats once (a duplicate); the discarded edit branch is never read."""
    rng = random.Random(5)
    multimodal = ConversationBuilder("screenshot", T0 + 4 * DAY, rng)
    multimodal.user(image_part(rng), MERGED)
    multimodal.assistant("Nice, congrats on the merge.")
    return [
        simple_conversation(
            "editor", [(PREFERENCE, "Noted."), ("can you explain how quicksort works?", "Sure...")], start=T0
        ),
        simple_conversation(
            "ledger", [(DECISION, "Good choice."), (OPEN_LOOP, "I'll remind you.")], start=T0 + DAY
        ),
        simple_conversation("ci", [(SECRET, "Please rotate that token.")], start=T0 + 2 * DAY),
        edited_conversation(
            "billing",
            ("what's the difference between TCP and UDP?", "TCP is reliable..."),
            (DISCARDED, "OK."),
            ("thanks!", "You're welcome."),
            start=T0 + 3 * DAY,
        ),
        multimodal.build(),
        simple_conversation("again", [(PREFERENCE, "Noted again.")], start=T0 + 5 * DAY),
    ]


EXPECTED_QUEUED = {
    ("preference", "low"): 1,
    ("project_decision", "low"): 1,
    ("open_loop", "medium"): 1,
    ("merged_pr", "low"): 1,
    ("none", "high"): 1,  # the blocked secret
}
EXPECTED_OUTCOMES = {"pending_review": 4, "blocked_secret": 1, "duplicate": 1, "not_candidate": 3}
