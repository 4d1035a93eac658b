import hmac
import json
import re
from datetime import UTC, datetime

import pytest
from pandora_memory.namespaces import Namespace
from pandora_memory.tokens import (
    AuthenticationError,
    InvalidTokenRecordError,
    MalformedTokenError,
    TokenRecord,
    authenticate,
    hash_secret,
    mint_token,
    namespaces_from_claim,
    parse_bearer_header,
    parse_token,
    scope_claim,
    verify_secret,
)

TOKEN_SHAPE = re.compile(r"^pm_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$")


def _record(**overrides: object) -> TokenRecord:
    fields: dict[str, object] = {
        "token_id": "abcdefghij12",
        "sha256": hash_secret("s" * 43),
        "namespaces": ["au"],
        "created_at": datetime(2025, 1, 2, tzinfo=UTC),
    }
    fields.update(overrides)
    return TokenRecord.from_document(fields)


def test_minted_token_has_the_documented_shape_and_matches_its_record() -> None:
    minted = mint_token([Namespace.REAL_LIFE], label="phone")
    assert TOKEN_SHAPE.match(minted.token)
    parts = parse_token(minted.token)
    assert parts.token_id == minted.record.token_id
    assert minted.record.sha256 == hash_secret(parts.secret)
    assert minted.record.label == "phone"
    assert minted.record.created_at.tzinfo is not None


def test_every_mint_is_different() -> None:
    minted = [mint_token([Namespace.AU]) for _ in range(50)]
    assert len({m.token for m in minted}) == 50
    assert len({m.record.token_id for m in minted}) == 50


def test_secret_never_shows_in_reprs_or_stored_value() -> None:
    minted = mint_token([Namespace.AU])
    secret = parse_token(minted.token).secret
    assert secret not in repr(minted)
    assert secret not in repr(parse_token(minted.token))
    assert secret not in minted.record.stored_value()
    assert minted.record.token_id not in minted.record.stored_value()


def test_secret_may_contain_underscores_and_dashes() -> None:
    secret = "a_b-c" * 8 + "xyz"
    parts = parse_token(f"pm_abcdefghij12_{secret}")
    assert parts.token_id == "abcdefghij12"
    assert parts.secret == secret


@pytest.mark.parametrize(
    "text",
    [
        "",
        "pm",
        "pm_abcdefghij12",
        "pm_abcdefghij12_" + "s" * 42,
        "pm_abcdefghij12_" + "s" * 44,
        "pm_ABCDEFGHIJ12_" + "s" * 43,
        "pm_abcdefghij1_" + "s" * 43,
        "xx_abcdefghij12_" + "s" * 43,
        "pm_abcdefghij12_" + "s" * 42 + "=",
        "pm_abcdefghij12_" + "s" * 42 + " ",
    ],
)
def test_parse_rejects_anything_else_without_echoing_it(text: str) -> None:
    with pytest.raises(MalformedTokenError) as raised:
        parse_token(text)
    if text:
        assert text not in str(raised.value)


def test_bearer_header_parsing() -> None:
    token = mint_token([Namespace.AU]).token
    assert parse_bearer_header(f"Bearer {token}").token_id == token.split("_")[1]
    assert parse_bearer_header(f"bearer {token}").token_id == token.split("_")[1]
    for header in (None, "", "Bearer", f"Basic {token}", token, f"Bearer  {token} extra"):
        with pytest.raises(MalformedTokenError):
            parse_bearer_header(header)


def test_verify_secret_uses_constant_time_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, str]] = []

    def spy(left: str, right: str) -> bool:
        calls.append((left, right))
        return left == right

    monkeypatch.setattr(hmac, "compare_digest", spy)
    record = _record()
    assert verify_secret("s" * 43, record)
    assert not verify_secret("t" * 43, record)
    assert calls == [(hash_secret("s" * 43), record.sha256), (hash_secret("t" * 43), record.sha256)]


def test_scope_is_canonical_and_checked() -> None:
    both = _record(namespaces=["au", "real_life", "au"])
    assert both.namespaces == (Namespace.REAL_LIFE, Namespace.AU)
    assert scope_claim(both) == "real_life,au"
    assert both.allows(Namespace.AU) and both.allows(Namespace.REAL_LIFE)
    au_only = _record(namespaces=["au"])
    assert au_only.allows(Namespace.AU)
    assert not au_only.allows(Namespace.REAL_LIFE)
    assert scope_claim(au_only) == "au"


@pytest.mark.parametrize("namespaces", [[], ["work"], "au"])
def test_scope_must_name_known_namespaces(namespaces: object) -> None:
    with pytest.raises(InvalidTokenRecordError):
        _record(namespaces=namespaces)


def test_record_rejects_a_hash_that_is_not_sha256_hex() -> None:
    with pytest.raises(InvalidTokenRecordError):
        _record(sha256="not-a-digest")


def test_claim_round_trip_grants_nothing_unknown() -> None:
    assert namespaces_from_claim("real_life,au") == {Namespace.REAL_LIFE, Namespace.AU}
    assert namespaces_from_claim("au") == {Namespace.AU}
    assert namespaces_from_claim("au, root ,") == {Namespace.AU}
    assert namespaces_from_claim("") == frozenset()
    assert namespaces_from_claim(None) == frozenset()


def test_stored_value_round_trips() -> None:
    record = mint_token([Namespace.AU, Namespace.REAL_LIFE], label="x").record
    restored = TokenRecord.from_document({**json.loads(record.stored_value()), "token_id": record.token_id})
    assert restored == record


def test_authenticate_reports_why_without_token_material() -> None:
    minted = mint_token([Namespace.AU])
    records = {minted.record.token_id: minted.record}
    assert authenticate(f"Bearer {minted.token}", records.get) == minted.record

    wrong_secret = minted.token[:-4] + ("aaaa" if not minted.token.endswith("aaaa") else "bbbb")
    other = mint_token([Namespace.AU]).token
    cases = {"malformed": "Bearer nope", "unknown": f"Bearer {other}", "mismatch": f"Bearer {wrong_secret}"}
    for reason, header in cases.items():
        with pytest.raises(AuthenticationError) as raised:
            authenticate(header, records.get)
        assert raised.value.reason == reason
        assert str(raised.value) == reason
    with pytest.raises(AuthenticationError) as missing:
        authenticate(None, records.get)
    assert missing.value.reason == "malformed" and missing.value.token_id is None


# As the pydantic model wrote it: records already in SSM must keep parsing, new ones keep this shape.
STORED = (
    '{"sha256":"' + hash_secret("s" * 43) + '","namespaces":["real_life","au"],'
    '"created_at":"2025-01-02T03:04:05.000120Z","label":"téléphone \\"perso\\""}'
)


def test_stored_value_keeps_the_shape_records_were_written_in() -> None:
    record = TokenRecord.from_document({**json.loads(STORED), "token_id": "abcdefghij12"})
    assert record.namespaces == (Namespace.REAL_LIFE, Namespace.AU)
    assert record.created_at == datetime(2025, 1, 2, 3, 4, 5, 120, tzinfo=UTC)
    assert record.label == 'téléphone "perso"'
    assert record.stored_value() == STORED


@pytest.mark.parametrize(
    "change",
    [
        {"token_id": "ABCDEFGHIJ12"},
        {"token_id": "abcdefghij1"},
        {"sha256": hash_secret("s").upper()},
        {"created_at": "yesterday"},
        {"created_at": 1735787045},
        {"label": "x" * 201},
        {"label": None},
    ],
)
def test_record_rejects_fields_out_of_shape(change: dict[str, object]) -> None:
    with pytest.raises(InvalidTokenRecordError):
        _record(**change)


def test_record_needs_every_stored_field() -> None:
    document = json.loads(STORED)
    del document["created_at"]
    with pytest.raises(InvalidTokenRecordError, match="created_at"):
        TokenRecord.from_document({**document, "token_id": "abcdefghij12"})
