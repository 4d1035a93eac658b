"""Cost guards: linear time on hostile input, and a cheap pass over an ordinary message.

The bounds are loose on purpose (shared CI machines); they catch catastrophic backtracking or an
accidental quadratic loop, not small regressions. The figures worth quoting come from timeit.
"""

import statistics
import time

import pytest
from pandora_memory.secrets import find_secrets

ORDINARY = (
    "Can you help me plan the deployment for next week? We have the API gateway, the Lambda functions "
    "and the DynamoDB table. The key point is that staging should mirror production, and I want to make "
    "sure the password reset flow works before we switch DNS. Also remind me what we decided about the "
    "token budget for the summarizer: I think we said 4k tokens per call. Let me know if the cache key "
    "strategy still makes sense, and whether we should pin the boto3 version to 1.34."
)

HOSTILE = {
    "repeated assignments": "key=" * 2000,
    "repeated statements": "password: x " * 800,
    "unterminated private key": "-----BEGIN RSA PRIVATE KEY-----" + "A" * 10000,
    "repeated userinfo": "http://x:y@" * 1000,
    "repeated xml": "<password>" * 1000,
    "one long token": "token " + "Ab1" * 3000,
    "bip39 words": "seed " + "able acid also apple " * 500,
    "pin, then words with wide gaps": "my pin" + "     a" * 20 + ". nothing here",
    "password, then comma gaps": "password" + " , a" * 2000,
    "one pin found again and again": "pin 1234 " * 3500,
    "a long list of backup codes": "backup codes: "
    + " ".join(f"A{i % 10}B{i % 100:02d}" for i in range(5000)),
    "compound code words": "ovikoodi 2390, " * 2000,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_stays_linear(name: str) -> None:
    started = time.process_time()
    find_secrets(HOSTILE[name])
    assert time.process_time() - started < 3.0


def test_ordinary_message_is_cheap() -> None:
    samples = []
    for _ in range(200):
        started = time.process_time()
        find_secrets(ORDINARY)
        samples.append(time.process_time() - started)
    assert find_secrets(ORDINARY) == []
    assert statistics.median(samples) < 0.002
