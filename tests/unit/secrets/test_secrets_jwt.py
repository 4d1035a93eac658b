"""JWTs are judged by their claims: service_role and access tokens are secret, anon keys are not."""

import random

from pandora_memory.secrets import contains_secret, redact
from pandora_memory.secrets.jwt_claims import classify_jwt
from secret_fakes import b64url, jwt

RNG = random.Random(7)
SERVICE_ROLE = jwt(RNG, {"iss": "supabase", "ref": "tqvkzdqztnvcoqobqxbq", "role": "service_role"})
ANON = jwt(RNG, {"iss": "supabase", "ref": "nmmrenmmdabuvqvakbwh", "role": "anon"})
ACCESS = jwt(RNG, {"sub": "620547618496", "name": "Test User", "exp": 1795971930})


def test_supabase_service_role_key_is_secret() -> None:
    redacted = redact(f"SUPABASE_SERVICE_ROLE_KEY={SERVICE_ROLE}")

    assert redacted.text == "SUPABASE_SERVICE_ROLE_KEY=[REDACTED:supabase_service_role_key]"


def test_supabase_anon_key_is_public_wherever_it_appears() -> None:
    for text in (
        f"NEXT_PUBLIC_SUPABASE_ANON_KEY={ANON}",
        f"const supabase = createClient('https://x.supabase.co', '{ANON}')",
        f"apikey: {ANON}",
        f"Authorization: Bearer {ANON}",
        f"the anon key is {ANON}",
    ):
        assert not contains_secret(text), text


def test_access_token_in_authorization_header_is_secret() -> None:
    redacted = redact(f"Authorization: Bearer {ACCESS}")

    assert ACCESS not in redacted.text
    assert redacted.text.startswith("Authorization: Bearer [REDACTED:")


def test_bare_access_token_is_secret() -> None:
    assert redact(f"the id_token from auth0 is {ACCESS} — why is aud wrong?").kinds == ["jwt"]


def test_unreadable_payload_counts_as_secret() -> None:
    header = b64url({"alg": "HS256"})
    assert classify_jwt(f"{header}.eyJ!!!notbase64.sig") == "jwt"
    assert classify_jwt(f"{header}.eyJzdWIiOiIxMjM0NTY3.abc") == "jwt"


def test_claims_decide_kind() -> None:
    assert classify_jwt(SERVICE_ROLE) == "supabase_service_role_key"
    assert classify_jwt(ANON) is None
    assert classify_jwt(ACCESS) == "jwt"


def test_a_jwt_whose_payload_is_no_json_is_judged_by_its_header_and_blocked() -> None:
    header = b64url({"alg": "HS256", "typ": "JWT"})
    opaque = f"{header}.Qk7vR2mXa9LtPz3WcYh0Ns5dGf8JqUe1.Vb6nHk2TzLw9XsQm4RdPy7AcJe3Fu0G"

    redacted = redact(f"token from the login call {opaque} expires too early")

    assert opaque not in redacted.text
    assert "[REDACTED:jwt]" in redacted.text


def test_three_dotted_segments_without_a_jwt_header_stay() -> None:
    not_a_header = b64url({"note": "no algorithm here"})
    text = f"{not_a_header}.Qk7vR2mXa9LtPz3WcYh0Ns5dGf8JqUe1.Vb6nHk2TzLw9XsQm4RdPy7AcJe3Fu0G"

    assert not contains_secret(text)
