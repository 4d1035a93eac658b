"""The safety net's words (nearby.py): credential words in many languages, what opens by itself, what a
code opens, and the compound and "opens with" forms. Reading them stays in nearby.py."""

import re

from pandora_memory.secrets.lexicon import (
    CODE_QUALIFIERS,
    HEAD_FAMILIES,
    LOCK_HEADS,
    LOCK_WORDS,
)

# Every password and PIN word of the context rules, in all their languages, and these besides.
HEADS_OF = {
    family: tuple(w for w, f in HEAD_FAMILIES.items() if f == family)
    for family in ("password", "pin", "code")
}
PASSWORD_WORDS = (
    *HEADS_OF["password"],
    "password", "passwords", "passwd", "passcode", "passphrase", "pwd", "mdp", "mot de passe",
    "mots de passe", "contraseña", "contrasena", "senha", "passwort", "kennwort", "wachtwoord",
    "비번", "비밀번호", "암호", "パスワード", "la contra", "clave", "parola d'ordine", "hasło", "haslo",
    "pasword", "passwrd", "passowrd", "paswd", "pword", "pw", "credentials", "creds",
    "chiave di rete", "clave de red", "network key", "wpa key", "netzwerkschlüssel", "clé de sécurité",
    "pass", "пасс", "rcon",
)  # fmt: skip
# How "opens with 5510", "öppnas med 5510" is read: a lock word whose code stands right after it.
OPENED_WITH = "opens with"
# "pass" is also a bus pass or a boarding pass: only a password-shaped word right after it counts.
SHORT_REACH_WORDS = frozenset({"pass", OPENED_WITH})
# After these only a password-shaped value counts, never a number ("rcon.port=25575").
SHAPED_ONLY_WORDS = frozenset({"pass", "rcon"})
# A login is as often the user name: only a value with a symbol no user name has counts
# ("my laptop login is 3iLF4ui#@51#").
LOGIN_WORDS = ("login", "logon")
NO_USER_NAME_HAS = frozenset("#!$%^&*?~+")
# A PIN that is an identifier, named by the word before it: Kenya's tax number is a "KRA PIN".
PIN_AS_AN_ID = frozenset({"pin"})
NAMES_PIN_AS_AN_ID = frozenset({"kra", "tax"})
# Words that open something by themselves: no other word of the sentence needs to say what.
LOCKS = frozenset(
    {
        *("keypad", "lockbox", "key box", "boîte à clés", "boite à clés", "boite a cles", "boîte à clé"),
        *("cadenas", "coffre-fort", "digicode", "code confidentiel", "code secret", "combination", "alarm"),
        *("alarme", "interphone", "portail", "도어락", "暗証番号", "핀번호", "otp", "pin", "pins", "puk"),
        *("combinación", "combinacion", "combinação", "combinazione", "caja fuerte", "alarma", "cassaforte"),
        *("tresor", "intercom", "buzzer", "domofon", "brama", "candado", "cerradura", "cadeado", "lucchetto"),
        *("mpin", "tpin", "공동현관", "serratura", "사물함", "뒷문", "자물쇠", "금고", "대문"),
        *("キーボックス", "オートロック", "ロック番号", "暗証コード"),
        *(
            "alarmanlage",
            "mastercode",
            "türcode",
            "tuercode",
            "zugangscode",
            "schlüsselkasten",
            "schlüsseltresor",
        ),
        *("sleutelkluis", "sleutelkastje", "hek", "wlan-schlüssel", "wlan-schluessel"),
        *("домофон", "домофона", "домофоне", "сигнализация", "сигнализации", "сигнализацию", "сейф"),
        *("сейфа", "сейфе", "калитка", "калитки", "калитку", "кодовый", "кодового", "шлагбаум"),
        *("kilit", "kilidi", "kilidin", "asma kilit", "tuş takımı", "alarmı"),
        *("kassaskåp", "kassaskåpet", "kassakaappi", "kombinationslås", "kodlås", "nyckelbox", "nyckelboxen"),
        *("nyckelskåp", "két sắt", "mã cửa", "mã pin", "brankas", "gembok", "kode pintu", "kunci pintu"),
        *LOCK_HEADS,
        *HEADS_OF["pin"],
        OPENED_WITH,
        # Czech, Hungarian, Arabic.
        *("trezor", "trezoru", "kulcsdoboz", "riasztó", "zár", "zárkód", "الخزنة", "خزنة"),
        *("digit lock", "number lock", "code lock", "ताला", "digital lock", "তালা"),
        *("kombinasi", "locker combination", "combinación de la caja"),
        *("phone unlock", "unlock code", "unlock pin", "screen lock", "lock screen", "bike lock combo"),
        *("e-safe", "room safe", "in-room safe", "safe code", "καγκελόπορτα", "χρηματοκιβώτιο"),
        *(
            "autolock",
            "auto-lock",
            "autolok",
            "鍵の番号",
            "宅配ボックス",
            "確認コード",
            "認証コード",
            "パスコード",
        ),
        *("ワンタイムパスワード", "ワンタイムコード", "セキュリティコード", "one time code", "one-time code"),
        # Romanian, Ukrainian, Thai.
        *("seif", "seiful", "seifului", "interfon", "interfonul", "alarmă", "alarmei", "lacăt", "lacat"),
        *("сейфі", "сигналізація", "сигналізації", "сигналізацію", "домофону", "ตู้เซฟ", "แม่กุญแจ"),
        *("กุญแจรหัส", "สัญญาณกันขโมย"),
        *("allarme", "caixa das chaves", "caixa de chaves", "cofre-forte", "o-key"),
        # Swahili: a padlock, a PIN ("namba ya siri").
        *("kufuli", "namba ya siri", "nambari ya siri"),
        # Urdu.
        *("سیف", "تجوری", "تالا", "تالے"),
        # Hebrew, Persian.
        *("כספת", "אזעקה", "אינטרקום", "מנעול", "לוקר", "گاوصندوق", "دزدگیر", "آیفون", "قفل"),
    }
)
CODE_WORDS = (
    *sorted(LOCKS),
    *("code", "codes", "combo", "código", "codigo", "códigos", "codigos", "codice", "codici", "token"),
    *HEADS_OF["code"],
    # A network or a lock's key in the languages that call it one ("WLAN … schlüssel 8841 2270 5519").
    *("schlüssel", "sleutel", "ключ"),
)  # fmt: skip
# What a code opens, in scripts written without spaces (Thai): sought as substrings of the sentence.
OPENS_UNSPACED = ("ประตู", "ตู้", "เซฟ", "ไวไฟ", "บัตร", "เอทีเอ็ม", "ธนาคาร", "กันขโมย", "รั้ว", "ล็อกเกอร์")
PLAIN_AFTER_UNSPACED = ("ไปรษณีย์", "สินค้า", "ส่วนลด", "โปรโมชั่น", "พนักงาน", "ไปรษณีย", "คูปอง")

PLAIN_AFTER = (
    *("postal", "promo", "promotionnel", "erreur", "d'erreur", "de réduction", "produit", "source"),
    *PLAIN_AFTER_UNSPACED,
)
# Qualifiers right before "code" that say little elsewhere in a sentence ("in front of", "this time").
AMBIGUOUS_QUALIFIERS = frozenset(
    {"front", "time", "screen", "control", "app", "remote", "phone", "tablet", "ipad", "laptop", "kids"}
    | {"child", "car", "network", "house", "office", "building", "confirmation", "language", "source"}
)
# What a code in the sentence opens, beyond the English qualifiers: a bank card, 2FA, a lock, a door,
# in the languages of the code words above.
OPENS = frozenset(
    {
        *(CODE_QUALIFIERS - AMBIGUOUS_QUALIFIERS),
        *LOCK_WORDS,
        *("portail", "alarme", "interphone", "coffre", "boîte", "boite", "cadenas", "carte", "banque"),
        *("confidentiel", "secret", "récupération", "recuperation", "désarmement", "desarmement"),
        *("sms", "2fa", "backup", "recovery", "bank", "card"),
        *("verification", "vérification", "one-time", "lock", "door", "safe", "wifi"),
        # Spanish, Portuguese, Italian, German.
        *("portal", "puerta", "garaje", "parking", "trastero", "caja", "llaves", "banco", "tarjeta", "firma"),
        *("router", "porta", "portão", "cofre", "cartão", "cancello", "carta", "banca", "tür", "tor"),
        *("garage", "karte", "bank", "briefkasten", "schlüssel"),
        *("closet", "storage", "shed", "cabinet", "cupboard", "storeroom", "mailbox", "postbox"),
        *("serratura", "gabbia", "cassetta", "verifica", "camera", "stanza", "portone"),
        # Russian and Turkish.
        *("двери", "дверь", "подъезд", "подъезда", "ворота", "калитки", "сейф", "сейфа", "карты", "карта"),
        *("банка", "банк", "резервные", "резервный", "восстановления", "хранения", "ячейки", "ячейка"),
        *("замка", "замок", "сигнализации", "домофона", "гаража", "шлагбаума", "подтверждения"),
        *("kapı", "kapının", "kapısı", "kasa", "kasası", "yedek", "kurtarma", "otopark", "bariyer", "garaj"),
        *("kart", "kartı", "kartın", "banka", "kilit", "kilidi", "doğrulama", "giriş", "alarm", "tuş"),
        *("wlan", "wi-fi", "fritzbox", "netwerk", "réseau", "сеть", "wifi"),
        # Swedish, Finnish, Indonesian, Vietnamese.
        *(
            "dörr",
            "dörren",
            "port",
            "porten",
            "grind",
            "grinden",
            "ovi",
            "oven",
            "portti",
            "pankki",
            "kortti",
        ),
        *(
            "kortin",
            "nyckel",
            "skåp",
            "skåpet",
            "reserv",
            "vara",
            "cửa",
            "két",
            "pintu",
            "gerbang",
            "cadangan",
        ),
        *("dveří", "dveře", "riasztó", "zár", "szekrény", "szekrényen", "ajtó", "kapu", "kulcsdoboz"),
        *("الخزنة", "الباب", "البوابة", "البنك", "الكارت"),
        *("entrance", "entry", "lobby", "eingang", "entrée", "entrada", "ingresso", "ingang", "wejście"),
        *("πόρτα", "πόρτας", "καγκελόπορτα", "συναγερμός", "safe", "pool"),
        # Romanian, Ukrainian.
        *("ușa", "usa", "ușii", "usii", "poarta", "porții", "acces", "cardului", "cardul", "băncii"),
        *("dverey", "дверей", "двері", "дверi", "під'їзду", "хвіртки", "банку", "картки", "сейфі"),
        # Hebrew, Persian, Tagalog and Cebuano.
        *("דלת", "שער", "בניין", "לבניין", "חניון", "לחניון", "כרטיס", "אימות", "האימות", "בנק", "לבנק"),
        *("הבנק", "טלפון", "הטלפון", "אפליקציה", "לאפליקציה", "האפליקציה", "ביט", "בביט"),
        *("ساختمان", "ساختمون", "ورودی", "درب", "کارت", "بانک", "تایید", "پارکینگ", "آپارتمان"),
        *("pultahan", "ganghaan", "pinto", "gate", "condo", "unit"),
        *("mlango", "geti", "stoo", "ofisi", "benki", "kadi"),
        *("دروازہ", "دروازے", "گیٹ", "بینک", "کارڈ", "اسٹور"),
        *("sblocco", "chaves", "multicanal", "multibanco", "citofono", "cancello", "portão"),
    }
)
# A code word compounded with what it opens ("ovikoodi", "portkoden", "alarmkod", "PIN-koodi"), in the
# languages that write compounds; not a code of something else ("felkod", "virhekoodi", "rabattkod").
COMPOUND_CODE = re.compile(
    r"\b([a-zåäöæø]{2,16})-?(?:kod|koden|koder|koderna|kode|koodi|koodin|koodit|koodia)\b"
)
NOT_LOCK_PREFIXES = frozenset(
    {
        *("fel", "virhe", "rabatt", "alennus", "kampanja", "post", "posti", "streck", "viiva", "käll"),
        *("lähde", "program", "ohjelma", "html", "lands", "maa", "suunta", "present", "lahja", "rabat"),
        *("fejl", "kilde", "bar", "qr", "bonus", "etu", "tarjous", "kuponki", "kupong", "kampanj", "tuote"),
    }
)  # fmt: skip
# "opens with 5510", "öppnas med 5510", "gaat open met 1953*": how a lock is opened, whatever opens.
OPENS_WITH = re.compile(
    r"\b(?:opens? with|öppnas med|öppnar med|gaat open met|se abre con|s'ouvre avec|öffnet mit|geht auf mit|"
    r"si apre con|abre com|aukeaa|avautuu|se deschide cu|si disinserisce con|si disattiva con|відкривається|"
    r"unafunguliwa na|inafunguliwa na)\b"
)


OPENS_WITH_NEEDLES = (
    *("open", "öppna", "ouvre", "abre", "öffnet", "geht auf", "apre", "aukeaa", "avautuu", "deschide"),
    "відкрива",
    "funguliwa",
    "disinserisce",
    "disattiva",
)
A_LOCK = "keypad"  # how a compound code word is read: a word that opens by itself
