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
    senhas wachtwoorden hasła lösenordet adgangskode passord salasanani şifrem şifresi sifrem
    sifresi parolam parolasi geslo lozinka пароля паролем
    şifreniz şifreyi şifremi şifreler şifreleri parolası parolayı parolanız пароли паролей пасс
    lösen lösn salasanaa salasanan salasanat salis sandi sandinya
    jelszó jelszo jelszót jelszava heslem hesla passwrod paswword passwword الباسورد باسورد passordet
    पासवर्ड κωδικός κωδικό κωδικού κωδ συνθηματικό kodikos kodiko kwdikos kwd
    parolă parolei parolele รหัสผ่าน พาสเวิร์ด พาสเวิด rahatphan
    סיסמה סיסמא ססמה סיסמת סיסמאות סיסמתי رمز رمزم رمزش رمزشو رمزمو گذرواژه پسورد پسوردم پسوردش
    ramz ramze ramzam ramzesh ramzamo passwordam passwordesh nenosiri پاسورڈ পাসওয়ার্ড পাসওয়ার্ডটা
    sifremi sifreyi sifreniz sifreleri mk パス ciec
    """
) | {
    "mot de passe",
    "mots de passe",
    "kata sandi",
    "mật khẩu",
    "كلمة السر",
    "كلمة المرور",
    "mat khau",
    "kata laluan",
    "ra-hat phan",
    "rahat phan",
    "ra hat phan",
    "رمز عبور",
    "ramze oboor",
    "ramz e oboor",
    "neno la siri",
    "پاس ورڈ",
    "קוד סודי",
    # Answers that stand in for a password on account recovery.
    "security answer",
    "security answers",
    "secret answer",
    "memorable word",
    "memorable information",
    "maiden name",
    "mother's maiden name",
    "mothers maiden name",
    "first pet",
    "first pet's name",
    "master password",
}
# Words for a code that opens something, in the languages of the password words: still qualified
# ("código do alarme", "kod do drzwi"), except compounds that carry their qualifier (Türcode).
_CODE_HEADS = _words(
    """
    code codes combination combo otp 인증번호 인증코드
    código codigo códigos codigos codice codici kod kodu kodun koden код кода
    kodları kodlar kodum коды кодом коду
    kode koder koodi koodin koodit mã
    kód kódja kódot kódu kódem kódy كود الكود
    cod codul codului codu รหัส rahat ra-hat קוד הקוד کد کدش cód کوڈ কোড
    kodlarim kodlarım
    """
)
# Compounds of "code" that say what they open (German, Dutch): found as "code" inside a word, so
# the head trie keeps few first letters, then accepted when the whole word is listed here.
SELF_QUALIFIED_CODE_WORDS: frozenset[str] = _words(
    """
    zugangscode türcode tuercode torcode alarmcode sicherheitscode tresorcode haustürcode garagencode
    entsperrcode pincode toegangscode deurcode kluiscode zahlencode
    """
)
# Things opened by a number alone: "lockbox 4471", "the key safe at the flat is 2298", "back door keypad
# is 086002#". A combination lock may take three digits ("the lockbox at the rehearsal space is 127").
LOCK_HEADS: frozenset[str] = frozenset(
    {
        *("lockbox", "lock box", "key box", "keybox", "key safe", "keysafe", "key-safe", "keypad"),
        *("bike lock", "padlock", "padlock combo", "locker combo", "lock combo"),
        *("combination lock", "lock combination", "bike lock combo", "combo lock"),
        # Polish: a safe, a combination; Japanese: a safe's and a padlock's number.
        *("sejf", "szyfr", "金庫の番号", "南京錠の番号", "金庫番号"),
        # A safe by where it stands or what it holds ("the safe in the closet is 36-14-52").
        *("the safe", "my safe", "wall safe", "gun safe", "floor safe", "hotel safe", "office safe"),
    }
)
LOCK_MIN_DIGITS = 3

HEAD_FAMILIES: dict[str, str] = {
    **dict.fromkeys(_PASSWORD_HEADS, "password"),
    **dict.fromkeys(_words("pin passcode 핀 핀번호 pin번호 暗証番号 도어락번호 현관번호 도어락"), "pin"),
    # A mobile or telephone banking PIN, and the shared front door of a Korean apartment block, which
    # opens on a number alone ("공동현관 #8676").
    **dict.fromkeys(("mpin", "tpin", "공동현관"), "pin"),
    # A meeting's host key, a Polish BLIK payment code, Turkish "my PIN".
    **dict.fromkeys(("host key", "ホストキー", "blik", "pinim", "pinimi", "e-pin", "epin"), "pin"),
    # Japanese and Hindi glue "code" to what it opens: the compounds are the heads.
    **dict.fromkeys(
        (
            *("解除コード", "ゲートのコード", "回復コード", "バックアップコード", "認証コード", "確認コード"),
            *("暗証コード", "パスコード", "ロック解除コード", "ドアのコード", "玄関のコード"),
            *("लॉकर बॉक्स कोड", "लॉकर कोड", "गेट कोड", "दरवाज़े का कोड", "तिजोरी का कोड", "अलार्म कोड"),
        ),
        "pin",
    ),
    # Quebec French names a PIN "NIP" (numéro d'identification personnel); alone, "NIP" is the Polish
    # tax number, which is no secret.
    **dict.fromkeys(
        ("mon nip", "ton nip", "son nip", "votre nip", "notre nip", "le nip", "nip de carte"), "pin"
    ),
    # ...and so does Mexican Spanish.
    **dict.fromkeys(("mi nip", "tu nip", "su nip", "el nip", "nip de la", "nip del", "nip de mi"), "pin"),
    # Korean: a disarm code, a door lock's master number, a one-time code, a recovery code.
    **dict.fromkeys(
        (
            "해제 코드",
            "해제코드",
            "마스터 번호",
            "마스터번호",
            "일회용 코드",
            "일회용코드",
            "복구코드",
            "복구 코드",
        ),
        "pin",
    ),
    # Korean says "door-lock number" for a door code: the number word alone names nothing.
    **dict.fromkeys(("도어락 번호", "현관 번호", "현관문 번호", "공동현관 번호", "pin 번호"), "pin"),
    # ...and a code by what it opens: "경보기 코드 4821" (the alarm code).
    **dict.fromkeys(("경보기 코드", "경보 코드", "출입 코드", "보안 코드", "금고 코드", "현관 코드"), "pin"),
    **dict.fromkeys(("도어락 코드", "대문 코드", "공동현관 코드", "출입문 코드"), "pin"),
    # Things opened by a number alone: "lockbox 4471", "bike lock 0412".
    **dict.fromkeys(LOCK_HEADS, "pin"),
    # A phone's lock screen: "폰 잠금 449209로 바꿈".
    **dict.fromkeys(("잠금", "잠금번호", "잠금 번호", "잠금 비번"), "pin"),
    # A code named secret or confidential, and the French door keypad: "code secret: 7391", "digicode".
    **dict.fromkeys(
        (
            "code secret",
            "code confidentiel",
            "código secreto",
            "codigo secreto",
            "codice segreto",
            "digicode",
        ),
        "pin",
    ),
    **dict.fromkeys(_CODE_HEADS, "code"),
    **dict.fromkeys(_words("pin-code pinkod pinkodu пин пин-код пинкод пин-кода"), "pin"),
    # Finnish and Swedish PIN words, and a Finnish bank's numbered key list ("tunnusluvut").
    **dict.fromkeys(
        _words("pin-koodi pinkoodi puk-koodi pukkoodi pin-kod pinkoden tunnusluku tunnusluvut"), "pin"
    ),
    **dict.fromkeys(("pin kód", "pin-kód", "pinkód", "رقم سر", "رقم السر", "الرقم السري"), "pin"),
    # Internet-banking PINs, and Hindi written in Devanagari.
    **dict.fromkeys(("ipin", "पिन", "पिन कोड", "پن", "پن کوڈ", "পিন", "পিন কোড"), "pin"),
    **dict.fromkeys(_words("authkey auth_key"), "token"),
    **dict.fromkeys(
        _words("key keys apikey llave chave clé clés schlüssel 키 キー ключ ключа ключи คีย์"), "key"
    ),
    # "tkn" is how people abbreviate it in a hurry ("cloudflare api tkn: ...").
    **dict.fromkeys(_words("token tokens tkn 토큰 トークン 令牌 токен токена токены"), "token"),
    **dict.fromkeys(_words("secret secrets 시크릿 密钥 秘密鍵 비밀키 인증키 secretul секрет totp"), "secret"),
    **dict.fromkeys(_words("credential credentials creds 자격증명"), "credential"),
    **dict.fromkeys(_words("pass"), "pass"),
    **dict.fromkeys(_words("auth dsn"), "auth"),
    **dict.fromkeys(_words("login logins logon signin sign-in 로그인 ログイン 登录 登錄"), "login"),
    # "the studio wifi is Kx7-pine-42": a network stated to *be* a value names its password.
    **dict.fromkeys(_words("wifi wi-fi wlan 와이파이"), "network"),
}

# Credential words of English (the rest are of other languages, whose copulas differ: hasło *to* ...).
ENGLISH_HEADS: frozenset[str] = (
    _words(
        """
    password passwords passwd passphrase pwd pw pin passcode code codes combination combo otp key keys
    apikey token tokens secret secrets credential credentials creds pass auth dsn login logins logon
    signin sign-in wifi wi-fi wlan
    """
    )
    | LOCK_HEADS
)

# Password words that may stand alone as a label: "user bob pass X", "pw X", "pwd: X".
PASSWORD_LABELS: frozenset[str] = _words("pass pw pwd passwd senha mdp")

# Words that name the user half of a credential pair ("user tidewell_ops pass X").
USER_LABELS: frozenset[str] = _words(
    """
    user username login usuario usuário utilisateur benutzer benutzername gebruiker utente kullanıcı
    uzytkownik użytkownik email e-mail mail id account acct
    """
)

# User names that, with ":" or "/" and a password-shaped value, make a pair on their own
# ("admin:Frost1ng for the router", "root/Tr1cky!"). Each is a literal trigger checked on every
# message, so the list stays short.
DEFAULT_USERS: frozenset[str] = _words(
    """
    admin administrator root guest
    """
)

# Heads long enough to be found inside an identifier without a separator (PGPASSWORD, MYSECRET).
EMBEDDABLE_HEADS: frozenset[str] = _words(
    """
    apikey credential credentials passcode passphrase passwd password passwords secret secrets token
    tokens
    """
)

# Things opened by a code: named anywhere earlier in the sentence, they make a later "code" theirs
# ("lockbox at birchwood for showings, code 9977").
LOCK_WORDS: frozenset[str] = _words(
    """
    lockbox keybox keypad padlock alarm vault door gate garage locker doorlock
    """
)
# ...unless the word right before "code" says it opens nothing ("error code", "promo code").
PLAIN_CODE_QUALIFIERS: frozenset[str] = _words(
    """
    error status exit zip postal post area country promo discount coupon referral product source
    firmware color colour dress tracking reference ref booking voucher invite gift tax response http
    qr bar html css sample example short shortcode language
    """
)

# Qualifiers that make "code" a code that opens something ("door code", "2fa code").
CODE_QUALIFIERS: frozenset[str] = _words(
    """
    router network car
    2fa access admin alarm apartment auth authentication authorization backup bike building
    combination confirmation door elevator entry front garage gate gym house keypad lock lockbox
    locker login master mfa office onetime otp padlock parking pass passcode pin recovery safe
    security sms time totp unlock vault verification wifi parental restrictions restriction screen
    phone tablet ipad laptop kids child control app bank banking bleue cb opener remote keyless
    alarme alarma allarme allarmi portão portao portão porta portas puerta portal porte portail portón porton
    cancello cancelo tür tuer tor haustür garagem garaje garagentor cofre caja coffre tresor
    cassaforte kluis deur acesso acceso accès acces accesso entrada entrée entree ingresso eingang
    prédio predio edificio edifício immeuble bâtiment batiment gebäude casa maison haus huis
    domofonu domofon drzwi bramy sejfu alarmu kapı kapi alarmın alarmin kasa домофона двери сейфа
    сигнализации подъезда ворот bancomat cartão cartao tarjeta carte karte kaart cadeado candado
    cadenas lucchetto vorhängeschloss segurança seguridad sécurité securite sicurezza sicherheit
    verificação verificacion verificación vérification verifica desbloqueio desbloqueo
    déverrouillage armario armário taquilla casier spind lucchetto cajero portone portoncino
    citofono interfone interfono intercom porteiro portier recuperacion recuperación respaldo
    immobilizer immobiliser szlabanu szlaban furtki bramki skrzynki szafki garażu garazu klatki
    kasadaki kasanın kasanin
    phone iphone ipad mobile cell cellphone laptop computer tablet screen lockscreen sim card debit
    téléphone telephone telefone teléfono telefono móvil movil celular portable handy ordinateur
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

# Korean and Japanese words before 키 / キー that make it a credential key ("비밀 키", "アクセスキー"):
# read like "secret" before "key", so a hex value after them is a token rather than a digest.
OTHER_SCRIPT_KEY_QUALIFIERS: tuple[str, ...] = tuple(
    _words(
        """
        시크릿 비밀 액세스 접근 인증 개인 서명 어드민 관리자 마스터
        秘密 アクセス 認証 シークレット プライベート 管理者 マスター
        """
    )
)

# Names of algorithms, encodings and architectures that read as a word beside another one
# ("ed25519-signed payloads", "sha256-digest"): letters and digits, yet no credential.
TECHNICAL_NAMES: frozenset[str] = _words(
    """
    ed25519 ed448 x25519 sha1 sha224 sha256 sha384 sha512 md5 aes128 aes256 rsa2048 rsa4096 hs256
    hs512 rs256 es256 p256 secp256k1 utf8 utf16 base32 base58 base64 x86 x64 arm64 h264 h265 ipv4 ipv6
    """
)

# Qualifiers that turn "key" / "token" into a non-credential (cache_key, page_token, max_tokens).
WEAK_QUALIFIERS: frozenset[str] = _words(
    """
    correlation request trace tracking transaction idempotence
    anon bos bucket cache cancel cancellation cls color colour completion composite continuation css
    cursor dedup dedupe design dict dynamo eos event file foreign gpg group hash hashed host hot i18n
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
    undefined value yes your_secret x-oauth-basic x-access-token
    """
)

# Substrings that mark a value as a placeholder wherever they appear (case-insensitive); masks
# (xxxx, ****, ••••) are judged by their length in `values.is_placeholder`.
PLACEHOLDER_SUBSTRINGS: tuple[str, ...] = (
    "...",
    "…",
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
    demo here insert replace sample your yours
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
    obvious common popular trivial outdated stale current valid active enforced configurable back
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

# The same talk in the other languages of the password words ("das Passwort ist abgelaufen", "le mot
# de passe est trop court"): articles, adverbs and the adjectives and participles said of a password.
OTHER_LANGUAGE_NON_VALUES: frozenset[str] = _words(
    """
    der die das den dem des ein eine einer dein deine mein meine unser unsere nicht kein keine noch
    schon jetzt immer zu sehr hier dort da im in auf bei mit ohne abgelaufen falsch geändert geaendert
    vergessen gesperrt neu alt leer richtig sicher unsicher gleich geheim korrekt ungültig gültig kurz
    lang schwach stark einfach zurückgesetzt erforderlich notwendig wichtig irgendwo woanders
    le la les un une des du dans sur sous pas plus encore toujours déjà deja nouveau nouvelle ancien
    ancienne vide obligatoire sécurisé securise faible fort forte court courte long longue simple
    même meme différent different ici là quelque mon ton son notre votre trop très tres expiré expire
    expirée incorrect incorrecte oublié oublie changé change modifié faux fausse bloqué bloque perdu
    el los las una unos en muy demasiado aquí aqui allí alli todavía todavia ya mi tu su nuestra
    nuestro vacía vacia caducada caducado incorrecta incorrecto olvidada cambiada bloqueada débil
    debil fuerte corta larga segura seguro obligatoria nueva nuevo vieja viejo misma mismo distinta
    diferente secreta secreto
    celui celle ceux ça ca quoi pareil pareille noté note écrit ecrit dessus dedans compliqué complique
    ese esa eso igual apuntada apuntado escrita escrito complicada complicado cual cuál
    o a os as um uma no na nos nas em muito aqui ali ainda já minha meu sua seu vazia expirou expirada
    errada errado incorreta esquecida alterada bloqueada fraca curta longa obrigatória obrigatoria nova
    velha mesma está esta fica
    il lo gli un nel nella sul sulla molto troppo qui ancora già gia mia tua vuota scaduta sbagliata
    errata dimenticata cambiata bloccata debole lunga sicura obbligatoria nuova vecchia stessa diversa
    het een op te erg heel nog al mijn jouw leeg verlopen vergeten fout gewijzigd veranderd
    geblokkeerd zwak sterk kort veilig verplicht nieuw oud hetzelfde anders onjuist ongeldig
    jest nie jeszcze już juz za bardzo tutaj moje nowe stare błędne bledne zmienione
    är inte också redan mitt ditt nytt gammalt fel
    on ei vielä jo uusi vanha väärä
    je není nové staré špatně
    bta3 beta3 bta3et bta3t 3ala 3shan 3ashan ya3ni ma3a 7aga 7agat fe fel lel el di da
    a az nem új régi rossz már még ez
    """
)

# Calls whose arguments are a user and a password (or a key and a secret), by position.
PAIR_CALLS: frozenset[str] = _words(
    """
    httpbasicauth httpdigestauth httpproxyauth basicauth digestauth basic_auth login authenticate
    auth oauthhandler oauth1 oauth1session set_access_token networkcredential
    usernamepasswordcredentials usernamepasswordcredential passwordauthentication plainauthenticator
    simplecredentials credentials basiccredentials staticcredentialsprovider awsstaticcredentials
    basicawscredentials setcredentials set_credentials withcredentials smtp_login starttls_login
    """
)

# A tuple given to one of these keywords is a (user, password) pair: auth=('svc', '...').
PAIR_KEYWORDS: frozenset[str] = frozenset(
    f"{word}="
    for word in _words("auth http_auth basic_auth proxy_auth credentials creds login user_pass userpass")
)

# SDK clients built from positional keys: new Stripe('...'), Pusher(app_id, key, secret).
SDK_CLIENTS: frozenset[str] = _words(
    """
    client restclient twiliorestclient twilio stripe pusher mailjet mailgun algoliasearch
    searchclient razorpay braintreegateway openai anthropic cohere groq mistral mistralclient pinecone
    replicate octokit webclient minio sendgridapiclient sendgrid shopify coinbase binance kraken
    plaidapi plaid paypal nexmo vonage messagebird telnyx plivo clicksend postmark sparkpost
    mailchimp mandrill apiclient fernet
    """
)

# Names of the phrase itself: next to one of these, a run of plain words is taken for the phrase even
# when some are not BIP39 words (a mistyped word, a phrase from another list, one written from memory).
SEED_PHRASE_NAMES: tuple[str, ...] = (
    "seed",
    "mnemonic",
    "recovery phrase",
    "recovery words",
    "recovery seed",
    "secret phrase",
    "backup phrase",
    "backup words",
    "wallet phrase",
    "wallet words",
    "12 words",
    "24 words",
    "12-word",
    "24-word",
    "twelve words",
    "twenty-four words",
    "twenty four words",
    "twelve-word",
    "twenty-four-word",
    "frase semilla",
    "frase de recuperación",
    "frase de recuperacion",
    "시드",
    "니모닉",
    "복구 구문",
    "복구구문",
    "助记词",
    "シード",
)

# Coins and wallet apps named beside a phrase that is not called a seed ("the crypto thing ... has
# these words"): context words, and needles of the seed-phrase gate.
SEED_COIN_WORDS: tuple[str, ...] = ("crypto", "bitcoin", "ethereum", "exodus")

# Words that mark a seed / recovery phrase nearby: its names, and the wallets and words around one.
SEED_CONTEXT_WORDS: tuple[str, ...] = (
    *SEED_PHRASE_NAMES,
    "recovery",
    "wallet",
    "metamask",
    "ledger",
    "trezor",
    "phantom",
    "restore",
    "palabras de recuperación",
    "복구",
    # "wallet" and "words" in other languages: Polish, German, French, Italian, Portuguese, Turkish,
    # Vietnamese, Japanese.
    "portfel",
    "portfela",
    "portfelu",
    "slowa",
    "słowa",
    "wörter",
    "portefeuille",
    "mots",
    "portafoglio",
    "parole",
    "carteira",
    "palavras",
    "cüzdan",
    "kelime",
    "kelimeler",
    "ví",
    "ウォレット",
    "単語",
    # A wallet set up by someone else comes with "these words": the coin and the word itself are enough
    # context once twelve list words follow.
    *SEED_COIN_WORDS,
    "words",
)

# Words of three letters or more that a sentence about a phrase holds and a phrase does not: one breaks
# a run of plain words, so "I wrote the seed phrase on paper and put it in the safe" is no phrase.
# BIP39 words among them are dropped where they are used (a phrase may hold "about" or "again").
PHRASE_BREAKING_WORDS: frozenset[str] = _words(
    """
    the and but for nor yet was were are has had have having not you your yours they them their
    then than that this these those there here from into onto with without just our ours its his
    her hers she him who whom whose what when where which why how will would can could should
    shall may might must been being also very some any each every only did does doing done get
    got out off over under after before because while once still even too per via let lets
    dont cant isnt wasnt okay yes yeah please thanks like want need know think said says say make
    made put wrote write keep kept lost save saved paper card phrase words word seed seeds wallet
    recovery backup mnemonic down somewhere safe never anywhere typed type remember lose
    que los las una del por con para mis tus sus esta este eso minha meu uma
    """
)
