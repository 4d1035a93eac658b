"""The safety net: a credential word, then a value shaped like what it names, close by."""

import pytest
from pandora_memory.secrets import find_secrets, redact


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("je lui ai donné le code du portail mais pas celui de l'alarme, c'est 1907 au cas où", "1907"),
        ("the boathouse keypad, which the committee reset after the regatta, is now 6 0 2 9", "6 0 2 9"),
        ("bike shed combo is 31 - 7 - 22, turn right first", "31 - 7 - 22"),
        ("le digicode de l'atelier a changé, maintenant c'est 58B21 puis la touche clé", "58B21"),
        ("mdp du portail fournisseur = Hirondelle_2019 si jamais", "Hirondelle_2019"),
        ("Tavira7@ c'est le mot de passe de la box, pour les invités", "Tavira7@"),
        ("the family spotify password is on the next line\nMarsouin_77", "Marsouin_77"),
        ("code de récupération que j'ai noté: 4827-1930, ça marche une seule fois?", "4827-1930"),
        ("the text the bank sent with the verification code said 582904, valid 5 minutes", "582904"),
    ],
)
def test_a_value_close_to_its_credential_word_is_found_whatever_runs_between(text: str, value: str) -> None:
    redacted = redact(text).text

    assert value not in redacted
    assert "[REDACTED:" in redacted


@pytest.mark.parametrize(
    "text",
    [
        "the alarm panel code is 404 404 on the sticker but i never changed it lol",
        "code review for #2291 is done, merging after lunch",
        "the password rule is 12 characters minimum with one symbol, from 2025 on",
        "alarm set for 12-01-2026 at the gate, the installer comes at 9",
        "my colleague called my code 'half-baked' in front of the whole team",
        "error code 40317 again on the gate controller firmware",
        "password 2025 rotation is on the ops calendar",
        "reset my password for 1password and nextjs14 docs",
        "the password is 111111 on every demo box, that's the point of a demo",
        "react / nextjs14 migration, then tcp / IPv6",
    ],
)
def test_numbers_and_words_near_a_credential_word_that_name_nothing_stay(text: str) -> None:
    assert find_secrets(text) == []


def test_the_specific_rule_names_a_value_the_safety_net_also_sees() -> None:
    findings = find_secrets("login is jdoe / Velvet88")

    assert [finding.rule for finding in findings] == ["context-pair"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("código del trastero del 4ºC, es el 7 3 0 8, díselo al fontanero", "7 3 0 8"),
        ("la caja fuerte del despacho, combinación 19-42-7, no la apuntes", "19-42-7"),
        ("el candado de la bici no abre con 4417, prueba otra vez", "4417"),
        ("the one time code the bank sent is 604 218 but the page timed out", "604 218"),
    ],
)
def test_codes_in_other_languages_and_groupings_are_found(text: str, value: str) -> None:
    assert value not in redact(text).text


@pytest.mark.parametrize(
    "text",
    [
        "connecting as build_bot password=******** host=ci-main, at least the log hides it",
        "the portal login is tied to my RealMe so it keeps locking my colleague out",
        "código postal 28012, la calle es Argumosa, para el envío de las llaves",
    ],
)
def test_a_masked_value_a_name_or_a_postcode_near_a_credential_word_stays(text: str) -> None:
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "the storage code handles 1500 requests a second now",
        "our bank card code path processes 2400 orders a day",
    ],
)
def test_a_number_counting_something_near_a_code_word_is_no_code(text: str) -> None:
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("lucchetto del ripostiglio: combinazione 7-1-9, scrivilo sul foglio", "7-1-9"),
        ("Amalfi1987!! questa è la password della posta dell'hotel", "Amalfi1987"),
        ("wifi sala colazioni: pass Vesuvio_2023 per gli ospiti", "Vesuvio_2023"),
        ("Chiave di rete: VE1fnFXOYTkl\nCanale: auto", "VE1fnFXOYTkl"),
    ],
)
def test_italian_codes_dial_combinations_and_a_bare_pass_are_found(text: str, value: str) -> None:
    assert value not in redact(text).text


@pytest.mark.parametrize(
    "text",
    [
        "seriale della cassaforte camera 12: KTX-7781-3390, il tecnico lo vuole",
        "boarding pass 4417 for gate B22, we board at 9",
        "i'll pass on that, flight BA2490 is too early",
    ],
)
def test_a_serial_number_or_a_travel_pass_is_no_credential(text: str) -> None:
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("헬스장 사물함 번호 2719로 바꿨어 잊어버릴까봐", "2719"),
        ("key safe round the side of the garage - 6150 - the plumber knows where", "6150"),
        ("창고 뒷문 번호 8830* 눌러야 열림", "8830"),
    ],
)
def test_a_locker_a_back_door_and_a_code_between_dashes_are_found(text: str, value: str) -> None:
    assert value not in redact(text).text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("die Alarmanlage im Lager: neuer Code 5127, bitte weitergeben", "5127"),
        ("Zeeland: de sleutelkluis bij de schuur is 4-8-0-2, stuur dat door", "4-8-0-2"),
        ("Ostsee2019! — das ist das Passwort vom Gäste-WLAN", "Ostsee2019"),
        ("BitLocker: 318802-550176-094433-612078-270941-883310-405527-190064", "318802-550176"),
        ("Wiederherstellungscode: QW7RT-PL2MX-ZK9VB-NH3CD-JF8GY, wo hebe ich den auf?", "QW7RT-PL2MX"),
        ("steamcmd +login qa_builder Lumen!ride42 +quit fails with rate limit", "Lumen!ride42"),
        ("telegram bot 6987470700:3hftVt3t53BQ0Y_IXh_L2OrJN21zEq_M6dR stopped replying", "3hftVt3t53BQ0Y"),
    ],
)
def test_german_and_dutch_words_grouped_keys_and_command_logins_are_found(text: str, value: str) -> None:
    redacted = redact(text).text

    assert value not in redacted
    assert "Gäste-WLAN" in redacted or "Gäste" not in text


@pytest.mark.parametrize(
    "text",
    [
        "das Release heißt v2.4.1-rc3-build-20250112, bitte ins Changelog",
        "Artikelnummer AB-4471-XC für die neuen Handschuhe, 3 Packungen bestellen",
        "the unity serial of the device is on the sticker, SN 4471-2209",
    ],
)
def test_version_and_article_numbers_stay(text: str) -> None:
    assert find_secrets(text) == []


def test_every_code_of_a_backup_code_list_is_redacted() -> None:
    codes = ["Q7KDM", "X2PLR", "B9WZT", "HNCJV", "4MRTA"]
    text = f"steam guard reservkoder, spara dem: {' '.join(codes[:3])}, {codes[3]}\n{codes[4]}"

    redacted = redact(text).text

    assert not [code for code in codes if code in redacted]


def test_an_email_login_and_a_key_file_path_stay() -> None:
    assert find_secrets("my login is jonas@kvikk.no for the portal") == []
    assert find_secrets("the key file is at /etc/ssl/private/server.key on the box") == []


def test_pinning_a_dependency_is_no_pin() -> None:
    assert find_secrets("Pin numpy<2 in both environment.yml and the CI requirements") == []
    assert find_secrets("pin django>=4.2 and react@18 in every repo") == []


# Credentials in the words of more languages and in more forms (compounds, keypad marks, dial turns,
# stated settings), each line written anew for this test.
FOUND_IN_MORE_LANGUAGES_AND_FORMS = [
    ("пароль от ноутбука мамы 27081961, она его сама выбрала", "27081961"),
    ("сигнализация на даче: снимать 3917, ставить 3917#", "3917"),
    ("домофон у Левана во дворе 41К2208, без пробелов", "41К2208"),
    ("wifi на складе: сеть Depo_5G, пасс depo2023-sklad", "depo2023-sklad"),
    ("резервные коды от почты: 5519 2047, 8830 1164", "5519 2047"),
    ("kasa şifresi mutfakta asılı, 7734 ama kimseye söyleme", "7734"),
    ("depo kapı kodu 2618# gece vardiyası için", "2618#"),
    ("modem arayüzü kullanıcı admin, parolası da Lara_Sahil77 bu arada", "Lara_Sahil77"),
    ("the staging box root pass for the new hire is Orchard#31 until friday", "Orchard#31"),
    ("my work laptop login is Kettle9$moor if anyone asks while i'm away", "Kettle9$moor"),
    ("het hek achter de schuur gaat open met 4826# na negen uur", "4826#"),
    ("wifi i ateljén: nätverk Lind_Studio, lösen granskog_41", "granskog_41"),
    ("isännöitsijä lähetti: ovikoodi rappuun on 6604, älä jaa", "6604"),
    ("portkoden till gården är 3318B, skriv ner den", "3318B"),
    ("the bike shed opens with 5127 and a twist to the left", "5127"),
    ("koden till förrådet är 9043# efter klockan sex", "9043#"),
    ("farfars larmkod för stugan: 1947 (hans födelseår)", "1947"),
    ("mật khẩu wifi tầng 3 là hoa_mai_2024 nhé", "hoa_mai_2024"),
    ("sandi wifi toko yg baru: Melati!2025 tolong bikin kartu", "Melati!2025"),
    ("akun bank ku budi_s88 dan passwordnya Sawah*7731 ya", "Sawah*7731"),
    ("két sắt văn phòng mã 180392, đừng nói ai", "180392"),
    ("jelszó a webshop adminhoz: Gulyas#Leves42, ne add ki", "Gulyas#Leves42"),
    ("a kulcsdoboz kódja 5206, a kulcs a horogra menjen vissza", "5206"),
    ("kód od dveří na skladě je nový: 3390#", "3390#"),
    ("كلمة السر بتاعة الراوتر: Nile#Home77 متنساش", "Nile#Home77"),
    ("كود الخزنة في المحل 6618 ومحدش يعرفه", "6618"),
    ("wifi el sala w el pass 01144556karim", "01144556karim"),
    ("staff entrance: #5817* after 10pm", "#5817*"),
    ("passordet til ruteren er Fjordlys!88", "Fjordlys!88"),
    ("papa ka netbanking IPIN Papa@Gulmohar61, unko statement chahiye", "Papa@Gulmohar61"),
    ("मम्मी का ATM पिन 4417 है, बदलना है", "4417"),
    ("डिजिलॉकर पासवर्ड: Kothrud#Tiffin7 — licence download karna hai", "Kothrud#Tiffin7"),
    ("Sunheri@1971 — ye papa ka bank wala password hai", "Sunheri@1971"),
    ("sms gateway authkey = 91af3c07d2e84b6f5a1c, otp nahi ja raha", "91af3c07d2e84b6f5a1c"),
    ("gym locker combination: left 31, right 07, left 22", "left 31, right 07, left 22"),
    ("cash box pe digit lock hai 3 9 0 6, chabi nahi", "3 9 0 6"),
    ("work laptop login got reset, the new one is vKq82LmPzT@ for now", "vKq82LmPzT@"),
    ("bike lock combo is 416, the blue one by the gym", "416"),
    ("grandad's phone unlock is 290513, he forgets it weekly", "290513"),
    (
        "rotated the deploy user: new secret is /Qb3nVx9Tq+LpW2sKd7RmZy4HcF8jAe1Go6Ui5Nw",
        "/Qb3nVx9Tq+LpW2sKd7RmZy4HcF8jAe1Go6Ui5Nw",
    ),
    ("Wi-Fi του διαμερίσματος: κωδικός Kyrenia!Blue7 για τους επισκέπτες", "Kyrenia!Blue7"),
    ("o kodikos tou safe sto grafeio einai 3318, min to peis", "3318"),
    ("Τον κωδικό για την καγκελόπορτα τον άλλαξα, τώρα είναι 1958 — γράψε μήνυμα", "1958"),
    ("guests keep asking: it's 7702* for the pool gate, then push", "7702*"),
    ("確認コード 482 915 が出たけど私じゃない", "482 915"),
    ("731104 ← the bank's one time code, it expired already", "731104"),
    ("the MATCH_PASSWORD is umeda-tako-58 on the ci box", "umeda-tako-58"),
    # Thai glues its words together; Romanian glues "the" onto them ("pinul", "PUK-ul").
    ("รหัสประตูโกดังหลังร้าน 6093 อย่าบอกลูกค้านะ", "6093"),
    ("wifi ห้องประชุม รหัสผ่าน mali_sabai88 ช่วยทำป้ายให้หน่อย", "mali_sabai88"),
    ("ตู้เซฟในออฟฟิศ รหัส 20011987 เปลี่ยนยังไง", "20011987"),
    ("bank app ra-hat phan 6 tua 551902 chai wan kerd mae", "551902"),
    ("pinul de la cardul de salarii e 7391, nu-l mai tin minte", "7391"),
    ("PUK-ul de pe cartela noua: 60128834", "60128834"),
    ("codul de la interfon e 2207, pentru curier", "2207"),
    ("seiful din birou se deschide cu 12-40-07", "12-40-07"),
    ("Код сигналізації на складі 5590, не кажи нікому", "5590"),
    ("ключ у сейфі біля дверей, код 4418", "4418"),
    # Hebrew glues "the", "and", "to" onto its words; Persian and Cebuano name locks their own way.
    ("והסיסמה של הראוטר Tamar_Home24, תשמור לי", "Tamar_Home24"),
    ("הקוד של השער לחניון 7781, תזכיר לי", "7781"),
    ("رمز کارت بانک مامان ۴۲۱۸ هست، عوضش کنم؟", "۴۲۱۸"),
    ("ramze wifi e khune: Golnar_1370 , baraye mehmoona", "Golnar_1370"),
    ("ang code sa pultahan 5-0-9-1 then star", "5-0-9-1"),
    ("wifi pass ya ofisi ni Kazi_Poa_2211 usimwambie mtu", "Kazi_Poa_2211"),
    ("allarme del magazzino: si disinserisce con 4471 entro 30 sec", "4471"),
    ("caixa das chaves no prédio, código 2290, para os hóspedes", "2290"),
    ("la pass é Ribeira_77 per il wifi dello studio", "Ribeira_77"),
    ("دکان کی تجوری کا کوڈ 550172 ہے", "550172"),
    ("নগদ এর পিন ৪৪১৯, ভুলে যাবো না", "৪৪১৯"),
    ("আমার ইমেইলের পাসওয়ার্ড হলো dhaka_rain77, এটা কি দুর্বল?", "dhaka_rain77"),
    # Quebec French says NIP for a card's PIN.
    ("mon NIP de carte de crédit c'est 3317, je l'oublie tout le temps", "3317"),
    # Turkish inflects "my password", "my PIN" and "my codes"; Vietnamese shortens mật khẩu to mk.
    ("instagram sifremi degistirdim: Kadikoy.1905! unutmayayim", "Kadikoy.1905!"),
    ("banka kartı pinim 7714, atm'de hata veriyor", "7714"),
    ("mk wifi tiệm: banhcuon_2024 nha em", "banhcuon_2024"),
    # Polish names a safe, a combination and a barrier's code; BLIK is a payment code.
    ("sejf w archiwum: 12-40-33, nie mow nikomu", "12-40-33"),
    ("szafka z kluczami, szyfr 4410", "4410"),
    ("kod do szlabanu przy magazynie to 8080#", "8080#"),
    ("blik 447 219 na allegro, szybko", "447 219"),
    # A meeting's host key; Japanese: a host key, and "pass" for the password.
    ("the zoom host key for the board call is 550912", "550912"),
    ("ホストキーは 604417 です、共有しないで", "604417"),
    ("キャッシュカードの暗証番号は父の誕生日の0412にした", "0412"),
    ("マンションの玄関のコード、住人用は 7305 です", "7305"),
    ("回復コード: 4kq2-88ru x7pz-19ma もらった", "4kq2-88ru"),
    ("ऑफिस का लॉकर कोड 6612 है, किसी को मत बताना", "6612"),
    ("共有アカウントのパスは Kenkyu_2024! です", "Kenkyu_2024!"),
    # An immobiliser's code, security answers.
    ("the immobilizer code for the van is 3391, the garage needs it", "3391"),
    ("my mother's maiden name is Thistlewood, the bank asks for it", "Thistlewood"),
    # "..., mine is": the value the noun asked for; a one-time code someone sent.
    ("the bank wants a memorable word, mine is Hebden, is that safe?", "Hebden"),
    ("the courier app sent me a code 558120, they say to read it out on the phone", "558120"),
    # App passwords named in Polish, Turkish or as an environment variable; a 64-hex signing secret.
    ("hasło aplikacji do poczty: qwer tyui opas dfgh", "qwer tyui opas dfgh"),
    ('APPLE_APP_SPECIFIC_PASSWORD="mnbv-cxzl-kjhg-fdsa" in the ci file', "mnbv-cxzl-kjhg-fdsa"),
    ("jwt secret: 3f1c9a2e7b4d4e0a9c1f2d8e6b5a4c303f1c9a2e7b4d4e0a9c1f2d8e6b5a4c30", "3f1c9a2e7b4d4e0a"),
    # A key that opens with a slash, a safe by where it stands, an e-PIN.
    ("the secret for it is /Qm7RzT2kVx9LpN4wYc8HbJ3dFs6GtA1eUoKiPl0n ok", "Qm7RzT2kVx9LpN4wYc8HbJ3d"),
    ("the wall safe behind the mirror is 22-41-07", "22-41-07"),
    ("e-pin for the exam portal: 5520918374", "5520918374"),
    # Mexican Spanish says NIP too; the SAT's CIEC is a password; Spanish recovery codes; Korean codes
    # that disarm, open a door lock's master mode, or recover an account.
    ("el nip de mi tarjeta nueva es 4417, no lo olvides", "4417"),
    ("mi CIEC del sat es Tlalpan2024, la necesita el contador", "Tlalpan2024"),
    ("los codigos de recuperacion de google: 5512-8841", "5512-8841"),
    ("현관 알람 해제 코드 3 9 1 7 이야", "3 9 1 7"),
    ("구글 복구코드 KQ4M-7PLD-22XA 저장해둬", "KQ4M-7PLD-22XA"),
]


@pytest.mark.parametrize(("text", "value"), FOUND_IN_MORE_LANGUAGES_AND_FORMS)
def test_credentials_in_more_languages_and_forms_are_found(text: str, value: str) -> None:
    assert value not in redact(text).text


# Their lookalikes: inflected words, user names, error and ticket numbers, sums, postcodes, variable
# references, ports, directions, environment lookups.
LOOKALIKES_THAT_STAY = [
    "надо включить vpn перед деплоем, порт 4471 закрыт",
    "пингвины в зоопарке родились в 2023, их уже 4418 в колонии",
    "my login is marta.kowal92 on the parents portal",
    "the boarding pass is in my email, gate 4471",
    "kapı 2019'da değişti, kod sorunu yok artık",
    "the password field uses InputField contentType = Password and masks fine",
    "felkod 4471 på routern igen, vad betyder det",
    "the shop opens with 20 staff on monday 2025",
    "nhập mã PIN sai rồi, app báo error E-1021 là gì vậy?",
    "nama wifi (SSID) Toko_Melati_5G, gimana ganti tanpa ganti sandinya?",
    "server.properties:\nenable-rcon=true\nrcon.port=25575\nrcon.password=${RCON_PASSWORD}",
    "ana 3amalt reset lel password bta3 el wp admin bas el email ma waslsh",
    "the alarm went off at 2am and the guard came, 4500 Kč fine?? is that normal",
    "the door ticket #12345 is closed",
    "sort keys are ulids now, e.g. SLOT#01M8RP5SP4R05E5X2EH43CGAAQ",
    "kothrud pincode 411038 aur baner 411045, delivery radius kitna rakhu",
    "POSTGRES_PASSWORD: ${DB_PASSWORD:?must be set} but compose says it is empty",
    "turn left at the lights, right after 2 blocks, left at 14th street",
    "alarm company ticket #55120, they come thursday between 9 and 12",
    "the keysafe model is Master Lock 5401EURD, how do i set the code",
    'let key = ProcessInfo.processInfo.environment["REVENUECAT_API_KEY"] ?? ""',
    "パスワードリセットしたのに古いパスワードでまだログインできる。Firebase Auth の問題？",
    "the DB_PASSWORD is set in the vault, not in the repo",
    "wrangler says: Authentication error [code: 10000] again",
    "รหัสไปรษณีย์ของร้านคือ 10110 ช่วยเขียนที่อยู่ภาษาอังกฤษ",
    "ธนาคารแจ้งว่า รหัส PIN ต้องมี 6 หลัก ห้ามเรียงกัน",
    "codul postal e 010101 pentru clinica, il pun pe factura?",
    "image: ghcr.io/t/api@sha256:53b4a246624d53b501957f194d4d6ae8e2b45c2197fc1236e2a841b23ed1234b - pin it",
    "קוד קופון FITSUMMER25 נותן 25% הנחה",
    "کد رهگیری پرداخت ۴۸۲۹۱۷ رو مامان فرستاد",
    "a casa da mãe é 1100-148 Lisboa, escreve o endereço",
    "kra pin ya supplier ni P051234567X, ni sahihi format?",
    "আমাদের পাসওয়ার্ড পলিসি: কমপক্ষে ৮ অক্ষর, একটা সংখ্যা আর একটা সিম্বল লাগবে",
    "میں نے ایزی پیسہ کا پن ری سیٹ کر دیا ہے، اب نیا پن کیسے بناؤں؟",
    "faktura dla: Studio Lipa, ul. Długa 12, 00-238 Warszawa, NIP 7010234458",
    "the alarm on the ward went off at 0300 and nobody came for ten minutes",
    "ファイルのパスは /Users/kenji/Documents/report.docx です",
    "zapłaciłam blikiem za toner, 349 zł",
    "where do I find the host key in zoom settings?",
    "indirim kodu YAZ20 sepette çalışmıyor",
    "my first pet was a hamster called nothing special",
    "2024年の売上は1500万円で、暗号化の話は来週にしよう",
    "コードレビューは金曜日の1500から、部屋は3F",
    "they sent me a code but it expired before i could use it",
    "i sent you the code 2024 version of the report",
    "which password manager do you use? mine is bitwarden",
    "DB_PASSWORD= (empty for the local container) but prod sets it from the vault",
    "the safest option is to wait 2-3 days and retry",
    "sign-in fails with AADSTS50126, is the password wrong or the account locked?",
    "refund pay_Lx8Qw2Rt5Yz1Ab or order_Mp4Kd9Ws2Ne7Cq? which one do i pass to the api",
    "the release sha256 is 3f1c9a2e7b4d4e0a9c1f2d8e6b5a4c303f1c9a2e7b4d4e0a9c1f2d8e6b5a4c30",
]


@pytest.mark.parametrize("text", LOOKALIKES_THAT_STAY)
def test_lookalikes_in_more_languages_and_forms_stay(text: str) -> None:
    assert find_secrets(text) == []
