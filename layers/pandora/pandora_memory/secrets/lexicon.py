"""Word lists of the context rules. The detector is its own component, so its lexicons live here.

Every list is about the *shape of language around a credential*, not about particular examples:
credential nouns (several languages), words that turn a credential noun into a non-secret
(``key_id``, ``token_count``), values that are placeholders, and English words that follow
"password is" without being a password ("expired", "wrong", "in the vault").
"""


def _words(text: str) -> frozenset[str]:
    """A word list written as whitespace-separated text (multi-word entries are listed apart)."""
    return frozenset(text.split())


# Credential nouns ("heads") and the family that decides what their value must look like.
#   password: any non-placeholder value; pin: digits; code: only after a qualifier (door code);
#   key/token/secret/credential: a credential-looking value; pass/auth/dsn: only as `name = value`.
_PASSWORD_HEADS = _words(
    """
    password passwords passwd passphrase pwd pw contraseña contrasena contraseñas clave senha mdp
    passwort kennwort wachtwoord hasło haslo lösenord salasana şifre sifre parola heslo пароль 비밀번호
    비번 암호 패스워드 パスワード 密码 密碼 口令
    """
) | {"mot de passe"}
HEAD_FAMILIES: dict[str, str] = {
    **dict.fromkeys(_PASSWORD_HEADS, "password"),
    **dict.fromkeys(_words("pin passcode 핀번호 暗証番号"), "pin"),
    **dict.fromkeys(_words("code codes combination combo otp 인증번호 인증코드"), "code"),
    **dict.fromkeys(_words("key keys apikey llave chave 키 キー"), "key"),
    **dict.fromkeys(_words("token tokens 토큰 トークン 令牌"), "token"),
    **dict.fromkeys(_words("secret secrets 시크릿 密钥 秘密鍵 비밀키 인증키"), "secret"),
    **dict.fromkeys(_words("credential credentials creds 자격증명"), "credential"),
    **dict.fromkeys(_words("pass"), "pass"),
    **dict.fromkeys(_words("auth dsn"), "auth"),
}

# Heads long enough to be found inside an identifier without a separator (PGPASSWORD, MYSECRET).
EMBEDDABLE_HEADS: frozenset[str] = _words(
    """
    apikey credential credentials passcode passphrase passwd password passwords secret secrets token
    tokens
    """
)

# Qualifiers that make "code" a code that opens something ("door code", "2fa code").
CODE_QUALIFIERS: frozenset[str] = _words(
    """
    router network car
    2fa access admin alarm apartment auth authentication authorization backup bike building
    combination confirmation door elevator entry front garage gate gym house keypad lock lockbox
    locker login master mfa office onetime otp padlock parking pass passcode pin recovery safe
    security sms time totp unlock vault verification wifi
    """
)

# Words before "key" that leave it unqualified ("the key is ..."): only random-looking values count.
DETERMINERS: frozenset[str] = _words(
    """
    a an another any das der die each el every her his is its la le mi my new no old one other our
    same su that the their this tu what which your
    """
)

# An identifier ending in one of these names something *about* a credential, not the credential.
NON_SECRET_SUFFIXES: frozenset[str] = _words(
    """
    age alg algorithm anon arn at aud audience backend button change check checks class client
    column count created date desc description digest dir duration enabled endpoint env error errors
    exp expiration expires expiry field file filename files fingerprint flow form format handler
    hash hashed header hint host id ids idx index input issuer iterations kind label len length
    level lifetime limit limits link location manager max message method methods mgr min mock mode
    module msg name names page param path paths pattern placeholder policy prefix provider pub
    public publishable ref regex region required reset rotation rounds rules salt schema scope
    scopes service sid size source spec status store strength style suffix table test tests text
    time timeout ttl type types updated uri url urls usage valid validation validator var version
    """
)

# Components that, when any of them is in an identifier, mark it as public by convention.
PUBLIC_COMPONENTS: frozenset[str] = _words(
    """
    anon pk pub public publishable
    """
)

# Qualifiers that turn "key" / "token" into a non-credential (cache_key, page_token, max_tokens).
WEAK_QUALIFIERS: frozenset[str] = _words(
    """
    correlation request trace tracking transaction idempotence
    anon bos bucket cache cancel cancellation cls color colour completion composite continuation css
    cursor dedup dedupe design dict dynamo eos event file foreign gpg group hash host hot i18n
    idempotency index input item kv lexer list locale lookup map mask max menu message music natural
    next object output pad page pagination parser partition pgp piano primary prompt pub public
    publishable range react redis registry resume routing row s3 sep shard short shortcut sort
    special ssh surrogate sync theme total translation unique unk
    """
)

# Values that stand for a credential without being one.
PLACEHOLDER_WORDS: frozenset[str] = _words(
    """
    api_key apikey bar baz blank change-me change_me changeme default dummy empty example false
    fixme foo foobar hidden key my_secret mysecret n/a na nil no none not_a_secret notasecret null
    off on optional pass passwd password placeholder qux redacted removed replace-me replace_me
    replaceme required sample secret secret_value str string tbd test testing todo token true
    undefined value yes your_secret
    """
)

# Substrings that mark a value as a placeholder wherever they appear (case-insensitive); masks
# (xxxx, ****, ••••) are judged by their length in `values.is_placeholder`.
PLACEHOLDER_SUBSTRINGS: tuple[str, ...] = (
    "...",
    "…",
    "<",
    ">",
    "{{",
    "example",
    "placeholder",
    "changeme",
    "change_me",
    "replace_me",
    "redacted",
)

# A value made only of these words (split on _ - . and case humps) is a template, not a secret:
# YOUR_API_KEY, insert-token-here, my_secret_key, api_key.
PLACEHOLDER_COMPONENTS: frozenset[str] = _words(
    """
    a access actual add admin api app auth client database db default dev dummy enter env fake goes
    here id insert key keys live my name new own pass passwd password paste private prod put pw pwd
    real replace root sample secret some string test the token user username value var with your
    """
)

# ...but a template always names the reader: "your" alone is enough, even next to a provider name.
PLACEHOLDER_SIGNAL_COMPONENTS: frozenset[str] = _words(
    """
    here insert replace your yours
    """
)

# Password managers and vaults: "the password is in 1password" names where, not what.
VAULT_WORDS: frozenset[str] = _words(
    """
    1password bitwarden dashlane keepass keepassxc keychain lastpass onepassword passbolt proton
    secretsmanager ssm vault vaultwarden
    """
)

# English words that follow "password is" / "token:" in ordinary talk about credentials.
ENGLISH_NON_VALUES: frozenset[str] = _words(
    """
    unique mandatory obligatory compulsory confidential important critical identical similar shorter
    longer stronger weaker better worse easier harder simpler predictable guessable memorable
    obvious common popular trivial outdated stale current valid active enforced configurable
    editable elsewhere nowhere included manual useless pointless irrelevant different separate
    shared personal mine yours ours theirs his hers whatever anything everything something nothing
    there here
    a about above accepted active actual after again all alphanumeric already also always an and any
    anything api app apple are as ascii asking at attached authenticator auto automatic
    automatically bad base64 basic basically be bearer because been before being below blank blocked
    both broken but by cache cached case case-sensitive changed changing characters chars check
    cleartext complex complicated compromised config configured correct de default definitely denied
    different digits disabled disk done during each easy eight either el email empty en enabled
    encrypted enough env environment es est ever every expired expires expiring exposed fake field
    file files fine first five fixed following for forgotten four from generated github global gone
    good google great hard hardware hashed her here hex hidden his how if in inactive incorrect
    insecure inside into invalid is ist it its just jwt key keys known la last ldap leaked least
    less letters like listed literally local locked long lost lowercase manager memory mi microsoft
    missing mixed more most muito muy my necessary needed neither never new next nil no none normal
    not nothing now null number numeric oauth oauth2 of often ok okay old on one only onto optional
    or our over password passwords per permanent personal phone plain plaintext please policy
    printed private probably prompt protected public que random rarely ready real rejected remote
    required reset revoked right rotated rotating safe same same-as saml saved second secret secrets
    secure see sensitive sent set shared short shown simple since six sms so software some something
    sometimes somewhere sso standard still stored string strong stuck su supposed taped temporary
    ten text than thanks that the their then there these this those three to token tokens too tu
    twelve two unchanged undefined under unicode unknown unless unlocked unsafe unset until updated
    upon uppercase use using usual usually utf-8 valid value very via visible was weak what whatever
    when where which while who why with without words working written wrong yes yet your yubikey
    """
)

# Words that mark a seed / recovery phrase nearby.
SEED_CONTEXT_WORDS: tuple[str, ...] = (
    "seed",
    "mnemonic",
    "recovery",
    "wallet",
    "metamask",
    "ledger",
    "trezor",
    "phantom",
    "restore",
    "secret phrase",
    "backup phrase",
    "backup words",
    "12 words",
    "24 words",
    "12-word",
    "24-word",
    "frase semilla",
    "frase de recuperación",
    "frase de recuperacion",
    "palabras de recuperación",
    "시드",
    "복구",
    "니모닉",
    "助记词",
    "シード",
)
