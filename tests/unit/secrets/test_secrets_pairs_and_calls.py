"""Credentials without "password is": user pairs, other languages, positional code arguments.

And the other side: OpenSSH public key lines are public whatever words their comment holds.
"""

import pytest
from pandora_memory.secrets import find_secrets, redact

# (text, the secret value that must disappear, the rule that names it)
PAIRS = [
    ("bank login: user tidewell_ops pass Qm7rTx92", "Qm7rTx92", "context-stated"),
    ("wifi: user guest pw Nebula42", "Nebula42", "context-stated"),
    ("email: ops@acme.io pwd: Mq9!rT2x", "Mq9!rT2x", "context-assigned"),
    ("login is jdoe / Velvet88", "Velvet88", "context-pair"),
    ("creds are bob / Lantern5#", "Lantern5#", "context-pair"),
    ("creds: ops / Fj3kq8Lm", "Fj3kq8Lm", "context-pair"),
    ("email login jane@x.org / Cobalt!77", "Cobalt!77", "email-pair"),
    ("sign in with mina@example.com : Kettle99drum", "Kettle99drum", "email-pair"),
    ("login jdoe / 7Hq!pL2m", "7Hq!pL2m", "context-pair"),
    ("admin:Frost1ng for the router", "Frost1ng", "default-user-pair"),
    ("router admin / Zebra7714", "Zebra7714", "default-user-pair"),
    ("root/Tr1cky!9 on the old box", "Tr1cky!9", "default-user-pair"),
    ("the kiosk login is Heron41&dusk if the screen locks", "Heron41&dusk", "context-stated"),
]

OTHER_LANGUAGES = [
    ("o código do alarme é 9998", "9998"),
    ("o código do portão é 5566", "5566"),
    ("el código de la puerta es 7788", "7788"),
    ("le code de la porte est 4512", "4512"),
    ("le code d'accès est 9087B", "9087B"),
    ("le code de l'alarme est 7755", "7755"),
    ("mein Kennwort lautet Blume77x", "Blume77x"),
    ("der Zugangscode ist 4490", "4490"),
    ("der Türcode lautet 1188", "1188"),
    ("das WLAN-Passwort ist Brezel2024", "Brezel2024"),
    ("il codice dell'allarme è 6655", "6655"),
    ("il codice del cancello è 2211", "2211"),
    ("de pincode is 9012", "9012"),
    ("şifrem elma1234", "elma1234"),
    ("hasło to Slonce!99", "Slonce!99"),
    ("kod do drzwi to 4471", "4471"),
    ("lösenordet är Katt2021", "Katt2021"),
    ("salasana on Kissa123", "Kissa123"),
    ("heslo je Pes12345", "Pes12345"),
    ("parola este Soare2020", "Soare2020"),
    ("пароль от wifi qwerty777", "qwerty777"),
    ("код от домофона 1234", "1234"),
]

CALLS = [
    (
        "client = Client('SK3f9a1c2b4d5e6f708192a3b4c5d6e7f8', 'q8Lm2Rt6Vx0Bn4Kp7Wz1Yc5Hd9Fs3Ja')",
        "q8Lm2Rt6Vx0Bn4Kp7Wz1Yc5Hd9Fs3Ja",
    ),
    (
        'client = Client("AC2b7e9f0a1c3d5e7f9a1b3c5d7e9f0a1b", "7d2e9a0b1c4f6a8d3e5b7c9f1a2d4e6b")',
        "7d2e9a0b1c4f6a8d3e5b7c9f1a2d4e6b",
    ),
    ("Client(account_sid, 'b11d5800ca3a166713a0556bb475e9ed')", "b11d5800ca3a166713a0556bb475e9ed"),
    ("pusher = Pusher('1481923', 'a1b2c3d4e5f6a7b8c9d0', 'Zq8vN1cLx0Tn4Rk7Bw2Y')", "Zq8vN1cLx0Tn4Rk7Bw2Y"),
    ("const stripe = new Stripe('Zq8vN1cLx0Tn4Rk7Bw2Yd5Hf9Jm3Pe6U');", "Zq8vN1cLx0Tn4Rk7Bw2Yd5Hf9Jm3Pe6U"),
    ("requests.get(url, auth=HTTPBasicAuth('svc-bot', 'Rq8!vLm2Zx'))", "Rq8!vLm2Zx"),
    (
        "Mailjet(auth=('a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6', 'f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4'))",
        "f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4",
    ),
    ("login('admin', 'Velvet88!')", "Velvet88!"),
    (
        "token = jwt.encode({'sub': 42}, 'my-hs256-signing-Secret-9', algorithm='HS256')",
        "my-hs256-signing-Secret-9",
    ),
    (
        "(api_key, api_secret) = ('k7Lm2Qz9Rg4Xt8Wv', 'Hq3Nc8Bv1Mz6Lp0Xs5Dw9Fy2Gt7Kj4Ra')",
        "Hq3Nc8Bv1Mz6Lp0Xs5Dw9Fy2Gt7Kj4Ra",
    ),
    (
        'api_key, api_secret = "b3f1c2d4e5a6978877665544332211aa", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"',
        "9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    ),
]


@pytest.mark.parametrize(("text", "secret", "rule"), PAIRS)
def test_the_password_of_a_user_pair_is_redacted_and_the_user_kept(text: str, secret: str, rule: str) -> None:
    redacted = redact(text)

    assert secret not in redacted.text
    assert redacted.text.startswith(text[: text.index(secret)])
    assert any(finding.rule == rule for finding in redacted.findings)


@pytest.mark.parametrize(("text", "secret"), OTHER_LANGUAGES)
def test_credential_in_another_language_is_redacted_alone(text: str, secret: str) -> None:
    redacted = redact(text)

    assert secret not in redacted.text
    start = text.index(secret)
    assert redacted.text.startswith(text[:start])
    assert redacted.text.endswith(text[start + len(secret) :])


@pytest.mark.parametrize(("text", "secret"), CALLS)
def test_positional_credential_is_redacted_and_the_call_kept(text: str, secret: str) -> None:
    redacted = redact(text)

    assert secret not in redacted.text
    first_literal = min(position for position in (text.find("'"), text.find('"')) if position >= 0)
    assert redacted.text.startswith(text[:first_literal])  # the call and its names stay readable
    assert "[REDACTED:" in redacted.text


NOT_SECRETS = [
    "login is via google SSO now",
    "my login is jdoe_92 on the staging box",
    "the login is ana+work@mail.example now",
    "the login flow is broken on safari",
    "logins per day: 1200 / 3400 last week",
    "login is admin / see the sticky note",
    "creds are in 1password under router",
    "username: alice, pass: see vault",
    "pass the salt please, I'll pass on dessert",
    "user alice passed the exam with 92",
    "FROM postgres:16-alpine",
    "docker run -d redis:7-alpine",
    "scopes: admin:org, admin:repo_hook, read:user",
    "edit root/.bashrc, then open admin/users/42/edit",
    "admin: true",
    "requests.get(url, auth=(user, password))",
    "requests.get(url, auth=('user', 'pass'))",
    "client = Client(account_sid, auth_token)",
    "Pusher(app_id, key, secret, cluster='eu')",
    "client = boto3.client('s3', region_name='eu-west-1')",
    "Client('https://api.example.com', timeout=30)",
    "assert hashlib.md5(b'abc').hexdigest() == '900150983cd24fb0d6963f7d28e17f72'",
    "commits = ('1f25b5a9c3e8', '7d2e9a0b1c4f')",
    "user, repo = 'octocat', 'hello-world'",
    "jwt.decode(token, key, algorithms=['RS256'])",
    "el código postal es 28001",
    "o código do projeto está no github",
    "le code est sur github",
    "der Code ist fertig",
    "das Passwort ist abgelaufen",
    "le mot de passe est trop court",
    "la contraseña es muy larga",
    "het wachtwoord is vergeten",
    "il codice fiscale è obbligatorio",
    "the code for the website is on github",
    "promo code SUMMER24 at checkout",
]


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_near_miss_is_not_a_secret(text: str) -> None:
    assert find_secrets(text) == []


ED25519 = "AAAAC3NzaC1lZDI1NTE5AAAAIFh8dKq9x2Lr7Tt0mB3vYc4WnE6pZs1Qa5Ud8Gk2Jf0H"
RSA = "AAAAB3NzaC1yc2EAAAADAQABAAABgQC7v9Lm2Qz8Rg4Xt1Wv5Yb0Nc3Kp6Hd9Fs2Ja7Me4Tq8Uw1Zx5"


@pytest.mark.parametrize(
    "text",
    [
        f"ssh-ed25519 {ED25519} deploy@ci",
        f"ssh-ed25519 {ED25519} me@laptop",
        f"add this deploy key: ssh-ed25519 {ED25519} deploy-token@ci-runner",
        f"deploy key = ssh-ed25519 {ED25519} ops@bastion",
        f"token: ssh-rsa {RSA} ci",
        f'api_key_pub = "ssh-ed25519 {ED25519} build@token-host"',
        f"ssh-ed25519 {ED25519} Secret-Key-2024",
        f"sk-ssh-ed25519@openssh.com {ED25519} ssh:yubikey",
    ],
)
def test_an_openssh_public_key_line_is_public_whatever_its_comment(text: str) -> None:
    assert find_secrets(text) == []


def test_a_password_after_a_public_key_is_still_found() -> None:
    redacted = redact(f"ssh-ed25519 {ED25519} deploy@ci and the password is Zk3mN8pQ2r")

    assert "Zk3mN8pQ2r" not in redacted.text
    assert ED25519 in redacted.text
