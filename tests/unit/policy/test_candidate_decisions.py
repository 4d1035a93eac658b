"""Behaviour of the auto-candidate policy: what becomes a candidate, of which type, and how it is gated."""

import pytest
from pandora_memory.namespaces import Namespace, UnknownNamespaceError
from pandora_memory.policy.candidate import should_auto_create_memory_candidate
from pandora_memory.policy.candidate_rules import candidate_rules
from pandora_memory.policy.clauses import DURABLE_MOODS, read_text
from pandora_memory.policy.memory_types import RULE_ID_BY_TYPE
from pandora_memory.policy.models import CandidateStatus, MemoryType, Sensitivity
from pandora_memory.policy.rules import policy_version


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("we're going with SQS for the ingest queue, simpler retries", MemoryType.PROJECT_DECISION),
        ("decided: no ORM, plain SQL with a tiny helper", MemoryType.PROJECT_DECISION),
        (
            "the billing worker will use Stripe webhooks from now on, no more polling",
            MemoryType.PROJECT_DECISION,
        ),
        ("pls always reply in short bullets, long paragraphs make me skim", MemoryType.PREFERENCE),
        ("I prefer tabs in go code, gofmt does the rest", MemoryType.PREFERENCE),
        ("blocked on the app store review, can't ship the ios build until it clears", MemoryType.BLOCKER),
        ("waiting on Stripe to verify the account, payouts are paused", MemoryType.BLOCKER),
        ("merged #412, the export endpoint now streams csv", MemoryType.MERGED_PR),
        ("the rate limiter PR got merged this morning", MemoryType.MERGED_PR),
        ("api is live on api.example.dev since tuesday, heroku is shut down", MemoryType.DEPLOYMENT_TRUTH),
        ("prod runs in eu-central-1, staging in us-east-1", MemoryType.DEPLOYMENT_TRUTH),
        ("SUMMARY_MAX_CHARS=200 for every plan, longer ones get cut", MemoryType.ENV_CONFIG_DECISION),
        ("bumped the lambda timeout to 15s for the capture function", MemoryType.ENV_CONFIG_DECISION),
        ("Q3 priority is retention, no paid ads until churn is under 4%", MemoryType.BUSINESS_PRIORITY),
        ("pricing is locked: $12 solo, $39 team", MemoryType.BUSINESS_PRIORITY),
        ("promised Dara I'd help her move on the 9th, hold me to it", MemoryType.RELATIONSHIP_LOOP),
        ("lost 800k won on sports bets last week, deleted the app", MemoryType.RISK),
        ("a former client is threatening to sue over the invoice", MemoryType.RISK),
        ("todo: rotate the staging database password before the demo", MemoryType.OPEN_LOOP),
        ("left off halfway through the importer, date parsing isn't done yet", MemoryType.OPEN_LOOP),
        ("ci keeps dying on the arm runner. stuck till that's sorted", MemoryType.BLOCKER),
        ("the dark mode toggle is cut. settings page ships light only", MemoryType.PROJECT_DECISION),
        ("결제 수단은 카드랑 계좌이체로만 간다. 페이팔 없앨 거야", MemoryType.PROJECT_DECISION),
        ("yes set me a cap, 40 a week max on the slots app", MemoryType.RISK),
        (
            "Ines hasn't talked to me since the wedding. I need to call her this weekend",
            MemoryType.RELATIONSHIP_LOOP,
        ),
        (
            "somebody on a forum says my plugin copies theirs. not true but it's getting shared",
            MemoryType.RISK,
        ),
        ("big goal: move the bakery fully to wholesale by next spring", MemoryType.BUSINESS_PRIORITY),
        ("invoicing tool is stuck, all payouts stopped until the bank re-verifies us", MemoryType.BLOCKER),
        ("started seeing Amara. keep it away from the custody paperwork", MemoryType.RELATIONSHIP_LOOP),
        (
            "I still owe Bastien an apology for snapping at him in standup. doing it friday",
            MemoryType.RELATIONSHIP_LOOP,
        ),
        ("the refinance is dead in the water, appraisal came in 20k short", MemoryType.BLOCKER),
        ("moved 5k out of the holiday fund to cover margin. nobody knows", MemoryType.RISK),
    ],
)
def test_durable_statements_become_candidates_of_the_right_type(message: str, expected: MemoryType) -> None:
    decision = should_auto_create_memory_candidate(message, namespace="real_life")
    assert decision.status is CandidateStatus.CANDIDATE, decision.reason
    assert decision.should_create_candidate
    assert decision.memory_type is expected, decision.reason
    assert RULE_ID_BY_TYPE[expected] in decision.rules
    assert decision.summary
    assert 0.0 <= decision.confidence <= 1.0


@pytest.mark.parametrize(
    "message",
    [
        "Oren's sister is the one who burned the archive in book 1",
        "Kael can't swim. he nearly drowned as a kid, that's why he hates the docks",
        "canon: bindings fade after exactly seven days",
    ],
)
def test_fiction_facts_are_au_canon_in_the_au_namespace(message: str) -> None:
    decision = should_auto_create_memory_candidate(message, namespace=Namespace.AU)
    assert decision.status is CandidateStatus.CANDIDATE, decision.reason
    assert decision.memory_type is MemoryType.AU_CANON
    assert decision.namespace is Namespace.AU
    assert decision.sensitivity is Sensitivity.LOW


@pytest.mark.parametrize(
    "message",
    [
        "how do I cancel a running step function",
        "is the dynamo TTL exact or can it lag?",
        "what if we used Postgres for everything?",
        "maybe we should switch to Clerk?? idk",
        "summarise this article for me: 'Remote teams that write things down ship faster, a study says.'",
        "translate this into Korean pls",
        "write a haiku about cold starts",
        "we're going with Vercel for hosting. actually scratch that, still deciding",
        "pricing is $12 a month. never mind, ignore that",
        "just brainstorming: Kael could join the Tidewardens",
        "don't save this but I might quit the agency",
        "thx",
        "lol nice",
        "morning, coffee #2 already",
        "so tired today, ugh",
        "what's 15% of 2,340",
        "i kind of want to move to lisbon and open a surf shop lol. not really",
        "deployed it. wait no, the pipeline died, it's not deployed",
        "what would a second moon do to the tides? speculative, not canon",
        "recap chapter 3 for me in four lines",
        "i kinda want to drop everything and learn the cello lol. not really",
        "what config keys does vite read from the env file",
        "Maelis loses an eye in the siege. hmm no. scratch that, not doing that",
        "Corvin is secretly the abbot's son — wait no, ignore that, I don't want that twist",
        "I told you the opening is on the 3rd. That was wrong, there's no date yet.",
        "I said I'd sell the boat — scratch that, nothing's decided. Don't hold me to it.",
        "If I charged $45 for the workshop instead, would people still come, do you think?",
        "Pick up the story where we left it, please.",
        "does this opening hook?\n> The bell rang twice before anyone in Hollin saw the river stop.",
        "i'm gonna quit the band. nah forget that, just a bad day",
        "TypeError: Cannot read properties of undefined (reading 'items') at CartList (cart.tsx:31) — why??",
        "panic: runtime error: index out of range [3] with length 3\ngoroutine 1 [running]:\nmain.main()",
        'getting this now:\nTraceback (most recent call last):\n  File "app.py", line 12, in <module>',
        "on the train now, will continue later",
        "whit's the best way tae word a complaint",
        "I am only thinking aloud, what if the tavern burned down?",
    ],
)
def test_questions_ideas_requests_retractions_and_chatter_are_not_candidates(message: str) -> None:
    decision = should_auto_create_memory_candidate(message, namespace="real_life")
    assert decision.status is CandidateStatus.NOT_CANDIDATE, decision.reason
    assert not decision.should_create_candidate
    assert decision.memory_type is MemoryType.NONE
    assert decision.summary == ""


def test_a_retraction_keeps_what_the_user_says_after_it() -> None:
    decision = should_auto_create_memory_candidate(
        "we're going with Netlify. scratch that, we're going with Render for the api", namespace="real_life"
    )
    assert decision.memory_type is MemoryType.PROJECT_DECISION
    assert "Render" in decision.summary
    assert "Netlify" not in decision.summary
    assert "candidate.durability.retraction" in decision.rules


def test_a_question_after_a_statement_keeps_the_statement() -> None:
    decision = should_auto_create_memory_candidate(
        "we decided to keep Supabase for auth, can you write the migration?", namespace="real_life"
    )
    assert decision.memory_type is MemoryType.PROJECT_DECISION
    assert "candidate.mood.question" in decision.rules


def test_a_question_asking_for_a_standing_behaviour_is_a_preference() -> None:
    decision = should_auto_create_memory_candidate(
        "can you use british spelling from now on?", namespace="real_life"
    )
    assert decision.memory_type is MemoryType.PREFERENCE


def test_assistant_filler_alone_is_not_the_users_memory() -> None:
    decision = should_auto_create_memory_candidate(
        "cool thx",
        "You're welcome! Also: your Postgres 13 instance reaches end of life in November.",
        namespace="real_life",
    )
    assert decision.status is CandidateStatus.NOT_CANDIDATE
    assert "candidate.assistant.ignored" in decision.rules


def test_an_accepted_proposal_becomes_a_reviewed_candidate() -> None:
    decision = should_auto_create_memory_candidate(
        "yes let's do that",
        "Then the plan: store memories as markdown files in S3, with DynamoDB only as the index.",
        namespace="real_life",
    )
    assert decision.status is CandidateStatus.CANDIDATE
    assert decision.memory_type is MemoryType.PROJECT_DECISION
    assert "candidate.assistant.accepted" in decision.rules
    assert decision.requires_review, "a memory taken from the reply is confirmed by the user first"


def test_choosing_one_of_the_proposals_is_a_reviewed_decision_even_without_known_words() -> None:
    decision = should_auto_create_memory_candidate(
        "perfect, go with B",
        "Option A: a blue mural with the lamp. Option B: a green mural with the anchor.",
        namespace="real_life",
    )
    assert decision.status is CandidateStatus.CANDIDATE, decision.reason
    assert decision.memory_type is MemoryType.PROJECT_DECISION
    assert "candidate.assistant.chosen" in decision.rules
    assert decision.requires_review


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        # An answer that proposes nothing: "yes do that" chooses nothing.
        ("yes do that", "Here is the gist: the article argues that remote work boosts output."),
        # An offer of one-off work: the yes gets the work done, it sets no rule.
        ("yes please", "Want me to draft the email to the landlord about the boiler?"),
    ],
)
def test_a_yes_to_a_reply_that_proposes_no_standing_choice_is_no_memory(message: str, reply: str) -> None:
    decision = should_auto_create_memory_candidate(message, reply, "real_life")
    assert decision.status is CandidateStatus.NOT_CANDIDATE, decision.reason


def test_a_yes_to_an_offer_of_a_standing_rule_is_a_reviewed_decision() -> None:
    decision = should_auto_create_memory_candidate(
        "yes, set it",
        "Want me to set prettier's print width to 100 in all your repos?",
        "real_life",
    )
    assert decision.status is CandidateStatus.CANDIDATE, decision.reason
    assert "candidate.assistant.accepted" in decision.rules
    assert decision.requires_review


def test_a_person_named_in_the_affirmed_reply_sends_the_rule_to_review() -> None:
    decision = should_auto_create_memory_candidate(
        "yeah let's make that the rule",
        "One guardrail: a two-day wait and telling Mirela before any purchase over 300.",
        "real_life",
    )
    assert decision.status is CandidateStatus.CANDIDATE, decision.reason
    assert decision.requires_review
    assert "candidate.durability.correction" not in decision.rules, "make that the rule corrects nothing"


def test_an_assistant_confirmation_raises_confidence() -> None:
    message = "from now on answer in short bullets, walls of text make me skim"
    alone = should_auto_create_memory_candidate(message, namespace="real_life")
    confirmed = should_auto_create_memory_candidate(
        message, "Got it — short bullets from here on.", "real_life"
    )
    assert confirmed.memory_type is alone.memory_type is MemoryType.PREFERENCE
    assert confirmed.confidence > alone.confidence
    assert "candidate.assistant.confirmed" in confirmed.rules


def test_what_the_user_affirms_from_the_reply_counts_for_sensitivity() -> None:
    """ "yes, hold me to it" after a proposal about the user's gambling is about the gambling."""
    message = "yes hold me to it. weekends only"
    alone = should_auto_create_memory_candidate(message, namespace="real_life")
    affirmed = should_auto_create_memory_candidate(
        message, "Deal: you open the betting app on weekends only, and I'll flag it midweek.", "real_life"
    )
    assert alone.sensitivity is Sensitivity.LOW, alone.reason
    assert affirmed.sensitivity is Sensitivity.HIGH, affirmed.reason
    assert affirmed.requires_review


@pytest.mark.parametrize(
    ("message", "level"),
    [
        ("Dara and I broke up last night. she says it's final", Sensitivity.PRIVATE),
        ("my home address is 12 Elm Road, use it for the invoices", Sensitivity.PRIVATE),
        ("my NI number is JT 48 20 11 B, keep it with the payroll forms", Sensitivity.PRIVATE),
        ("had a big fight with my brother about the loan, we're not speaking", Sensitivity.HIGH),
        ("doctor says my blood pressure is too high, I'm on meds now", Sensitivity.HIGH),
        ("lost 2M won at the casino. not going back", Sensitivity.HIGH),
        ("what if Dara and I broke up, who keeps the flat? just anxious", Sensitivity.PRIVATE),
        (
            "a stranger on insta claims my candle labels are a knockoff of hers. not true but it's spreading",
            Sensitivity.HIGH,
        ),
        ("paid for reviews on the app store in march. if that gets out we're finished", Sensitivity.HIGH),
        ("got a 공정위 letter about the discount banner, answer due friday", Sensitivity.HIGH),
        (
            "haven't slept for two nights and honestly they'd all be better off without me",
            Sensitivity.PRIVATE,
        ),
        ("도현이가 회비 빌려가고 두 달째 연락 없음", Sensitivity.HIGH),
        ("payroll is short by 3k this month and my cofounder doesn't know how tight it is", Sensitivity.HIGH),
        ("switching lawyers before the deposition, going with a firm in leeds", Sensitivity.HIGH),
        ("I approved a refund outside policy and never disclosed it to finance", Sensitivity.HIGH),
        ("been buying scratch tickets every day, I don't trust myself near the kiosk", Sensitivity.HIGH),
        (
            "accidentally shared the salary sheet in the team channel, damage control all morning",
            Sensitivity.HIGH,
        ),
        ("the churn figure I sent investors was wrong and nobody's noticed yet", Sensitivity.HIGH),
        (
            "the deli owner thinks i took cash from the till. i didn't, but people are talking",
            Sensitivity.HIGH,
        ),
        ("아직 정형외과 의뢰서 안 왔어, 월요일에 다시 전화해야 함", Sensitivity.HIGH),
        ("a reviewer on etsy claims my candles arrive half melted, on every listing", Sensitivity.HIGH),
        (
            "never told the buyer about the cracked flue on the lodge and now I'm worried sick",
            Sensitivity.HIGH,
        ),
        ("the gym owner thinks i broke the rower, it's so awkward at the front desk now", Sensitivity.HIGH),
        ("i'm behind on three bills now, the electric one is already red", Sensitivity.HIGH),
        ("하린이가 우리 관계 때문에 불안하대서 주말에 진지하게 얘기하기로 함", Sensitivity.PRIVATE),
    ],
)
def test_high_and_private_turns_always_need_review(message: str, level: Sensitivity) -> None:
    decision = should_auto_create_memory_candidate(message, namespace="real_life")
    assert decision.sensitivity is level, decision.reason
    assert decision.requires_review
    assert "candidate.review.sensitive" in decision.rules


def test_low_and_medium_candidates_do_not_need_review_when_confident() -> None:
    low = should_auto_create_memory_candidate("we decided to keep Supabase for auth", namespace="real_life")
    medium = should_auto_create_memory_candidate(
        "Q3 priority is the B2B pilot, everything else waits", "", "real_life"
    )
    assert (low.sensitivity, medium.sensitivity) == (Sensitivity.LOW, Sensitivity.MEDIUM)
    assert not low.requires_review
    assert not medium.requires_review


def test_a_real_life_relationship_memory_waits_for_review_at_any_sensitivity() -> None:
    message = "promised Noor I'd call every sunday from now on, holding myself to that"
    real = should_auto_create_memory_candidate(message, namespace="real_life")
    assert real.memory_type is MemoryType.RELATIONSHIP_LOOP, real.reason
    assert real.sensitivity is Sensitivity.MEDIUM
    assert real.requires_review
    assert "candidate.review.personal" in real.rules
    fiction = should_auto_create_memory_candidate(message, namespace="au")
    assert "candidate.review.personal" not in fiction.rules


def test_dark_themes_inside_the_fiction_stay_low() -> None:
    decision = should_auto_create_memory_candidate(
        "Lyra died at 16, killed by her own brother", namespace="au"
    )
    assert decision.memory_type is MemoryType.AU_CANON
    assert decision.sensitivity is Sensitivity.LOW
    assert not decision.requires_review


def test_summary_drops_chat_filler_and_keeps_names_and_facts() -> None:
    decision = should_auto_create_memory_candidate(
        "ok so pls always answer in short bullets lol, walls of text make me skim 🙏", namespace="real_life"
    )
    assert decision.summary.startswith("Preference: ")
    for filler in ("ok so", "pls", "lol", "🙏"):
        assert filler not in decision.summary
    assert "short bullets" in decision.summary
    assert len(decision.summary) <= 200


def test_summary_is_bounded_for_long_messages() -> None:
    message = "we decided to keep Supabase for auth because " + "the team knows it well and " * 40
    decision = should_auto_create_memory_candidate(message, namespace="real_life")
    assert decision.memory_type is MemoryType.PROJECT_DECISION
    assert len(decision.summary) <= 200
    assert decision.summary.endswith("…")


def test_reason_names_rules_and_cues() -> None:
    decision = should_auto_create_memory_candidate(
        "merged #253, adds redaction before writes", namespace="real_life"
    )
    assert "merged" in decision.cues
    assert "'merged'" in decision.reason
    assert decision.rules[0] == RULE_ID_BY_TYPE[MemoryType.MERGED_PR]
    assert decision.policy_version == policy_version()


def test_decisions_are_deterministic() -> None:
    message = "Mina and I are back together, taking it slow. don't bring up the ex stuff"
    first = should_auto_create_memory_candidate(message, namespace="real_life")
    assert all(should_auto_create_memory_candidate(message, namespace="real_life") == first for _ in range(3))


def test_every_memory_type_has_one_rule_id() -> None:
    assert set(RULE_ID_BY_TYPE) == {t for t in MemoryType if t is not MemoryType.NONE}
    assert len(set(RULE_ID_BY_TYPE.values())) == len(RULE_ID_BY_TYPE)
    with pytest.raises(TypeError):
        RULE_ID_BY_TYPE[MemoryType.RISK] = "changed"  # type: ignore[index]


class TestNamespace:
    def test_an_explicit_namespace_is_never_overridden(self) -> None:
        decision = should_auto_create_memory_candidate(
            "canon: Kael was 19 in chapter 3", namespace="real_life"
        )
        assert decision.namespace is Namespace.REAL_LIFE
        assert decision.memory_type is not MemoryType.AU_CANON
        assert "given by caller" in decision.reason

    def test_an_inferred_namespace_is_said_so(self) -> None:
        decision = should_auto_create_memory_candidate("canon: Kael was 19 in chapter 3")
        assert decision.namespace is Namespace.AU
        assert decision.memory_type is MemoryType.AU_CANON
        assert "inferred" in decision.reason
        assert "candidate.namespace.inferred" in decision.rules

    def test_without_fiction_cues_the_namespace_is_real_life(self) -> None:
        decision = should_auto_create_memory_candidate("we decided to keep Supabase for auth")
        assert decision.namespace is Namespace.REAL_LIFE

    @pytest.mark.parametrize("bad", ["fiction", "", "REAL LIFE", 3])
    def test_an_unknown_namespace_raises(self, bad: object) -> None:
        with pytest.raises(UnknownNamespaceError):
            should_auto_create_memory_candidate("we decided to keep Supabase", namespace=bad)  # type: ignore[arg-type]


def test_a_memory_of_another_type_about_someone_in_the_users_life_waits_for_review() -> None:
    decision = should_auto_create_memory_candidate(
        "I need to send Hana the photos from the wedding before friday", namespace="real_life"
    )

    assert decision.memory_type is MemoryType.OPEN_LOOP, decision.reason
    assert decision.requires_review
    assert "candidate.review.personal" in decision.rules


@pytest.mark.parametrize(
    ("message", "memory_type"),
    [
        ("still need to ring Tobiah about splitting the storage unit fee, by the 3rd", MemoryType.OPEN_LOOP),
        ("merged Ilka's PR for the CSV export fix into main", MemoryType.MERGED_PR),
        ("할머니 보청기 서류 아직 못 냈어. 이번 주에 내야 함", MemoryType.OPEN_LOOP),
    ],
)
def test_a_real_life_memory_naming_another_person_waits_for_review(
    message: str, memory_type: MemoryType
) -> None:
    decision = should_auto_create_memory_candidate(message, namespace="real_life")

    assert decision.memory_type is memory_type, decision.reason
    assert decision.sensitivity in (Sensitivity.LOW, Sensitivity.MEDIUM), decision.reason
    assert decision.requires_review
    assert "candidate.review.other_person" in decision.rules
    assert "names another person" in decision.reason


def test_a_memory_naming_nobody_or_naming_a_character_is_not_held_for_the_person_rule() -> None:
    own_work = should_auto_create_memory_candidate(
        "still need to rotate the staging certs before the 3rd", namespace="real_life"
    )
    character = should_auto_create_memory_candidate(
        "canon: Tobiah keeps the spare key to the lighthouse, always", namespace="au"
    )

    for decision in (own_work, character):
        assert decision.should_create_candidate, decision.reason
        assert "candidate.review.other_person" not in decision.rules


def test_a_yes_to_the_assistants_offer_carries_the_offers_sensitivity() -> None:
    offer = "Want me to remind you to chase the lender about the overdue installment?"
    agreed = should_auto_create_memory_candidate(
        "yes, still nothing from them, keep it on the list", offer, "real_life"
    )
    own_words = should_auto_create_memory_candidate(
        "still nothing from them, keep it on the list", None, "real_life"
    )

    assert agreed.sensitivity is Sensitivity.HIGH, agreed.reason
    assert agreed.requires_review
    assert own_words.sensitivity is Sensitivity.LOW, own_words.reason


def test_korean_with_names_a_person_only_when_something_is_done_together() -> None:
    things = should_auto_create_memory_candidate(
        "앞으로 주석이랑 커밋 메시지는 영어로 써줘", namespace="real_life"
    )
    person = should_auto_create_memory_candidate(
        "배포는 금요일에만 하기로 윤재랑 정함", namespace="real_life"
    )

    assert things.should_create_candidate and person.should_create_candidate
    assert "candidate.review.other_person" not in things.rules, things.reason
    assert "candidate.review.other_person" in person.rules, person.reason


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("waiting on the landlord to return the deposit, chase him friday if nothing", MemoryType.OPEN_LOOP),
        ("applied for the grant renewal, waiting for their answer", MemoryType.OPEN_LOOP),
        ("통관 서류 보내놨고 세관 답변 기다리는중", MemoryType.OPEN_LOOP),
        ("waiting on the vendor's api keys before we can start the integration", MemoryType.BLOCKER),
        (
            "the app can't send receipts because the domain is unverified, waiting on the registrar",
            MemoryType.BLOCKER,
        ),
    ],
)
def test_waiting_is_an_open_loop_unless_something_waits_on_it(message: str, expected: MemoryType) -> None:
    decision = should_auto_create_memory_candidate(message, namespace="real_life")

    assert decision.memory_type is expected, decision.reason


@pytest.mark.parametrize("message", ["will do", "ok did both", "ㅇㅋ 그렇게 할게"])
def test_a_short_yes_to_a_sensitive_plan_takes_the_plans_sensitivity(message: str) -> None:
    reply = (
        "Then block the betting site for 30 days starting today and move the rest of the bonus to savings."
    )
    decision = should_auto_create_memory_candidate(message, reply, namespace="real_life")

    assert decision.should_create_candidate, decision.reason
    assert decision.memory_type is MemoryType.RISK, decision.reason
    assert decision.requires_review


@pytest.mark.parametrize(
    "message",
    [
        "spent $480 on figurines this month, that's my cap from now on",
        "장비 사느라 이번 달 30만원 썼어, 다음 달부터 월 10만원",
    ],
)
def test_a_real_life_memory_naming_a_sum_of_money_waits_for_review(message: str) -> None:
    decision = should_auto_create_memory_candidate(message, namespace="real_life")

    assert decision.should_create_candidate, decision.reason
    assert decision.requires_review, decision.reason
    assert "candidate.review.money" in decision.rules, decision.reason


def test_a_price_set_for_customers_is_no_reason_for_review() -> None:
    decision = should_auto_create_memory_candidate(
        "consulting rate decided: $140/hr, $2k flat audits", namespace="real_life"
    )

    assert "candidate.review.money" not in decision.rules, decision.reason


def test_a_sum_of_money_in_the_fiction_is_no_reason_for_review() -> None:
    decision = should_auto_create_memory_candidate(
        "canon: a night at the Gilded Eel costs 40 silver, $3 in the modern AU", namespace="au"
    )

    assert "candidate.review.money" not in decision.rules, decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "gift vouchers are parked till summer. not touching it",
        "brent at kestrel is the marketing guy, the owner pam is the one who actually signs",
    ],
)
def test_a_plain_statement_needs_less_evidence_than_a_hedged_one(message: str) -> None:
    plain = should_auto_create_memory_candidate(message, namespace="real_life")
    hedged = should_auto_create_memory_candidate(f"{message} lol maybe", namespace="real_life")

    assert plain.should_create_candidate, plain.reason
    assert not hedged.should_create_candidate, hedged.reason


@pytest.mark.parametrize(
    "message",
    [
        "pulled 5k out of the shop acct in jan to cover the mortgage, mike says that might come up later",
        "took 3k out of the studio acct to cover the mortgage in march, still haven't put it back",
    ],
)
def test_a_sum_without_its_currency_beside_an_account_still_waits_for_review(message: str) -> None:
    decision = should_auto_create_memory_candidate(message, namespace="real_life")

    assert decision.requires_review, decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "we're at 2300 followers on the shop page, the goal is 5k by summer",
        "decided: 1200 dpi scans for the card backs from now on",
        "the api returns 404 on the account page, fixing it tomorrow",
    ],
)
def test_a_number_that_counts_something_else_is_no_sum_of_money(message: str) -> None:
    decision = should_auto_create_memory_candidate(message, namespace="real_life")

    assert decision.should_create_candidate, decision.reason
    assert "candidate.review.money" not in decision.rules, decision.reason


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("new flat for the forms: Lindengracht 88A, Amsterdam. still need to change them", "street address"),
        ("returns go to 4417 rue des Érables, apt 3 from now on", "street address"),
        ("refunds go to the savings account 301-557-902144 from now on", "identifying number"),
        ("parcels for the club go to 77 harlow rd unit 5 from now on", "street address"),
        ("new office for the forms: Lindauer Str. 12, Berlin. still need to send it", "street address"),
    ],
)
def test_addresses_and_account_numbers_of_other_countries_are_private(message: str, cue: str) -> None:
    decision = should_auto_create_memory_candidate(message, namespace="real_life")

    assert decision.sensitivity is Sensitivity.PRIVATE, decision.reason
    assert cue in decision.reason, decision.reason
    assert decision.requires_review


def test_a_date_in_three_groups_is_no_account_number() -> None:
    decision = should_auto_create_memory_candidate(
        "release train moved to 12-01-2026 for the mobile app, final", namespace="real_life"
    )

    assert decision.sensitivity is not Sensitivity.PRIVATE, decision.reason


def test_a_statement_that_opens_on_a_person_is_about_the_relationship() -> None:
    decision = should_auto_create_memory_candidate(
        "my sister and i split the storage unit 50/50 since the move", namespace="real_life"
    )
    product = should_auto_create_memory_candidate(
        "aws says AccessDenied for the uploads bucket since the move", namespace="real_life"
    )

    assert "person subject" in decision.cues, decision.reason
    assert decision.memory_type is MemoryType.RELATIONSHIP_LOOP, decision.reason
    assert "person subject" not in product.cues, product.reason


@pytest.mark.parametrize(
    "message",
    [
        "some anon keeps saying i copied the cover art, my sketches are dated months earlier",
        "odile told the board i'm 'hard to manage'. that's going to follow me into the review",
    ],
)
def test_someone_saying_something_about_the_user_is_a_matter_of_reputation(message: str) -> None:
    decision = should_auto_create_memory_candidate(message, namespace="real_life")

    assert decision.sensitivity in (Sensitivity.HIGH, Sensitivity.PRIVATE), decision.reason
    assert decision.requires_review, decision.reason


def test_who_someone_is_to_the_user_is_a_relationship_fact() -> None:
    person = should_auto_create_memory_candidate(
        "ines is my manager at the bindery, strict about deadlines but fair", namespace="real_life"
    )
    tool = should_auto_create_memory_candidate("pnpm is our package manager now", namespace="real_life")

    assert person.memory_type is MemoryType.RELATIONSHIP_LOOP, person.reason
    assert tool.memory_type is not MemoryType.RELATIONSHIP_LOOP, tool.reason


@pytest.mark.parametrize(
    "message",
    [
        "Is landlord insurance generally worth having, would you say?",
        "should tenants pay the boiler service, or me?",
    ],
)
def test_a_question_opening_on_an_auxiliary_asks_from_its_first_word(message: str) -> None:
    clauses = read_text(message, candidate_rules())

    assert all(clause.mood not in DURABLE_MOODS for clause in clauses), clauses


def test_an_acceptance_before_a_question_stays_an_acceptance() -> None:
    clauses = read_text("will do, can you draft the email too?", candidate_rules())

    assert clauses[0].mood in DURABLE_MOODS, clauses


@pytest.mark.parametrize(
    "message",
    [
        "i don't know about pydantic v2 yet, sticking with v1 for now",
        "the UI looks bad on mobile, fixing it friday",
        "root cause was the cron running twice, fixed in the deploy",
        "screenshots of the new onboarding are in the drive",
        "머지 충돌 나서 리베이스함",
        "코드 재검토 끝나면 배포하기로",
        "the accumulator pattern is cleaner here, decided",
        "written up the RFC, review on tuesday",
    ],
)
def test_everyday_words_of_work_chat_carry_no_high_sensitivity(message: str) -> None:
    decision = should_auto_create_memory_candidate(message, namespace="real_life")

    assert decision.sensitivity in (Sensitivity.LOW, Sensitivity.MEDIUM), decision.reason
