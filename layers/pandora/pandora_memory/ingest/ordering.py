"""Which of two S3 events on one key is newer, so a repeat is a no-op and a stale event never wins.

The rule, per document (namespace + logical path):

1. With a sequencer (real S3): the order key is the sequencer, upper-cased and left-padded with zeros
   to 64 hex digits, so DynamoDB's string comparison orders it as the number S3 means.
2. Without one (moto, hand-made events): the order key is the time of the change at one-second
   resolution - the object's LastModified for uploads, the event time for removals. One second is
   what S3's Last-Modified header carries, so finer times from other sources could not be compared.
3. Independently of the order key, only the key's *current* S3 state is ever ingested: an upload
   event whose version is no longer current, and a removal while the key still has an object, are
   skipped. Their successors' own events bring the newer state.
4. The document is written only if the stored order key is older, or equal with a different claim
   (another version within the same second, which rule 3 has just shown to be current) or equal with
   the same claim but an unfinished projection (a re-delivery completing a failed attempt).

The claim (order key + version id) names one event; the final swap only succeeds while the document
still carries it, so a slower, older writer can never overwrite a newer one.
"""

from dataclasses import dataclass
from datetime import UTC, datetime

SEQUENCER_WIDTH = 64
_SEQUENCER_TAG = "seq:"
_TIME_TAG = "time:"
ACTIVE = "active"

# Condition form of rule 4; `:order`, `:claim` and `:active` are bound by the caller.
ORDER_GUARD = (
    "attribute_not_exists(#order_key) OR #order_key < :order OR "
    "(#order_key = :order AND (#claim <> :claim OR #projection_status <> :active))"
)


@dataclass(frozen=True)
class EventOrder:
    order_key: str
    claim: str
    sequencer: str | None = None


def normalise_sequencer(sequencer: str) -> str:
    return sequencer.upper().rjust(SEQUENCER_WIDTH, "0")


def event_order(sequencer: str | None, changed_at: datetime, version_id: str | None) -> EventOrder:
    if sequencer:
        padded = normalise_sequencer(sequencer)
        order_key = f"{_SEQUENCER_TAG}{padded}"
    else:
        padded = None
        order_key = f"{_TIME_TAG}{changed_at.astimezone(UTC).strftime('%Y-%m-%dT%H:%M:%SZ')}"
    return EventOrder(order_key=order_key, claim=f"{order_key}|{version_id or '-'}", sequencer=padded)


def admits(
    stored_order_key: str | None, stored_claim: str | None, stored_status: str | None, new: EventOrder
) -> bool:
    """Python twin of ORDER_GUARD, used to skip early without any write."""
    if stored_order_key is None or stored_order_key < new.order_key:
        return True
    if stored_order_key == new.order_key:
        return stored_claim != new.claim or stored_status != ACTIVE
    return False


def guard_values(order: EventOrder) -> dict[str, str]:
    return {":order": order.order_key, ":claim": order.claim, ":active": ACTIVE}
