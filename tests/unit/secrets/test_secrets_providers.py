"""Provider-shaped credentials are found wherever they sit, with the provider's kind."""

import random

import pytest
from pandora_memory.secrets import contains_secret, find_secrets, redact
from secret_fakes import FAKES

SETTINGS = (
    "here is the key {value} thanks",
    "EXPORTED_VALUE={value}",
    '{{"credential": "{value}"}}',
    "client = Client('{value}')",
    "{value}",
    "첫 번째 값은 {value} 입니다",
)


@pytest.mark.parametrize("name", sorted(FAKES))
@pytest.mark.parametrize("setting", SETTINGS)
def test_provider_credential_is_found_and_redacted(name: str, setting: str) -> None:
    generate, kind = FAKES[name]
    value = generate(random.Random(name + setting))
    text = setting.format(value=value)

    findings = find_secrets(text)
    redacted = redact(text)

    assert findings, text
    assert value not in redacted.text
    if kind is not None:
        assert kind in redacted.kinds


@pytest.mark.parametrize(
    "text",
    [
        "the frontend uses pk_live_51HqLyjWDarjtT1zdp7dcXk2 which is public",
        "export GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE",
        "OPENAI_API_KEY=sk-...",
        "OPENAI_API_KEY=sk-proj-your-openai-api-key-goes-here",
        "pip install scikit-learn==1.5.2 and sk-learn-compatible-estimators",
        "stripe customer cus_N8xkTg3ZpQ2mLr has a subscription",
    ],
)
def test_provider_lookalikes_are_not_secrets(text: str) -> None:
    assert find_secrets(text) == []


def test_aws_secret_key_is_found_next_to_its_key_id() -> None:
    secret = "Zq8vN1cLx0Tn4Rk7Bw2Yd5Hf9Jm3Pe6Us1Ga8Qo2"
    text = f"creds: AKIAQ3EGKPX7W2M5TNJR / {secret}"

    redacted = redact(text)

    assert redacted.kinds == ["aws_access_key_id", "aws_secret_key"]
    assert secret not in redacted.text


def test_url_credentials_redact_only_the_password() -> None:
    text = "DATABASE_URL=postgres://webapp:Vx7!kq2Lz9@db.internal:5432/webapp"

    redacted = redact(text)

    assert redacted.text == "DATABASE_URL=postgres://webapp:[REDACTED:postgres_url]@db.internal:5432/webapp"


@pytest.mark.parametrize(
    ("text", "password", "rest"),
    [
        ("postgresql://ops:4kd#Qw9zLm@leads.rds.example.net/db", "4kd#Qw9zLm", "@leads.rds.example.net/db"),
        ("postgres://app:p@ss-Wq81@db.internal/app", "p@ss-Wq81", "@db.internal/app"),
        ("redis://:Zx9?kLp2/w@cache.local:6379/0", "Zx9?kLp2/w", "@cache.local:6379/0"),
        ("mongodb://u:Hq7x2k@[::1]:27017/db", "Hq7x2k", "@[::1]:27017/db"),
        # Opening on "!" is no YAML tag ("!Ref") once a digit is in it.
        ("postgresql://svc.qorvan:!pWm4Rz8kTy2@pool.example.io:6543/app", "!pWm4Rz8kTy2", ":6543/app"),
    ],
)
def test_a_password_pasted_unescaped_is_redacted_up_to_the_host(text: str, password: str, rest: str) -> None:
    redacted = redact(text).text

    assert password not in redacted
    assert redacted.endswith(rest)
    assert not any(part in redacted for part in password.split("@") if len(part) > 2)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("redis://:Hk2mQ9xLp4Rt7Vw1@cache:6379/0", "redis_url"),
        ("mongodb+srv://reader:Qp9vLm2xRt7k@cluster0.ab1cd.mongodb.net/app", "mongodb_url"),
        ("amqp://celery:Zt6yWq1mPx8n@rabbitmq:5672//", "amqp_url"),
        ("mysql://root:Rk7%21pLm2q@10.0.0.5:3306/shop", "mysql_url"),
    ],
)
def test_connection_urls_name_their_engine(text: str, kind: str) -> None:
    assert redact(text).kinds == [kind]


@pytest.mark.parametrize(
    "text",
    [
        "postgres://user:password@localhost:5432/mydb",
        "postgres://app:${DB_PASSWORD}@db:5432/app",
        "https://example.com:8443/path",
        "profiles at http://localhost:3000/@ana and http://localhost:3000/@ben",
        "s3://acme-data-lake-prod/raw/2024/06/9ddafc00d2c1e16f.parquet",
    ],
)
def test_urls_without_real_credentials_are_not_secrets(text: str) -> None:
    assert find_secrets(text) == []


def test_private_key_block_is_redacted_whole() -> None:
    body = "MIIEowIBAAKCAQEAq7Zk2vLx9Qp4Rt8Wm1Nc6Yb3Hf5Jd0Ks7Ge2Ua9Po4Ti1Vr8Xn"
    text = f"key.pem:\n-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----\nthat's it"

    redacted = redact(text)

    assert redacted.text == "key.pem:\n[REDACTED:private_key_pem]\nthat's it"


@pytest.mark.parametrize(
    "text",
    [
        "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAq7Zk2vLx9Qp4Rt8Wm1Nc6Yb3\n"
        "-----END PUBLIC KEY-----",
        "add my public key: ssh-ed25519 "
        "AAAAC3NzaC1lZDI1NTE5AAAAIHq7Zk2vLx9Qp4Rt8Wm1Nc6Yb3Hf5Jd0Ks7Ge2Ua9P dev@box",
        "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJRTES\n"
        "-----END CERTIFICATE-----",
    ],
)
def test_public_keys_and_certificates_are_not_secrets(text: str) -> None:
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "error reporting is wired: https://7d519a807bbf7861fb73d7461ad365b4@o482113.ingest.sentry.io/5521904",
            "7d519a807bbf7861fb73d7461ad365b4",
        ),
        (
            "our busy-calendar feed https://calendar.google.com/calendar/ical/bakery.lund%40gmail.com/"
            "private-30d1f0260d3a4633546ddf4b24ae57c2/basic.ics goes on the site",
            "private-30d1f0260d3a4633546ddf4b24ae57c2",
        ),
        ("mariadb -u shop -p'Lingon!berry7' -h 10.0.0.4 shop_db", "Lingon!berry7"),
    ],
)
def test_a_sentry_dsn_a_private_calendar_feed_and_a_quoted_mysql_password_are_found(
    text: str, secret: str
) -> None:
    assert secret not in redact(text).text


def test_a_public_calendar_address_and_a_sentry_page_stay() -> None:
    assert not contains_secret(
        "https://calendar.google.com/calendar/ical/en.swedish%23holiday%40group.v.calendar.google.com/public/basic.ics"
    )
    assert not contains_secret("see https://sentry.io/organizations/lund-yarn/issues/5521904/ for the stack")


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "woocommerce keys: ck_7d519a807bbf7861fb73d7461ad365b430d1f026 / "
            "cs_30d1f0260d3a4633546ddf4b24ae57c27d519a80",
            "cs_30d1f0260d3a4633546ddf4b24ae57c27d519a80",
        ),
        (
            "application password for the blog api: Kp3z Wq9L mT2x Rb7N Yc4s Hd8v",
            "Kp3z Wq9L mT2x Rb7N Yc4s Hd8v",
        ),
        (
            "recovery key for the family apple id: r7kq 2mzp x9wd 4tnb ghs3 p8va 6jcy",
            "r7kq 2mzp x9wd 4tnb ghs3 p8va 6jcy",
        ),
    ],
)
def test_woocommerce_keys_and_grouped_app_passwords_and_recovery_keys_are_found(
    text: str, secret: str
) -> None:
    assert secret not in redact(text).text


def _vercel_like_token() -> str:
    # Twenty-four mixed letters and digits, as Vercel issued tokens before its prefixes.
    rng = random.Random(2411)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    while True:
        token = "".join(rng.choice(alphabet) for _ in range(24))
        if any(ch.isdigit() for ch in token) and not token.islower() and not token.isupper():
            return token


def test_an_unprefixed_vercel_token_in_a_message_about_vercel_is_found() -> None:
    token = _vercel_like_token()
    text = f"my teammate sent me this for vercel, no idea where it goes: {token}"

    assert [finding.kind for finding in find_secrets(text)] == ["vercel_token"]
    assert token not in redact(text).text


@pytest.mark.parametrize(
    "suffix",
    [
        "the vercel project is prj_{token}",
        "vercel deployment dpl_{token} failed again",
        "https://vercel.com/team/{token}",
        "the build id is {token} but nobody mentioned the host",
    ],
)
def test_vercel_ids_urls_and_tokens_of_no_named_host_are_not_that_token(suffix: str) -> None:
    text = suffix.format(token=_vercel_like_token())

    assert "vercel_token" not in [finding.kind for finding in find_secrets(text)]


def test_a_teams_webhook_and_a_stream_key_are_found() -> None:
    rng = random.Random(77)
    hexes = "0123456789abcdef"
    guid = "-".join("".join(rng.choice(hexes) for _ in range(n)) for n in (8, 4, 4, 4, 12))
    hook = (
        f"https://contoso.webhook.office.com/webhookb2/{guid}@{guid}/IncomingWebhook/"
        f"{''.join(rng.choice(hexes) for _ in range(32))}/{guid}"
    )
    key = (
        "live_"
        + "".join(rng.choice("0123456789") for _ in range(9))
        + "_"
        + "".join(
            rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") for _ in range(30)
        )
    )

    assert [f.kind for f in find_secrets(f"teams alerts go to {hook} now")] == ["teams_webhook"]
    assert [f.kind for f in find_secrets(f"obs says invalid key: {key}")] == ["stream_key"]
