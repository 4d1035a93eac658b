"""Values that need no credential word: keypad codes and passwords built the way sites ask for them."""

import pytest
from pandora_memory.secrets import find_secrets, redact


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # In languages the rules have no words for, and with no word at all.
        ("ngày mai nhắn anh Tùng: cổng sau bấm 4719# rồi đẩy mạnh", "4719#"),
        ("Lapsille: takaovi 8830* ja sitten vedä", "8830*"),
        ("behind the bins, #7205* then pull", "#7205*"),
        ("the new one is Yalla$Beirut42. old one leaked", "Yalla$Beirut42"),
        ("ส่งให้น้องที่ร้าน Front@1234 ถูกไหม", "Front@1234"),
        ("nimeweka mpya: Kisumu!Lake2024 usimwambie mtu", "Kisumu!Lake2024"),
        ("Q7m!rX42pZ — asta e noua, unde o salvez", "Q7m!rX42pZ"),
        ("Mabolo1988! -- that's what i use for everything lol", "Mabolo1988!"),
        ("sabai2024! ช่วยเขียนป้ายให้หน่อย", "sabai2024!"),
        ("the studio wifi changed, it's now qwPlF47Dora! if anyone asks", "qwPlF47Dora!"),
        ("yard gate: *2580 then the green button", "*2580"),
        ("mlango unafunguliwa na 1-9-8-5-#, usisahau", "1-9-8-5-#"),
        ("car gate ni 1357*. landlord amesema", "1357*"),
        ("guest asks again for the gate, it's 4682 then the green button", "4682"),
        ("brama od podwórka: 2291 + key, klatka C", "2291"),
    ],
)
def test_a_self_evident_value_is_found_with_no_word_beside_it(text: str, value: str) -> None:
    assert value not in redact(text).text


@pytest.mark.parametrize(
    "text",
    [
        "issue #4471 is the flaky login test",
        "closing #2291 and #2292, both dupes",
        "rated it 5* on the app store",
        "email me at Ana2@Gmail.com or ana@example.org",
        "C# and F# both compile to IL2 bytecode",
        "follow @Maria_2024 and @JoeBloggs99 for updates",
        "the build is 3.11.4+Rc2 and the tag v2.0.0-Beta1",
        "2+2=4 and 10*3=30, so 40*2",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHhOqL8b2lZPuiAYw0JL618MnQ7gARHrpTKzIqOFV+JZ me@laptop",
        "we hit 5000 users!! and 2024! was wild",
        "whats 1140 * 0.08",
        "call 0800 then press 1 for billing",
        "in 2024 then the key question is whether we hire",
        "quick: 0.0000166667 * 1.6 million, i always mess up the zeros",
        "IFC GlobalId del muro Ck2Sq0VoS$0EVkL2PnthGe non combacia tra i due modelli",
        "is covid19? still a thing at the clinic",
        "the logo is data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAmSGKilCNPuVenk24CGHe+tVBt==",
    ],
)
def test_issue_numbers_ratings_addresses_handles_and_public_keys_stay(text: str) -> None:
    assert find_secrets(text) == []


def test_a_random_url_parameter_is_a_token_whatever_language_names_it() -> None:
    link = "https://rezultate.medlab.example/view?acces=pFKM-ImyCiGsANO7m_ZtNDB6il1RSHob&lang=ro"

    assert "pFKM-ImyCiGsANO7m_ZtNDB6il1RSHob" not in redact(link).text


@pytest.mark.parametrize(
    "link",
    [
        "https://www.youtube.com/playlist?list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG",
        "https://shop.example/item?utm_source=newsletter&fbclid=IwAR3xQz8LkP2mN7vB4cD9eF1gH5jK6lM",
        "https://docs.example/open?id=1aB2cD3eF4gH5iJ6kL7mN8oP9qR0sT1uV",
        "https://example.org/search?q=vercel+edge+function+timeout+limits",
    ],
)
def test_ids_of_public_things_and_tracking_parameters_stay(link: str) -> None:
    assert find_secrets(link) == []


def test_an_omise_secret_key_is_found_and_its_public_key_stays() -> None:
    secret = "skey_live_" + "8yc5daqo4bdvr4oute3x"
    public = "pkey_live_" + "5gq1w2e3r4t5y6u7i8o"

    assert [finding.kind for finding in find_secrets(f"omise keys: {secret} and {public}")] == [
        "omise_secret_key"
    ]


def test_an_authenticator_setup_key_is_found_grouped_or_not() -> None:
    grouped = "setup key for the authenticator: svbx fa4l kb7x sn6k o2t3 xs6d qpef lpev, 2 phones ok?"
    plain = "2fa secret from the totp page: JBSWY3DPEHPK3PXPJBSWY3DP"

    assert "svbx fa4l kb7x" not in redact(grouped).text
    assert "JBSWY3DPEHPK3PXPJBSWY3DP" not in redact(plain).text


def test_words_in_groups_of_four_after_2fa_stay() -> None:
    assert find_secrets("turn on 2fa for your team: they will need this then that with some time") == []


def test_an_aws_secret_key_shape_is_found_in_a_message_about_aws() -> None:
    key = "Q8v6aNC0NI7qFJpj/pkIlMPoM+Ci1VbclldmxpP7"

    assert key not in redact(f"{key} <- second line of the note, the first starts with AKIA").text
    assert find_secrets(f"the image tag is {key.replace('/', 'x').replace('+', 'y')} for aws") == []


def test_a_mercado_pago_access_token_is_found_and_its_public_key_stays() -> None:
    token = "APP_USR-" + "6024053387074799-724115-218bccfa8df83571d2180159db777f63-892475401"
    public = "APP_USR-" + "0f3c2a1e-8b4d-4c6a-9e2f-1a2b3c4d5e6f"

    assert [finding.kind for finding in find_secrets(f"token {token}, public key {public}")] == [
        "mercadopago_access_token"
    ]


def test_a_password_that_opens_with_a_dollar_sign_is_no_variable_reference() -> None:
    assert (
        "$c*0q0skm8UbOm" not in redact("looker connects as LOOKER_SVC, password $c*0q0skm8UbOm, role X").text
    )
    assert find_secrets("set PASSWORD=$DB_PASS in the shell, and PATH=$HOME/bin:$PATH") == []


def test_a_klaviyo_private_key_is_found() -> None:
    key = "pk_" + "fbed2bda83f6782a5dffef4def017f670f"

    assert [finding.kind for finding in find_secrets(f"klaviyo says 401 with {key}")] == [
        "klaviyo_private_key"
    ]
