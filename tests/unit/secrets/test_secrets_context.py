"""Credentials stated in prose or assigned in code: the value is redacted, the words around it stay."""

import pytest
from pandora_memory.secrets import find_secrets, redact

# (text, the secret value that must disappear)
STATED = [
    ("the wifi password is Pumpkin!Spice9", "Pumpkin!Spice9"),
    ("my pin is 4471", "4471"),
    ("PIN: 8823", "8823"),
    ("passcode: 990011", "990011"),
    ("passcode 55120", "55120"),
    ("the wifi password is Tq>w8pLx2", "Tq>w8pLx2"),
    ("guest password: Vm<4rKq9z", "Vm<4rKq9z"),
    ("mysql://app:P4ss~w0rd?x>@db/app", "P4ss~w0rd?x>"),
    ("MATCH_PASSWORD는 Qe7^tvLmZ2pw 그대로야", "Qe7^tvLmZ2pw"),
    ("the wifi password at the cabin, its been Lantern8821?kq for ages", "Lantern8821?kq"),
    ("saved the maps api key as MAPS_KEY, it's 9C41F0A7D2E36B58C1A9F04E7D3B", "9C41F0A7D2E36B58C1A9F04E7D3B"),
    ("handed him the card and the PIN (7406) for the deposit", "7406"),
    ("사무실 와이파이 비번 바뀜 ㅋㅋ 이제 Rw4kTzq8Lm 임", "Rw4kTzq8Lm"),
    ("<p>password: <code>hunter22</code></p>", "hunter22"),
    ("my password is 834333", "834333"),
    ("my shop login is the usual email and qTr8Lw2ZpVx6Nk*4 if you need it", "qTr8Lw2ZpVx6Nk*4"),
    ("은행 앱 PIN 새로 520662로 바꿈", "520662"),
    ("작업실 NAS 관리자 비번 바꿨어. 이제 Wq47#tonvera 로 통일", "Wq47#tonvera"),
    ("공유기 비밀번호 이제 Tarn88!q야", "Tarn88!q"),
    ("pw: Tr0ub4dor&3", "Tr0ub4dor&3"),
    ("my password for gmail is movienight2023", "movienight2023"),
    ("the password for the router admin page is R0uter#adm", "R0uter#adm"),
    ("I changed my bank password to Z%R19WnAnb7 yesterday", "Z%R19WnAnb7"),
    ("use kittens42 as the password", "kittens42"),
    ("qwerty!2024 is my netflix password", "qwerty!2024"),
    ("password hunter2", "hunter2"),
    ("my email password is sunflower and I keep forgetting it", "sunflower"),
    ("the password's Bluebird42", "Bluebird42"),
    ("the alarm code is 2580", "2580"),
    ("my son's tablet parental code is 731904, his dad keeps asking", "731904"),
    ("parental control code is 5521", "5521"),
    ("code for the gate: 1357#", "1357#"),
    ("the safe combination is 12-34-56", "12-34-56"),
    ("secret key = 9aB8cD7eF6gH5iJ4kL3mN2oP", "9aB8cD7eF6gH5iJ4kL3mN2oP"),
    ("api key is Zk3mN8pQ2rS5tV7wX9yA1bC3dE5fG7h", "Zk3mN8pQ2rS5tV7wX9yA1bC3dE5fG7h"),
    ("here's the mistral key yqbN494PumgTPHQaIFVehY1bqPqZqwiW", "yqbN494PumgTPHQaIFVehY1bqPqZqwiW"),
    ("vercel token r5ETTcFyNfpbZzDsUBOj9Trv", "r5ETTcFyNfpbZzDsUBOj9Trv"),
    ("datadog api key e48978e7d21a0519d747f173e270c5e9", "e48978e7d21a0519d747f173e270c5e9"),
    ("la contraseña del wifi es gatito2024", "gatito2024"),
    ("mi pin es 7788", "7788"),
    ("와이파이 비밀번호는 qwer1234!야", "qwer1234!"),
    ("a senha do banco é Mudar@123", "Mudar@123"),
    ("le mot de passe est Soleil_77", "Soleil_77"),
    ("le code du portail chez Margaux c'est 5826", "5826"),
    ("studio wifi: HarbourNet / Plum447&kqz", "Plum447&kqz"),
    ("우리 집 도어락 번호는 8841", "8841"),
    ("maps api key (old project) 9C2E7A41B0D85F36A1E4C7B9D2F08A63", "9C2E7A41B0D85F36A1E4C7B9D2F08A63"),
    ("the token from the old runner env: q7Xw2LpR9sK4vB8nD1fH6jM3", "q7Xw2LpR9sK4vB8nD1fH6jM3"),
    ("le mot de passe admin c'est Brume!lac27", "Brume!lac27"),
    ("le mot de passe c'est Brume!lac27", "Brume!lac27"),
    ("la contraseña nueva es Nube#8841", "Nube#8841"),
    ("code secret: 5093", "5093"),
    ("le digicode c'est 5093", "5093"),
    ("ma carte bleue code 5093", "5093"),
    ("j'ai changé le mot de passe en Brume!lac27", "Brume!lac27"),
    ("cambié la contraseña a Nube#8841", "Nube#8841"),
    ("銀行のPIN 5093", "5093"),
    ("도어락 5093", "5093"),
    ("비번 알려줄게 Brume!lac27", "Brume!lac27"),
    ("パスワード教えるね Brume!lac27", "Brume!lac27"),
    ("garage opener code is 5093", "5093"),
    ("lockbox 5093, the key's inside", "5093"),
    ("security answer is Brume!lac27", "Brume!lac27"),
    ("it's Brume!lac27 for the wifi", "Brume!lac27"),
    ("Brume!lac27 — that's the wifi password", "Brume!lac27"),
    ("my login is ana.r@mail.example and Brume!lac27", "Brume!lac27"),
    ("netflix login ana.r@mail.example Brume!lac27", "Brume!lac27"),
    # Digits around a percent sign are no percentage (found by the property test).
    ("login is maria.s80 / 446%63", "446%63"),
    # Mixed x/X/* is no mask: a mask repeats one character.
    ("the wifi password is QxXX*418", "QxXX*418"),
    (
        "signing key we pulled off the build box: Hq3-Zr8_Tw1Kx5Yv0Lb7Nc2Md9Pf4Gs6Jj",
        "Hq3-Zr8_Tw1Kx5Yv0Lb7Nc2Md9Pf4Gs6Jj",
    ),
    ("와이파이 비번 새로 바꿨어 거실 공유기: Juniper47&kx", "Juniper47&kx"),
    # A Korean or Japanese key noun takes the English qualifier before it, as "api key" does.
    ("레이드 통계 twitch api 키 4C1E9A07D3B85F26E0A9C4D7B31F8E52", "4C1E9A07D3B85F26E0A9C4D7B31F8E52"),
    ("APIキーは 7d2b9e04c1a83f65e0b7d4c29a16f8e3 です", "7d2b9e04c1a83f65e0b7d4c29a16f8e3"),
    # ...and one of theirs reads as "secret" does: a hex value after it is no digest.
    ("결제 서버 비밀 키 0B7E2D4A6B8C1D2E3F4A5B6C7D9F3A1C 로 바꿈", "0B7E2D4A6B8C1D2E3F4A5B6C7D9F3A1C"),
    ("アクセスキーは e04c1a83f65e0b7d4c29a16f8e37d2b9", "e04c1a83f65e0b7d4c29a16f8e37d2b9"),
    # French, Spanish and Portuguese name the key's kind after the noun.
    ("ma clé api est 6B8C1D2E3F4A5B6C7D9F3A1C0B7E2D4A", "6B8C1D2E3F4A5B6C7D9F3A1C0B7E2D4A"),
    ("mi llave secreta es 3f65e0b7d4c29a16f8e37d2b9e04c1a8", "3f65e0b7d4c29a16f8e37d2b9e04c1a8"),
    ("der API-Schlüssel ist 1C0B7E2D4A6B8C1D2E3F4A5B6C7D9F3A", "1C0B7E2D4A6B8C1D2E3F4A5B6C7D9F3A"),
    # A Latin noun with a Korean particle glued on ends where the particle starts.
    ("가게 금고 PIN은 6082야, 잊지 마", "6082"),
    ("wifi password는 Lantern!77 이야", "Lantern!77"),
    ("카드 PIN번호 3391", "3391"),
    # The password half of a pair may be digits and a symbol only.
    ("login is ops7 / 793@67", "793@67"),
    # A value may open on "!" (a generated Django key); only "!Ref"-like words alone are YAML tags.
    ("DJANGO_SECRET_KEY=!k3x!9qf=2ba_+!c8z_+mnoply421*=w@kre", "!k3x!9qf=2ba_+!c8z_+mnoply421*=w@kre"),
    ("the banking app code is 551902", "551902"),
    # How many digits a Korean password has may sit between the noun and its value.
    ("카드 비밀번호 4자리는 7305 야, 자꾸 잊어", "7305"),
    ("창고 경보기 코드 6620", "6620"),
    ("el código del portón de la abuela es 3318", "3318"),
    # A command's login handed a key as long as no user name is.
    ("wandb login 7c1e9a07d3b85f26e0a9c4d7b31f8e52a4c6d8e0", "7c1e9a07d3b85f26e0a9c4d7b31f8e52a4c6d8e0"),
    ("el código de la puerta de casa de Inés es 9034", "9034"),
    ("das Passwort ist Sommer2024!", "Sommer2024!"),
    ("パスワードはsakura2024です", "sakura2024"),
    ("我的密码是 mima1234", "mima1234"),
    ("my password:\nhunter22\nthanks!", "hunter22"),
    ("my password is\nKettle!Drum88", "Kettle!Drum88"),
    ("changed the router password to\nW1ndmill#Hill", "W1ndmill#Hill"),
    ("define('DB_PASSWORD', 'Wp_Pass2024');", "Wp_Pass2024"),
    ("my gmail app password is abcd efgh ijkl mnop", "abcd efgh ijkl mnop"),
    (
        "made an app password for the mailer: qxvt rnom plkz hwbe, goes into the lambda env",
        "qxvt rnom plkz hwbe",
    ),
    ("메일 앱 비밀번호 새로 만들었어 wjqe bzno ltkr vuym 이걸로 설정해줘", "wjqe bzno ltkr vuym"),
    ("the card PIN for the household account we share with my brother is 530917, so I stop asking", "530917"),
    ("gym locker and my bank app password are the same haha: tqPwoZRnMe", "tqPwoZRnMe"),
    (
        "here's the cms token so you can check: "
        "9c1e77d04b2a6f3385e0c19ad7f42b6e0d13a5c8f9e2b71046ad3c5f8e9b0a12 why 401",
        "9c1e77d04b2a6f3385e0c19ad7f42b6e0d13a5c8f9e2b71046ad3c5f8e9b0a12",
    ),
    ("2fa backup codes: 8271-4402 9931-0087", "8271-4402 9931-0087"),
    ("the key for the wifi is sunflower2020", "sunflower2020"),
    # the value the credential was changed to; a year-like PIN that closes the clause
    ("Steam password changed to Heron318&kelp, writing it nowhere else", "Heron318&kelp"),
    ("the garage code was just reset to 6120", "6120"),
    ("router password updated to Quartz77pine", "Quartz77pine"),
    ("the locker combo and the bike pin are both 3391", "3391"),
    ("체크카드 비번 1994", "1994"),
    ("약국 포털 로그인 minseo.p / Larch204!fen", "Larch204!fen"),
    ("ログイン: kuroda / Larch204!fen", "Larch204!fen"),
    ("적금 통장 핀 6614 잊지 말기", "6614"),
    # a bare "the key" keeps its dashed value: only a lookup qualifier makes it an entry's name
    ("the key: live-api-7c2e9a41d0b38f65e1a4c7b9", "live-api-7c2e9a41d0b38f65e1a4c7b9"),
]

ASSIGNED = [
    ("DB_PASSWORD=Xk9mQ2pL7nR4", "Xk9mQ2pL7nR4"),
    ("db_password: s3cr3tP@ss", "s3cr3tP@ss"),
    ('{"username": "svc", "password": "Rq8!vLm2Zx"}', "Rq8!vLm2Zx"),
    ('"client_secret": "Ab3De5Fg7Hj9Kl1Mn3Pq5Rs7Tv9Wx1Yz3"', "Ab3De5Fg7Hj9Kl1Mn3Pq5Rs7Tv9Wx1Yz3"),
    ("PGPASSWORD=pgpass2024 psql -h db", "pgpass2024"),
    ("apiKey: 'Zq8vN1cLx0Tn4Rk7Bw2Yd5Hf9Jm3Pe6U',", "Zq8vN1cLx0Tn4Rk7Bw2Yd5Hf9Jm3Pe6U"),
    ("x-api-key: Zq8vN1cLx0Tn4Rk7Bw2Yd5Hf9Jm3Pe6U", "Zq8vN1cLx0Tn4Rk7Bw2Yd5Hf9Jm3Pe6U"),
    ("TWILIO_AUTH_TOKEN=b11d5800ca3a166713a0556bb475e9ed", "b11d5800ca3a166713a0556bb475e9ed"),
    ("HEROKU_API_KEY=01234567-89ab-4cde-8f01-23456789abcd", "01234567-89ab-4cde-8f01-23456789abcd"),
    ("<password>6Z3NzSVno</password>", "6Z3NzSVno"),
    ("Server=sql01;User ID=sa;Password=Pa55w0rd!x;Encrypt=True;", "Pa55w0rd!x"),
]

COMMAND_LINES = [
    ("curl -u admin:RnzjYgC!0Km^Xn https://jenkins.example.com/api/json", "RnzjYgC!0Km^Xn"),
    ("curl --user 'ops:Gr4f!ana22' https://grafana.example.net", "Gr4f!ana22"),
    ("mysqldump --user=backup --password=Bk9!up22 shop > shop.sql", "Bk9!up22"),
    ("mysql -h db -u root -pS3cr3tRoot analytics", "S3cr3tRoot"),
    ("sshpass -p '-IE5^HOLQg#F' ssh admin@10.0.0.7", "-IE5^HOLQg#F"),
    ("redis-cli -h cache -a Sup3rS3cret! ping", "Sup3rS3cret!"),
    ("docker login registry.example.com -u bot -p Rg7kLm2Qz9", "Rg7kLm2Qz9"),
    ("Authorization: Basic c3ZjLWJvdDo0N1Y0dzd5cFchcUdnamM0", "c3ZjLWJvdDo0N1Y0dzd5cFchcUdnamM0"),
    ("-H 'Authorization: Bearer Zq8vN1cLx0Tn4Rk7Bw2Yd5Hf9Jm3Pe6U'", "Zq8vN1cLx0Tn4Rk7Bw2Yd5Hf9Jm3Pe6U"),
    # A scheme the detector has no name for still leads to the credential, and a short token with
    # words after it is not taken for a scheme.
    ("authorization: Vb7Qm2Xc9Lp4Zt6W then paste the rest", "Vb7Qm2Xc9Lp4Zt6W"),
    ("Authorization: KakaoAK 5d0c9e3fa1b7264e8c3d9f0a2b6e4c71", "5d0c9e3fa1b7264e8c3d9f0a2b6e4c71"),
    (
        "headers: {authorization: 'Zoho-oauthtoken 1000.7fa2c9e04b.d83e61f5a0c27b94'}",
        "1000.7fa2c9e04b.d83e61f5a0c27b94",
    ),
    # "admin key" in Korean, spaced and glued: an admin's key is a credential, not a digest.
    ("알림톡 보낼 때 쓰는 어드민 키 9c41e07d2ab85f36c0d7e19a4b2f8e65", "9c41e07d2ab85f36c0d7e19a4b2f8e65"),
    ("관리자키 0b7e2d94c1a6f835e2c07d9b4a1f6e38 잊지 말기", "0b7e2d94c1a6f835e2c07d9b4a1f6e38"),
    ("got https://myapp.dev/callback?code=25db45963099c6a2ac0e&state=72AnrIaH6t", "25db45963099c6a2ac0e"),
    (
        "https://app.example.com/#access_token=Zq8vN1cLx0Tn4Rk7Bw2Yd5Hf9J&token_type=Bearer",
        "Zq8vN1cLx0Tn4Rk7Bw2Yd5Hf9J",
    ),
    ("Cookie: sessionid=Zq8vN1cLx0Tn4Rk7Bw2Yd5Hf9Jm3Pe6U", "Zq8vN1cLx0Tn4Rk7Bw2Yd5Hf9Jm3Pe6U"),
    ("카드 비밀번호 6027 자꾸 까먹어서 적어둠", "6027"),
    ("router admin password 55120947 just so I have it somewhere", "55120947"),
    ("the studio wifi is Kx7-pine-42 if you need it for the setup guide", "Kx7-pine-42"),
    ("le code de mon téléphone c'est 482913", "482913"),
]

SEED_PHRASES = [
    "the crypto thing my cousin made me has these words, keep them here: velvet oyster canvas melody "
    "walnut ginger fabric lumber rocket napkin tennis oyster",
    "my wallet recovery phrase is artefact alien army approve ahead alarm always advance arm aim "
    "announce aisle",
    'MNEMONIC="canvas orbit melody walnut ginger fabric lumber rocket napkin velvet tennis oyster"',
    "mi frase semilla es olive planet rabbit ocean tiger violin magnet harbor lemon cactus frozen bamboo",
    "backup of my recovery words:\n1. canvas\n2. orbit\n3. melody\n4. walnut\n5. ginger\n6. fabric\n"
    "7. lumber\n8. rocket\n9. napkin\n10. velvet\n11. tennis\n12. oyster",
    # Named as the phrase, a run with words outside the BIP39 list (a typo, a phrase from memory).
    "keeping the trezor seed here for now: orbit velvet quarry thistle alien copper gadget lumber "
    "sparrow oyster ginger tundra",
    "지갑 시드 백업: alien planet harbor kettle fabric plumage orbit rocket sparrow velvet quarry tennis",
]


@pytest.mark.parametrize(("text", "secret"), STATED + ASSIGNED + COMMAND_LINES)
def test_stated_credential_value_is_redacted_alone(text: str, secret: str) -> None:
    redacted = redact(text)

    assert secret not in redacted.text
    start = text.index(secret)
    assert redacted.text.startswith(text[:start])
    assert redacted.text.endswith(text[start + len(secret) :])


@pytest.mark.parametrize("text", SEED_PHRASES)
def test_seed_phrase_is_redacted_whole(text: str) -> None:
    redacted = redact(text)

    assert redacted.kinds == ["seed_phrase"]
    for word in ("orbit", "alien", "planet"):
        if word in text:
            assert word not in redacted.text


HARD_NEGATIVES = [
    "the password for the router, it is on the sticker",
    "my api key, its in 1password now",
    "API key (optional) goes in the header",
    "the PIN (4 digits) is on the back of the card",
    "DB_PASSWORD는 환경변수로 넣었어",
    "API_TOKEN이 만료됐어, 재발급 필요",
    "PASSWORD=<your password>",
    "api_key: <paste it here> then run make deploy",
    "send the 2024 report to ana@example.org / or ping me on slack",
    "the new mesh wifi is 2.4 / 5 GHz dual band",
    "my password is\nnot something I share",
    "the cache key orders:v2:9f3c1a77e0b24d51 expires after an hour",
    "the analytics project key is phc_Wm3Tq9ZrB6yKc2Lp8Vn4Hs7Dx1Ja5Ge0Uf, it ships in the browser",
    "the quickstart page's demo key is pk_test_Qm8Zr2Lx7Vc4Nb1Hs9Dk3Tf",
    "error code 482913 keeps popping up on my phone",
    "the wifi is down again, third time today",
    "password 2025 rotation is on the ops calendar",
    "guest wifi network name is CasaVerde_Guest_5G, the password is on the router sticker",
    "the discord bot is named GridlockHelper_v2_prod, its token lives in doppler",
    "my password manager generated something long, I'll type it in myself",
    "I changed my password to something stronger yesterday",
    "the password is stored in 1password under router",
    "the password is incorrect, it says",
    "password must be at least 12 characters long",
    "password: ********",
    "password: changeme",
    "password: ${DB_PASSWORD}",
    "password = os.environ['DB_PASSWORD']",
    "password = getpass.getpass()",
    "DB_PASSWORD_FILE=/run/secrets/db_password",
    "PASSWORD_MIN_LENGTH=12",
    "the key takeaway is that caching matters",
    "the key is to keep the prompts short and specific",
    "the primary key is user_id and the sort key is created_at",
    "cache key: user:42:profile",
    "key: ${{ runner.os }}-pip-${{ hashFiles('**/requirements.txt') }}",
    "API key rotation happens every 90 days",
    "api key id: 3f1c2a9e-7b4d-4e8f-9a0b-1c2d3e4f5a6b",
    "the token limit is 128k for that model",
    "usage: prompt_tokens=1532, completion_tokens=402, total_tokens=1934",
    "max_tokens: 4096",
    "token_type: bearer",
    "pass the token to the next middleware before calling verify()",
    "the secret is patience and lots of butter",
    "my PIN is the same as my old card",
    "pin the dependency to 2.31.0",
    "the pin on the GPIO header is 17",
    "the error code is 0x80070005 and the zip code is 10001",
    "door code changed last week, ask the landlord",
    "the tablet code is on the fridge, ask Mira",
    "set OPENAI_API_KEY=$OPENAI_API_KEY in your shell, never paste it here",
    "NPM_TOKEN: ${{ secrets.NPM_TOKEN }}",
    "const key = process.env.STRIPE_SECRET_KEY;",
    'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user',
    "Authorization: Bearer <token>",
    "Authorization: see the gateway docs first",
    "is the payments client key public? live_ck_Xq2Wm8Lp4Zr6Tn1Bv9Kd3Hs7Jf5Gc0Ae, it is in the page",
    "mysql -u root -p",
    "ssh -p 2222 deploy@bastion.example.com",
    "docker run -p 8080:80 -e API_KEY=$API_KEY nginx",
    "the token refresh fix landed in 1f25b5a6bde55814ab36979d3749c460255d78d6",
    "token hash sha256:9f86d081884c7d659a2feaea0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a0",
    "the key file is at ~/.ssh/id_ed25519, the token in /var/run/secrets/kubernetes.io/serviceaccount/token",
    "upgrade secret-manager to v1.12.3 and token-utils to 2.14.0",
    "npm i @octokit/auth-token@4.0.0 jsonwebtoken@9.0.2",
    "secret arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf",
    "the seed phrase is written on paper in my safe and I never typed it anywhere",
    "비밀번호를 잊어버렸어요. 어떻게 재설정하나요?",
    "olvidé mi contraseña otra vez, ¿cómo la cambio?",
    "idempotency key 01J8XK2M4N6P8Q0R2S4T6V8W0Y",
    "빌드 cache 키 5E0B7D4C29A16F8E37D2B9E04C1A83F6 는 매번 바뀜",
    "ma clé api est dans le coffre, je te la donne demain",
    "la clé privée est sur ma clé usb",
    "파일 해시 5E0B7D4C29A16F8E37D2B9E04C1A83F6 확인함",
    "der Schlüssel liegt unter der Matte",
    "PIN은 아직 안 정했어",
    "PIN 새로 만들어야 해",
    "how do i make an app password for outlook and use it with thunderbird",
    "the key takeaway from the talk: ship smaller",
    "the password for the router in the hallway is on the sticker",
    "my token expired again, error: invalid_grant",
    "the password is strong: it has 12 chars",
    "the api token is kept as a sha256 digest: "
    "9f2c44e1b0a7d3c5e6f8a9b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1",
    "와이파이 비번 바꿨어. 이제 옆집도 못 씀",
    "비밀번호 다시 설정해야 함",
    "the password is 111111 on every demo box, that's the point of a demo",
    "docker login registry.gitlab.example.com keeps timing out",
    "we use the hashed key 5e0b7d4c29a16f8e37d2b9e04c1a83f65e0b7d4c29a16f8e37d2b9e04c1a83f6",
    "경보기 코드 바꿔야 함",
    "license keys are ed25519-signed payloads, base32 encoded, checked offline",
    "password: !vault |",
    "ApiKey: !Ref ApiKeyParam",
    "room #4012 on floor 3, ticket #12345 is closed",
    "sso login redirect_uri_mismatch_error again",
    "password는 나중에 알려줄게",
    "password changed to something I can actually type lol",
    "the wifi password was set to expire after 30 days",
    "password policy updated to require a symbol",
    "admin password rotated to the vault on friday",
    "비번 1994년에 처음 만들었나",
    "password 2025 rotation is next week",
    "cache key: sidebar-v7-4e1f0a9c3b7d2e58",
    "page token: next-page-6b1d8e2f9a0c4e7b3d5f",
    "로그인 안 되는데 세션 문제인가",
    "공지 핀 고정해둠",
    "헤어핀 4개 샀어",
    "sample key from the vendor docs: ZX-DEMO-0000-0000-0000",
    "le mot de passe c'est celui d'avant",
    "la contraseña es esa de siempre",
    "the password policy is strict",
    "cambié la contraseña a algo más fácil",
    "j'ai changé le mot de passe en urgence",
    "le code secret de la recette c'est le beurre",
    "비번 알려줄게 내일 만나서",
    "도어락 배터리 4개 샀어",
    "GitHubのtoken設定を見直す",
    "HomeNet5G is the wifi",
    "HomeNet5G — that's the wifi",
    "the lockbox is on the porch",
    "security answer questions are useless",
    "my login is ana.r@mail.example and it works",
    "login ana.r@mail.example via google",
    "bike lock 2024 model is better",
    "도어락 2024년형으로 바꿨어",
    "the pin on the map is 4471 km away",
    "code secret 2024 édition",
    "conversion went from 12.5% to 14%, login is fine",
    "trace from the failed call: request_id=Tq8Wm3Rz7Kp2Lx9Vn4Bc",
]


@pytest.mark.parametrize("text", HARD_NEGATIVES)
def test_hard_negative_is_not_a_secret(text: str) -> None:
    assert find_secrets(text) == []
