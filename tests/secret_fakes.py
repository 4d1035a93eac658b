"""Random, fake credentials of the right shape for the detector tests (never real keys)."""

import base64
import json
import random
import string
from collections.abc import Callable

ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
URLSAFE = ALNUM + "-_"


def chars(rng: random.Random, n: int, alphabet: str = ALNUM) -> str:
    """n random characters with a digit, a lower- and an upper-case letter when the alphabet has them."""
    while True:
        value = "".join(rng.choice(alphabet) for _ in range(n))
        wanted = [cls for cls in (str.isdigit, str.islower, str.isupper) if any(cls(c) for c in alphabet)]
        if n < 6 or all(any(cls(c) for c in value) for cls in wanted):
            return value


def b64url(payload: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(payload).encode()).decode().rstrip("=")


def jwt(rng: random.Random, payload: dict[str, object]) -> str:
    return f"{b64url({'alg': 'HS256', 'typ': 'JWT'})}.{b64url(payload)}.{chars(rng, 43, URLSAFE)}"


def password(rng: random.Random) -> str:
    return chars(rng, rng.randint(3, 8)) + rng.choice("!#%*@^") + chars(rng, rng.randint(2, 6), string.digits)


# name -> (generator, expected kind or None when any kind will do)
FAKES: dict[str, tuple[Callable[[random.Random], str], str | None]] = {
    "aws_access_key_id": (
        lambda r: "AKIA" + chars(r, 16, string.ascii_uppercase + string.digits),
        "aws_access_key_id",
    ),
    "github_pat": (lambda r: "ghp_" + chars(r, 36), "github_pat"),
    "github_oauth": (lambda r: "gho_" + chars(r, 36), "github_oauth_token"),
    "github_app": (lambda r: "ghs_" + chars(r, 36), "github_app_token"),
    "github_fine_grained": (lambda r: "github_pat_" + chars(r, 22) + "_" + chars(r, 59), "github_pat"),
    "gitlab_pat": (lambda r: "glpat-" + chars(r, 20, URLSAFE), "gitlab_token"),
    "slack_bot": (
        lambda r: f"xoxb-{chars(r, 12, string.digits)}-{chars(r, 13, string.digits)}-{chars(r, 24)}",
        "slack_token",
    ),
    "slack_webhook": (
        lambda r: (
            "https://hooks.slack.com/services/T"
            + chars(r, 8, string.ascii_uppercase + string.digits)
            + "/B"
            + chars(r, 8, string.ascii_uppercase + string.digits)
            + "/"
            + chars(r, 24)
        ),
        "slack_webhook",
    ),
    "stripe_live": (lambda r: "sk_live_" + chars(r, 24), "stripe_secret_key"),
    "stripe_test": (lambda r: "sk_test_" + chars(r, 99), "stripe_test_key"),
    "stripe_restricted": (lambda r: "rk_live_" + chars(r, 24), "stripe_restricted_key"),
    "toss_live": (lambda r: "live_sk_" + chars(r, 32), "toss_secret_key"),
    "toss_test_widget": (lambda r: "test_gsk_" + chars(r, 32), "toss_secret_key"),
    "openai_project": (
        lambda r: "sk-proj-" + chars(r, 74, URLSAFE) + "T3BlbkFJ" + chars(r, 74, URLSAFE),
        "openai_api_key",
    ),
    "openai_legacy": (lambda r: "sk-" + chars(r, 20) + "T3BlbkFJ" + chars(r, 20), "openai_api_key"),
    "anthropic": (lambda r: "sk-ant-api03-" + chars(r, 93, URLSAFE) + "AA", "anthropic_api_key"),
    "groq": (lambda r: "gsk_" + chars(r, 52), "groq_api_key"),
    "huggingface": (lambda r: "hf_" + chars(r, 34), "huggingface_token"),
    "replicate": (lambda r: "r8_" + chars(r, 37), "replicate_token"),
    "google_api_key": (lambda r: "AIza" + chars(r, 35, URLSAFE), "google_api_key"),
    "npm": (lambda r: "npm_" + chars(r, 36), "npm_token"),
    "pypi": (lambda r: "pypi-AgEIcHlwaS5vcmc" + chars(r, 60, URLSAFE), "pypi_token"),
    "sendgrid": (lambda r: "SG." + chars(r, 22, URLSAFE) + "." + chars(r, 43, URLSAFE), "sendgrid_api_key"),
    "vercel": (lambda r: "vcp_" + chars(r, 56), "vercel_token"),
    "doppler": (lambda r: "dp.pt." + chars(r, 43), "doppler_token"),
    "databricks": (lambda r: "dapi" + chars(r, 32, HEX), "databricks_token"),
    "shopify": (lambda r: "shpat_" + chars(r, 32, HEX), "shopify_token"),
    "digitalocean": (lambda r: "dop_v1_" + chars(r, 64, HEX), "digitalocean_token"),
    "linear": (lambda r: "lin_api_" + chars(r, 40), "linear_api_key"),
    "notion": (lambda r: "ntn_" + chars(r, 46), "notion_token"),
    "telegram": (lambda r: chars(r, 10, string.digits) + ":AA" + chars(r, 33, URLSAFE), "telegram_bot_token"),
    "discord_bot": (
        lambda r: "M" + chars(r, 25, URLSAFE) + "." + chars(r, 6, URLSAFE) + "." + chars(r, 38, URLSAFE),
        "discord_bot_token",
    ),
    "mailgun": (lambda r: "key-" + chars(r, 32, HEX), "mailgun_api_key"),
    "resend": (lambda r: "re_" + chars(r, 8) + "_" + chars(r, 24), "resend_api_key"),
    "twitch_chat": (
        lambda r: "oauth:" + chars(r, 29, string.ascii_lowercase) + str(r.randrange(10)),
        "twitch_oauth_token",
    ),
    "twilio_api_key": (lambda r: "SK" + chars(r, 32, HEX), "twilio_api_key"),
    "age": (
        lambda r: "AGE-SECRET-KEY-1" + chars(r, 58, string.ascii_uppercase + string.digits),
        "age_secret_key",
    ),
    "supabase_service_role": (
        lambda r: jwt(
            r, {"iss": "supabase", "ref": chars(r, 20, string.ascii_lowercase), "role": "service_role"}
        ),
        "supabase_service_role_key",
    ),
    "jwt_access_token": (lambda r: jwt(r, {"sub": chars(r, 12, string.digits), "exp": 1900000000}), "jwt"),
    "pem_private_key": (
        lambda r: (
            "-----BEGIN RSA PRIVATE KEY-----\n"
            + "\n".join(chars(r, 64, ALNUM + "+/") for _ in range(4))
            + "\n-----END RSA PRIVATE KEY-----"
        ),
        "private_key_pem",
    ),
    "openssh_private_key": (
        lambda r: (
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA"
            + chars(r, 46, ALNUM + "+/")
            + "\n-----END OPENSSH PRIVATE KEY-----"
        ),
        "private_key_openssh",
    ),
}
