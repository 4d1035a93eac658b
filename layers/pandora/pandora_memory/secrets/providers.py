"""Provider rules: credentials whose own prefix or layout says what they are (ghp_, sk_live_, AKIA).

Each rule runs only when one of its literal prefixes occurs in the message, so a message without
any of them costs one substring test per prefix.
"""

from pandora_memory.secrets.pattern_rule import PatternRule, rule
from pandora_memory.secrets.values import has_digit, has_lower, has_upper, is_placeholder

# What may not stand right before a token (PatternRule.not_after: a lookbehind, checked faster).
_NOT_AFTER = r"[A-Za-z0-9_\-]"
_END = r"(?![A-Za-z0-9_\-])"
_GITLAB_PREFIXES = (
    "glpat",
    "gldt",
    "glrt",
    "glptt",
    "glcbt",
    "glimt",
    "glsoat",
    "glffct",
    "glagent",
    "gloas",
    "glft",
    "glrtr",
    "glwt",
)
BASE64_40 = r"(?<![A-Za-z0-9/+])(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"


def _real(value: str) -> bool:
    return not is_placeholder(value)


def _token_shaped(value: str) -> bool:
    """Prefixes that also start ordinary words (sk-learn-...) need digits and letters mixed in."""
    return _real(value) and has_digit(value) and (has_lower(value) or has_upper(value))


def aws_secret_shaped(value: str) -> bool:
    return _real(value) and has_lower(value) and has_upper(value) and has_digit(value)


def _prefixed(name: str, kind: str, body: str, *needles: str, needs_digit: bool = False) -> PatternRule:
    """A token made of one literal-led pattern, bounded on both sides."""
    return rule(
        name,
        kind,
        "(?P<secret>" + body + ")" + _END,
        needles,
        validate=_token_shaped if needs_digit else _real,
        not_after=_NOT_AFTER,
    )


PROVIDER_RULES: tuple[PatternRule, ...] = (
    # Cloud providers
    _prefixed(
        "aws-access-key-id",
        "aws_access_key_id",
        r"(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}",
        "AKIA",
        "ASIA",
        "ABIA",
        "ACCA",
    ),
    rule(
        "aws-secret-key-named",
        "aws_secret_key",
        r"(?i:(?:aws[\s_\-]?)?secret[\s_\-]?(?:access[\s_\-]?)?key)[\"'\]]{0,2}"
        r"(?:\s*(?:[:=]|=>)\s*|\s+(?:is|was|=|:)?\s*)[\"']?" + BASE64_40,
        ("secret",),
        lowercase_needles=True,
        validate=aws_secret_shaped,
    ),
    rule(
        "aws-secret-key-near-key-id",
        "aws_secret_key",
        r"(?:AKIA|ASIA)[A-Z0-9]{16}[\s\S]{0,240}?" + BASE64_40,
        ("AKIA", "ASIA"),
        validate=aws_secret_shaped,
    ),
    _prefixed("google-api-key", "google_api_key", r"AIza[0-9A-Za-z_\-]{35}", "AIza"),
    _prefixed(
        "google-oauth-client-secret", "google_oauth_client_secret", r"GOCSPX-[A-Za-z0-9_\-]{24,}", "GOCSPX-"
    ),
    _prefixed("google-oauth-access-token", "google_oauth_token", r"ya29\.[A-Za-z0-9_\-]{30,}", "ya29."),
    _prefixed("google-oauth-refresh-token", "oauth_refresh_token", r"1//0[A-Za-z0-9_\-]{30,}", "1//0"),
    rule(
        "azure-connection-key",
        "azure_storage_key",
        r"(?i:AccountKey|SharedAccessKey|SharedSecretValue|SharedAccessSignature)\s*=\s*"
        r"(?P<secret>[A-Za-z0-9+/=%]{20,})",
        ("accountkey", "sharedaccess", "sharedsecret"),
        lowercase_needles=True,
        validate=_real,
    ),
    rule(
        "azure-ad-client-secret",
        "azure_client_secret",
        r"(?P<secret>[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34})" + _END,
        ("Q~",),
        validate=_real,
        not_after=_NOT_AFTER,
    ),
    _prefixed("digitalocean-token", "digitalocean_token", r"do[por]_v1_[a-f0-9]{64}", "_v1_"),
    _prefixed("heroku-api-key", "heroku_api_key", r"HRKU-[A-Za-z0-9_\-]{40,}", "HRKU-"),
    _prefixed(
        "alibaba-access-key", "alibaba_access_key", r"LTAI[A-Za-z0-9]{12,20}", "LTAI", needs_digit=True
    ),
    _prefixed("tencent-secret-id", "tencent_secret_id", r"AKID[A-Za-z0-9]{32}", "AKID"),
    _prefixed("vault-token", "vault_token", r"hv[sbr]\.[A-Za-z0-9_\-]{24,}", "hvs.", "hvb.", "hvr."),
    _prefixed(
        "terraform-cloud-token",
        "terraform_token",
        r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=\-]{60,}",
        ".atlasv1.",
    ),
    _prefixed("pulumi-token", "pulumi_token", r"pul-[a-f0-9]{40}", "pul-"),
    _prefixed(
        "fly-token",
        "fly_token",
        r"(?:fo1_[A-Za-z0-9_\-]{40,}|FlyV1 fm[12][a-z]?_[A-Za-z0-9+/=_\-,]{50,})",
        "fo1_",
        "fm1_",
        "fm2_",
    ),
    _prefixed("netlify-token", "netlify_token", r"nfp_[A-Za-z0-9]{36,}", "nfp_"),
    _prefixed(
        "vercel-token", "vercel_token", r"vc[pikar]_[A-Za-z0-9]{24,}", "vcp_", "vci_", "vck_", "vca_", "vcr_"
    ),
    _prefixed(
        "supabase-secret",
        "supabase_secret_key",
        r"(?:sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_\-]{20,})",
        "sbp_",
        "sb_secret_",
    ),
    _prefixed(
        "planetscale-token", "planetscale_token", r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_\-.]{30,}", "pscale_"
    ),
    _prefixed("databricks-token", "databricks_token", r"dapi[0-9a-f]{32}(?:-\d)?", "dapi"),
    _prefixed("doppler-token", "doppler_token", r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}", "dp."),
    _prefixed("onepassword-service-token", "onepassword_token", r"ops_eyJ[A-Za-z0-9_\-+/=]{50,}", "ops_eyJ"),
    # Source hosting and CI
    _prefixed("github-pat", "github_pat", r"ghp_[A-Za-z0-9]{30,255}", "ghp_"),
    _prefixed("github-oauth-token", "github_oauth_token", r"gho_[A-Za-z0-9]{30,255}", "gho_"),
    _prefixed("github-user-token", "github_user_token", r"ghu_[A-Za-z0-9]{30,255}", "ghu_"),
    _prefixed("github-app-token", "github_app_token", r"ghs_[A-Za-z0-9]{30,255}", "ghs_"),
    _prefixed("github-refresh-token", "github_refresh_token", r"ghr_[A-Za-z0-9]{30,255}", "ghr_"),
    _prefixed("github-fine-grained-pat", "github_pat", r"github_pat_[A-Za-z0-9_]{22,255}", "github_pat_"),
    _prefixed(
        "gitlab-token",
        "gitlab_token",
        "(?:" + "|".join(_GITLAB_PREFIXES) + r")-[A-Za-z0-9_\-]{20,}"
        r"|GR1348941[A-Za-z0-9_\-]{20,}",
        *(f"{prefix}-" for prefix in _GITLAB_PREFIXES),
        "GR1348941",
    ),
    _prefixed("bitbucket-app-password", "bitbucket_app_password", r"ATBB[A-Za-z0-9_=.\-]{28,}", "ATBB"),
    _prefixed("atlassian-api-token", "atlassian_api_token", r"ATATT3[A-Za-z0-9_\-=]{100,}", "ATATT3"),
    _prefixed("sourcegraph-token", "sourcegraph_token", r"sgp_[A-Za-z0-9_]{40,}", "sgp_"),
    _prefixed("buildkite-token", "buildkite_token", r"bkua_[a-f0-9]{40}", "bkua_"),
    _prefixed("circleci-token", "circleci_token", r"CCIPAT_[A-Za-z0-9_]{30,}", "CCIPAT_"),
    _prefixed("docker-hub-token", "docker_hub_token", r"dckr_pat_[A-Za-z0-9_\-]{20,}", "dckr_pat_"),
    _prefixed("npm-token", "npm_token", r"npm_[A-Za-z0-9]{36}", "npm_"),
    _prefixed("pypi-token", "pypi_token", r"pypi-AgE[A-Za-z0-9_\-]{30,}", "pypi-AgE"),
    _prefixed("rubygems-token", "rubygems_token", r"rubygems_[a-f0-9]{48}", "rubygems_"),
    _prefixed("clojars-token", "clojars_token", r"CLOJARS_[a-z0-9]{60}", "CLOJARS_"),
    _prefixed("nuget-key", "nuget_api_key", r"oy2[a-z0-9]{43}", "oy2"),
    _prefixed("sentry-token", "sentry_token", r"sntry[su]_[A-Za-z0-9_\-=+/]{40,}", "sntry"),
    _prefixed(
        "grafana-token",
        "grafana_token",
        r"(?:glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}|glc_[A-Za-z0-9+/=]{32,})",
        "glsa_",
        "glc_",
    ),
    _prefixed("postman-key", "postman_api_key", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}", "PMAK-"),
    _prefixed("new-relic-key", "new_relic_key", r"NR(?:AK|II|AA)-[A-Z0-9]{27}", "NRAK-", "NRII-", "NRAA-"),
    _prefixed("linear-key", "linear_api_key", r"lin_(?:api|oauth)_[A-Za-z0-9]{40}", "lin_"),
    _prefixed(
        "notion-token", "notion_token", r"ntn_[A-Za-z0-9]{40,}|secret_[A-Za-z0-9]{43}", "ntn_", "secret_"
    ),
    _prefixed("figma-token", "figma_token", r"figd_[A-Za-z0-9_\-]{30,}", "figd_"),
    _prefixed("airtable-token", "airtable_token", r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}", "pat"),
    _prefixed("contentful-token", "contentful_token", r"CFPAT-[A-Za-z0-9_\-]{40,}", "CFPAT-"),
    _prefixed("typeform-token", "typeform_token", r"tfp_[A-Za-z0-9_\-.]{40,}", "tfp_"),
    _prefixed("dropbox-token", "dropbox_token", r"sl\.[A-Za-z0-9_\-]{100,}", "sl."),
    _prefixed("age-secret-key", "age_secret_key", r"AGE-SECRET-KEY-1[0-9A-Z]{58}", "AGE-SECRET-KEY-"),
    # Messaging
    _prefixed(
        "slack-token",
        "slack_token",
        r"xox[abposre]-[A-Za-z0-9\-]{10,}|xoxe\.xox[bp]-[A-Za-z0-9\-]{20,}",
        "xox",
    ),
    _prefixed("slack-app-token", "slack_app_token", r"xapp-\d-[A-Za-z0-9\-]{20,}", "xapp-"),
    rule(
        "slack-webhook",
        "slack_webhook",
        r"(?P<secret>https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\-]{20,})",
        ("hooks.slack.com",),
        validate=_real,
    ),
    # A Sentry DSN's key lets anyone post events into the project (quota, noise, spoofed errors); the
    # legacy form also carries the secret key after a colon. The host and project id stay readable.
    # WooCommerce REST keys: a consumer key (ck_) and its secret (cs_), forty hex digits each.
    _prefixed("woocommerce-key", "woocommerce_key", r"c[ks]_[0-9a-f]{40}", "ck_", "cs_"),
    rule(
        "sentry-dsn",
        "sentry_dsn",
        r"https?://(?P<secret>[0-9a-f]{32}(?::[0-9a-f]{32})?)@[A-Za-z0-9.\-]*sentry[A-Za-z0-9.\-]*(?::\d+)?/\d+",
        ("sentry",),
        validate=_real,
    ),
    rule(
        "discord-webhook",
        "discord_webhook",
        r"(?P<secret>https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]{20,})",
        ("/api/webhooks/",),
        validate=_real,
    ),
    # A Microsoft Teams incoming webhook (Office 365 connector): anyone with the URL posts into the
    # channel. Its ids are GUIDs, so the shape checks of other keys do not apply.
    rule(
        "teams-webhook",
        "teams_webhook",
        r"(?P<secret>https://[A-Za-z0-9.\-]*\.webhook\.office\.com/webhookb2/[A-Za-z0-9@\-]{20,}"
        r"/IncomingWebhook/[A-Za-z0-9]{16,}/[A-Za-z0-9\-]{20,}(?:/[A-Za-z0-9_\-]{10,})?)",
        ("webhook.office.com",),
    ),
    # Twitch (and other RTMP) stream keys: "live_", the channel id, then the key.
    _prefixed("twitch-stream-key", "stream_key", r"live_\d{6,12}_[A-Za-z0-9]{20,40}", "live_"),
    rule(
        "discord-bot-token",
        "discord_bot_token",
        r"(?P<secret>[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40})(?![\w\-])",
        (".",),
        validate=_token_shaped,
        not_after=r"[\w\-.]",
    ),
    rule(
        "telegram-bot-token",
        "telegram_bot_token",
        r"(?P<secret>\d{8,10}:AA[A-Za-z0-9_\-]{30,40})" + _END,
        (":AA",),
        validate=_real,
        not_after=r"\d",
    ),
    # Older bot tokens do not open on "AA": the bot id, a colon and exactly 35 random characters.
    rule(
        "telegram-bot-token-plain",
        "telegram_bot_token",
        r"(?P<secret>\d{8,10}:[A-Za-z0-9_\-]{35})" + _END,
        (":",),
        validate=_real,
        not_after=r"\d",
    ),
    _prefixed("twilio-api-key", "twilio_api_key", r"SK[0-9a-fA-F]{32}", "SK"),
    _prefixed("sendgrid-key", "sendgrid_api_key", r"SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}", "SG."),
    _prefixed("mailgun-key", "mailgun_api_key", r"key-[0-9a-zA-Z]{32}", "key-"),
    _prefixed("resend-key", "resend_api_key", r"re_[A-Za-z0-9]{8}_[A-Za-z0-9]{20,40}", "re_"),
    # Twitch chat logs in with "PASS oauth:<token>".
    _prefixed("twitch-chat-token", "twitch_oauth_token", r"oauth:[a-z0-9]{30}", "oauth:", needs_digit=True),
    _prefixed("mailchimp-key", "mailchimp_api_key", r"[0-9a-f]{32}-us\d{1,2}", "-us"),
    _prefixed(
        "firebase-fcm-key",
        "firebase_server_key",
        r"AAAA[A-Za-z0-9_\-]{7}:APA91b[A-Za-z0-9_\-]{100,}",
        ":APA91b",
    ),
    _prefixed("twitter-bearer", "twitter_bearer_token", r"A{20,22}[A-Za-z0-9%]{30,}", "AAAAAAAAAAAAAAAAAAAA"),
    _prefixed("meta-access-token", "meta_access_token", r"EAA(?!A)[A-Za-z0-9]{80,}", "EAA"),
    # Payments and commerce
    _prefixed("stripe-secret-key", "stripe_secret_key", r"sk_live_[A-Za-z0-9]{10,247}", "sk_live_"),
    _prefixed("stripe-test-key", "stripe_test_key", r"sk_test_[A-Za-z0-9]{10,247}", "sk_test_"),
    _prefixed(
        "stripe-restricted-key", "stripe_restricted_key", r"rk_(?:live|test)_[A-Za-z0-9]{10,247}", "rk_"
    ),
    _prefixed("stripe-webhook-secret", "stripe_webhook_secret", r"whsec_[A-Za-z0-9+/=]{20,}", "whsec_"),
    # Mercado Pago: the access token (its public key is APP_USR- and a UUID).
    _prefixed(
        "mercadopago-access-token",
        "mercadopago_access_token",
        r"(?:APP_USR|TEST)-\d{16}-\d{6}-[0-9a-f]{32}-\d{6,12}",
        "APP_USR-",
        "TEST-",
    ),
    # Klaviyo: the private API key (the public key is a six-character site id; Stripe's pk_live_ differs).
    _prefixed("klaviyo-private-key", "klaviyo_private_key", r"pk_[0-9a-f]{34}", "pk_"),
    # Omise (Thailand, Japan): the secret key; its public key is pkey_.
    _prefixed("omise-secret-key", "omise_secret_key", r"skey_(?:live_|test_)?[0-9a-z]{19,40}", "skey_"),
    # Toss Payments: secret keys sign server calls; client keys (live_ck_) ship in pages.
    _prefixed(
        "toss-secret-key",
        "toss_secret_key",
        r"(?:live|test)_g?sk_[A-Za-z0-9]{20,64}",
        "live_sk_",
        "test_sk_",
        "live_gsk_",
        "test_gsk_",
    ),
    _prefixed(
        "square-token",
        "square_access_token",
        r"EAAA[A-Za-z0-9_\-]{40,}|sq0(?:atp|csp)-[A-Za-z0-9_\-]{20,}",
        "EAAA",
        "sq0",
    ),
    _prefixed("shopify-token", "shopify_token", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}", "shp"),
    _prefixed(
        "plaid-token",
        "plaid_access_token",
        r"access-(?:sandbox|development|production)-[0-9a-f\-]{36}",
        "access-",
    ),
    _prefixed(
        "braintree-token",
        "braintree_access_token",
        r"access_token\$production\$[a-z0-9]{16}\$[a-f0-9]{32}",
        "access_token$",
    ),
    _prefixed("flutterwave-key", "flutterwave_secret_key", r"FLWSECK(?:_TEST)?-[a-f0-9]{32}-X", "FLWSECK"),
    _prefixed(
        "mapbox-secret-token",
        "mapbox_secret_token",
        r"sk\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}",
        "sk.eyJ",
    ),
    # AI providers
    _prefixed("anthropic-key", "anthropic_api_key", r"sk-ant-[A-Za-z0-9_\-]{20,}", "sk-ant-"),
    _prefixed("openrouter-key", "openrouter_api_key", r"sk-or-[A-Za-z0-9_\-]{20,}", "sk-or-"),
    rule(
        "openai-style-key",
        "openai_api_key",
        r"(?P<secret>sk-(?!ant-|or-)[A-Za-z0-9_\-]{20,})" + _END,
        ("sk-",),
        validate=_token_shaped,
        not_after=_NOT_AFTER,
    ),
    _prefixed("groq-key", "groq_api_key", r"gsk_[A-Za-z0-9]{20,}", "gsk_"),
    _prefixed(
        "huggingface-token", "huggingface_token", r"(?:hf_|api_org_)[A-Za-z0-9]{30,}", "hf_", "api_org_"
    ),
    _prefixed("replicate-token", "replicate_token", r"r8_[A-Za-z0-9]{20,}", "r8_"),
    _prefixed("xai-key", "xai_api_key", r"xai-[A-Za-z0-9]{20,}", "xai-"),
    _prefixed("perplexity-key", "perplexity_api_key", r"pplx-[A-Za-z0-9]{20,}", "pplx-"),
    _prefixed("nvidia-key", "nvidia_api_key", r"nvapi-[A-Za-z0-9_\-]{20,}", "nvapi-"),
    _prefixed("cerebras-key", "cerebras_api_key", r"csk-[a-z0-9]{20,}", "csk-", needs_digit=True),
    _prefixed("langsmith-key", "langsmith_api_key", r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}", "lsv2_"),
    _prefixed("pinecone-key", "pinecone_api_key", r"pcsk_[A-Za-z0-9_]{20,}", "pcsk_"),
    _prefixed("tavily-key", "tavily_api_key", r"tvly-[A-Za-z0-9_\-]{20,}", "tvly-"),
    _prefixed("firecrawl-key", "firecrawl_api_key", r"fc-[a-f0-9]{32}", "fc-"),
    _prefixed("fireworks-key", "fireworks_api_key", r"fw_[A-Za-z0-9]{20,}", "fw_"),
    _prefixed("elevenlabs-key", "elevenlabs_api_key", r"sk_[a-f0-9]{48}", "sk_"),
    _prefixed("jina-key", "jina_api_key", r"jina_[A-Za-z0-9]{30,}", "jina_"),
    _prefixed("e2b-key", "e2b_api_key", r"e2b_[a-f0-9]{30,}", "e2b_"),
)
