"""Context rules of the candidate policy: hearsay, take-backs and corrections, tag questions, evidence
that counts for another type in context, and the sensitivity of family, conflict and health turns."""

import pytest
from pandora_memory.policy.candidate import should_auto_create_memory_candidate
from pandora_memory.policy.candidate_rules import candidate_rules
from pandora_memory.policy.clauses import read_text
from pandora_memory.policy.models import CandidateDecision, CandidateStatus, MemoryType, Sensitivity


def _decide(message: str, namespace: str = "real_life") -> CandidateDecision:
    return should_auto_create_memory_candidate(message, namespace=namespace)


class TestHearsay:
    @pytest.mark.parametrize(
        "message",
        [
            "I heard that Deno 3 drops the permission flags",
            "apparently the housing market is cooling off",
            "people say you should always negotiate the first offer",
            "the forecast says rain for the whole week",
            "j'ai lu que le prix du cuivre va encore monter",
        ],
    )
    def test_reported_news_and_received_wisdom_are_not_memories(self, message: str) -> None:
        decision = _decide(message)
        assert decision.status is CandidateStatus.NOT_CANDIDATE, decision.reason
        assert "candidate.mood.reported" in decision.rules

    def test_what_the_user_read_is_hearsay_but_what_they_read_is_a_habit(self) -> None:
        assert _decide("i read bun 2 is faster than node now").status is CandidateStatus.NOT_CANDIDATE
        habit = _decide("i read on the train every morning, it's the only quiet time i get")
        assert habit.memory_type is MemoryType.PREFERENCE, habit.reason

    @pytest.mark.usefixtures("rules_only_types")
    def test_hearsay_the_user_acts_on_is_their_memory(self) -> None:
        decision = _decide("I read that Heroku is ending hobby dynos, so we're moving the bot to Fly.io")
        assert decision.status is CandidateStatus.CANDIDATE, decision.reason
        # A move of the bot to a host is both a decision and where it runs.
        assert decision.memory_type in (MemoryType.PROJECT_DECISION, MemoryType.DEPLOYMENT_TRUTH)
        assert "i read that" not in decision.cues

    def test_hearsay_about_the_users_own_world_stays_a_statement(self) -> None:
        decision = _decide("apparently our landlord is selling the flat, we have to move out by june")
        assert "candidate.mood.reported" not in decision.rules


class TestTakingBack:
    @pytest.mark.parametrize(
        "message",
        [
            "the kickoff is on monday — no wait, disregard, Ana hasn't confirmed",
            "we're moving billing to Paddle. jk, we're staying with Stripe",
            "Sol is Ivo's twin - no, sorry, I'm mixing them up, ignore",
            "the api rate limit is 50/min, scratch that, it was the old project",
            "I said I'd call the plumber about the boiler but forget it, the landlord handles it",
            "set the retry count to 5. actually no, leave it as it was",
            "oublie ce que j'ai dit sur le tarif, c'était une blague",
            "방금 말한 할인 건 취소. 없던 일로 해줘",
        ],
    )
    def test_a_retraction_and_its_reason_leave_no_memory(self, message: str) -> None:
        decision = _decide(message)
        assert decision.status is CandidateStatus.NOT_CANDIDATE, decision.reason
        assert "candidate.durability.retraction" in decision.rules

    def test_a_correction_with_a_new_value_is_a_candidate(self) -> None:
        decision = _decide("the annual plan is priced at 90 — no wait, it's 120 now")
        assert decision.status is CandidateStatus.CANDIDATE, decision.reason
        assert decision.memory_type is MemoryType.BUSINESS_PRIORITY
        assert "candidate.durability.correction" in decision.rules
        assert "120" in decision.summary

    def test_a_retraction_followed_by_a_new_decision_keeps_the_decision(self) -> None:
        decision = _decide("we're going with Mapbox. scratch that, we're going with MapLibre")
        assert decision.status is CandidateStatus.CANDIDATE, decision.reason
        assert "Mapbox" not in decision.summary


@pytest.mark.parametrize(
    "message",
    ["je préfère les tableaux aux listes, ok?", "I prefer metric units in recipes, right?"],
)
def test_a_tag_question_does_not_make_a_statement_a_question(message: str) -> None:
    decision = _decide(message)
    assert decision.status is CandidateStatus.CANDIDATE, decision.reason
    assert decision.memory_type is MemoryType.PREFERENCE


class TestEvidenceInContext:
    def test_a_decision_about_a_config_key_is_a_config_decision(self) -> None:
        decision = _decide("we decided WORKER_CONCURRENCY stays at 4 in prod")
        assert decision.memory_type is MemoryType.ENV_CONFIG_DECISION, decision.reason
        assert "candidate.transfer.config_key" in decision.rules

    def test_an_upper_case_assignment_is_config(self) -> None:
        decision = _decide("PGTZ=UTC for every database connection from now on")
        assert decision.memory_type is MemoryType.ENV_CONFIG_DECISION, decision.reason

    def test_a_personal_rule_about_money_trouble_is_a_risk(self) -> None:
        decision = _decide("my overdraft is at 1,900. rule: no more takeout until it's cleared")
        assert decision.memory_type is MemoryType.RISK, decision.reason
        assert "candidate.transfer.risk_rule" in decision.rules
        assert decision.requires_review

    def test_a_plain_team_rule_stays_a_decision(self) -> None:
        decision = _decide("rule: no merges to main without a green build")
        assert decision.memory_type is MemoryType.PROJECT_DECISION, decision.reason

    def test_a_writer_stuck_on_a_chapter_is_blocked_in_the_fiction_namespace(self) -> None:
        decision = _decide("can't finish chapter 6 until I know who betrays the guild", namespace="au")
        assert decision.memory_type is MemoryType.BLOCKER, decision.reason

    def test_a_character_stuck_in_the_story_is_canon(self) -> None:
        decision = _decide("Veyra can't leave the tower until the eclipse, that's the curse", namespace="au")
        assert decision.memory_type is MemoryType.AU_CANON, decision.reason

    @pytest.mark.parametrize(
        "message",
        ["ok I skimmed your answer, makes sense", "I tweaked two lines in your draft, reads better"],
    )
    def test_feedback_on_the_reply_is_not_a_memory(self, message: str) -> None:
        assert _decide(message).status is CandidateStatus.NOT_CANDIDATE


@pytest.mark.parametrize(
    ("message", "level"),
    [
        ("still haven't told my dad I failed the bar exam, need to before sunday", Sensitivity.PRIVATE),
        ("my sister doesn't know I'm paying off her car loan", Sensitivity.PRIVATE),
        ("Marco and I clashed again in the design review, I'll talk to him tomorrow", Sensitivity.HIGH),
        ("Jonas and I had a huge row, he's not picking up my calls", Sensitivity.HIGH),
        ("a reporter asked me about the breach at my old employer, I'm not commenting", Sensitivity.HIGH),
        ("my tendinitis flared up again, so no climbing until june. hold me to it", Sensitivity.HIGH),
        ("started atorvastatin this week, so no grapefruit from now on", Sensitivity.HIGH),
        ("our insurance lapsed in august; renewing is blocked until the broker replies", Sensitivity.HIGH),
        ("Noa stayed over for the first time, still processing it", Sensitivity.PRIVATE),
    ],
)
def test_family_secrets_conflicts_and_press_are_gated(message: str, level: Sensitivity) -> None:
    decision = _decide(message)
    assert decision.status is CandidateStatus.CANDIDATE, decision.reason
    assert decision.sensitivity is level, decision.reason
    assert decision.requires_review


@pytest.mark.parametrize(
    "message",
    [
        "I disabled the cron for the weekend",
        "the payment settlement job runs at 2am",
        "we add the copyright header to every source file",
        "the sync needs empathy in its error messages, plain words only",
    ],
)
def test_engineering_words_shared_with_sensitive_topics_stay_low(message: str) -> None:
    assert _decide(message).sensitivity is Sensitivity.LOW, _decide(message).reason


@pytest.mark.parametrize("message", ["validation comes before parsing, always", "the sync runs hourly now"])
def test_engineering_order_and_schedules_are_no_business_priority(message: str) -> None:
    assert _decide(message).memory_type is not MemoryType.BUSINESS_PRIORITY, _decide(message).reason


def test_a_budget_breakdown_is_not_a_crisis() -> None:
    decision = _decide("todo: send the client the cost breakdown for phase two")
    assert decision.sensitivity not in (Sensitivity.HIGH, Sensitivity.PRIVATE), decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "summarise this pls:\nOur team decided to keep the office open on Fridays from now on.",
        'convert to yaml:\n{"retries": 3, "we_always": "deploy on friday"}',
    ],
)
def test_material_pasted_after_a_request_is_not_the_users_statement(message: str) -> None:
    assert not _decide(message).should_create_candidate, _decide(message).reason


@pytest.mark.parametrize(
    "message",
    [
        "translate to german: we always invoice on the first of the month",
        "이 문장 좀 다듬어줘: 저희는 항상 고객을 먼저 생각합니다",
    ],
)
def test_material_after_a_request_lead_on_the_same_line_is_set_aside(message: str) -> None:
    assert not _decide(message).should_create_candidate, _decide(message).reason


def test_a_note_label_keeps_its_statement() -> None:
    assert _decide("note: we moved the launch to march").should_create_candidate


@pytest.mark.parametrize(
    "message",
    [
        "should STRICT_MODE be on by default?",
        "do we always ship on fridays?",
        "how do landlords usually handle a tenant who's always late with rent?",
        "why does my cat always sit on the keyboard?",
    ],
)
def test_asking_whether_a_rule_holds_does_not_set_it(message: str) -> None:
    assert not _decide(message).should_create_candidate, _decide(message).reason


def test_asking_the_assistant_to_always_do_something_sets_a_preference() -> None:
    decision = _decide("can you always answer in korean?")
    assert decision.memory_type is MemoryType.PREFERENCE, decision.reason


def test_refusing_a_proposal_accepts_nothing_from_it() -> None:
    reply = "I could move the cron job to run every ten minutes instead of hourly."
    for refusal in ("no, don't do that", "no thanks", "nope, please don't"):
        decision = should_auto_create_memory_candidate(refusal, reply, namespace="real_life")
        assert decision.status is CandidateStatus.NOT_CANDIDATE, decision.reason
    accepted = should_auto_create_memory_candidate("yes do that", reply, namespace="real_life")
    assert accepted.should_create_candidate, accepted.reason


def test_sending_the_drafted_message_accepts_it_and_refusing_to_send_it_does_not() -> None:
    reply = 'You could reply: "Happy to swap the 12th if we swap back on the 26th, so the kids get both."'
    for sent in ("sent it like that", "sent it as is", "she said ok, swapped", "ok sending that tonight"):
        decision = should_auto_create_memory_candidate(sent, reply, namespace="real_life")
        assert decision.should_create_candidate, decision.reason
        assert "candidate.assistant.accepted" in decision.rules
    refused = should_auto_create_memory_candidate("no dont send that, ill think about it", reply)
    assert refused.status is CandidateStatus.NOT_CANDIDATE, refused.reason


def test_a_fiction_only_cue_does_not_stop_a_real_life_yes_from_accepting() -> None:
    # "always" is an au_canon cue as well; a real-life turn cannot be canon, so it is no evidence
    # of the user's own that would make the reply unneeded.
    reply = "Going forward I could write your commit messages in the imperative mood. Want that?"
    decision = should_auto_create_memory_candidate("yes, always do that", reply, namespace="real_life")
    assert decision.should_create_candidate, decision.reason
    assert "candidate.assistant.accepted" in decision.rules


def test_a_yes_that_only_says_it_is_decided_takes_its_type_from_the_proposal() -> None:
    reply = (
        "Suggestion: you and your sister alternate Sundays visiting your mum, and you text her on Wednesdays."
    )
    decision = should_auto_create_memory_candidate("yes lock it in", reply, namespace="real_life")

    assert decision.memory_type is MemoryType.RELATIONSHIP_LOOP, decision.reason
    assert "candidate.assistant.accepted" in decision.rules


def test_an_idiom_of_pain_is_no_decision_to_kill_something() -> None:
    assert not _decide("this deadline is killing me").should_create_candidate
    assert _decide("we're killing the legacy csv importer").memory_type is MemoryType.PROJECT_DECISION


def test_a_labelled_list_is_not_pasted_material() -> None:
    decision = _decide("todo:\nrenew the domain before friday")

    assert decision.memory_type is MemoryType.OPEN_LOOP


@pytest.mark.parametrize(
    "message",
    [
        "a coworker told me Figma is killing the free tier",
        "saw a thread saying the registry is going read-only next year",
        "the newsletter said wax prices are going up 20% next year",
        "folks on reddit say the new ios build rejects any app with a lottery wheel",
        "vercel이 내년에 요금제 바꾼다는 기사 봤어",
    ],
)
def test_what_others_report_is_not_the_users_memory(message: str) -> None:
    assert not _decide(message).should_create_candidate, _decide(message).reason


def test_an_agreement_between_people_is_a_relationship_but_one_about_a_project_stays_a_decision() -> None:
    couple = _decide("Noor and I agreed: no work talk at dinner, every night")
    colleagues = _decide("Marta and I agreed the invoice API stays on v1 until March")

    assert couple.memory_type is MemoryType.RELATIONSHIP_LOOP
    assert "candidate.transfer.relationship_agreement" in couple.rules
    assert colleagues.memory_type is MemoryType.PROJECT_DECISION


@pytest.mark.parametrize(
    "message",
    [
        "Sunny and I decided: whoever gets home first cooks, and we take turns with the dishes",
        "Odile이랑 다음 주 토요일에 점심 먹기로 했어. 오랜만이라 긴장됨",
        "지안이가 연말에 서울 오기로 했어. 내가 역으로 데리러 가기로 함",
    ],
    ids=["someone and I", "latin name with a korean particle", "korean name as the subject"],
)
def test_a_plan_made_with_a_person_and_about_nothing_else_is_a_relationship(message: str) -> None:
    decision = _decide(message)

    assert decision.memory_type is MemoryType.RELATIONSHIP_LOOP, decision.reason
    assert "candidate.transfer.relationship_agreement" in decision.rules


def test_a_lower_case_name_with_a_korean_with_particle_counts_where_the_cue_is_about_people() -> None:
    made_up = _decide("ondine랑 화해했어. 다음 주에 다시 보기로 함")
    tools = _decide("supabase랑 vercel 설정은 끝났어")

    assert made_up.memory_type is MemoryType.RELATIONSHIP_LOOP, made_up.reason
    assert tools.sensitivity is Sensitivity.LOW, tools.reason


def test_an_intimate_detail_involves_someone_even_unnamed() -> None:
    decision = _decide("sam said i love you first and i panicked. we're talking it through on sunday")

    assert decision.memory_type is MemoryType.RELATIONSHIP_LOOP, decision.reason
    assert decision.sensitivity is Sensitivity.PRIVATE
    assert decision.requires_review


def test_a_quarrel_involves_someone_even_unnamed() -> None:
    decision = _decide("we had a huge fight about the holidays. I said I'd decide about flying home by june")

    assert decision.memory_type is MemoryType.RELATIONSHIP_LOOP, decision.reason


def test_a_plan_with_a_person_about_work_stays_a_decision() -> None:
    decision = _decide("Odile이랑 배포는 vercel에서 하기로 했어")

    assert decision.memory_type is not MemoryType.RELATIONSHIP_LOOP, decision.reason


def test_latin_words_glued_to_korean_particles_still_match_their_cues() -> None:
    glued = _decide("프론트는 이제 vercel에서 돌아가, 백엔드는 fly.io")
    spaced = _decide("프론트는 이제 vercel 에서 돌아가, 백엔드는 fly.io")

    assert glued.memory_type is MemoryType.DEPLOYMENT_TRUTH
    assert "'vercel'" in glued.reason, glued.reason
    assert glued.reason == spaced.reason


@pytest.mark.usefixtures("rules_only_types")
def test_generic_decision_wording_in_a_turn_about_the_business_is_a_business_priority() -> None:
    business = _decide("decided: no more discounts, not even for friends")
    product = _decide("decided: no more discount codes in the repo, an env var only")

    assert business.memory_type is MemoryType.BUSINESS_PRIORITY, business.reason
    assert "candidate.transfer.business_decision" in business.rules
    assert "candidate.transfer.business_decision" not in product.rules, product.reason


def test_a_standing_rule_about_a_setting_is_a_config_decision_but_a_bare_fact_stays_a_deployment() -> None:
    rule = _decide("ruby pinned to 3.3 via .ruby-version in every repo, don't bump it without me")
    fact = _decide("the billing api: node 20 and pnpm 9, pinned in .nvmrc")

    assert rule.memory_type is MemoryType.ENV_CONFIG_DECISION, rule.reason
    assert "candidate.transfer.config_rule" in rule.rules
    assert fact.memory_type is MemoryType.DEPLOYMENT_TRUTH, fact.reason


def test_a_korean_take_back_that_leaves_nothing_decided_is_no_memory() -> None:
    assert not _decide("아 방금 말한 거 취소. 출시일 아직 안 정했어").should_create_candidate


def test_x_it_is_settles_a_choice() -> None:
    decision = _decide("ok, sveltekit it is")

    assert decision.memory_type is MemoryType.PROJECT_DECISION, decision.reason
    assert not _decide("it is what it is").should_create_candidate


def test_and_i_names_a_companion_only_near_the_start_of_a_clause() -> None:
    thing = _decide("the bot can't go live: verification needs a privacy policy and I don't have one")
    companion = _decide("mina and I agreed to split rent 60/40 from now on")

    assert thing.sensitivity is Sensitivity.LOW, thing.reason
    assert "someone and I" in companion.reason


def test_an_auxiliary_before_a_number_asks_a_question() -> None:
    assert not _decide("is 6 hours of sleep enough long term").should_create_candidate


def test_a_korean_clause_ending_in_a_request_asks_unless_it_sets_a_standing_rule() -> None:
    assert not _decide("이 문단 좀 더 자연스럽게 고쳐줘").should_create_candidate
    standing = _decide("앞으로 코드 예시는 타입스크립트로만 해줘")
    assert standing.memory_type is MemoryType.PREFERENCE, standing.reason


def test_a_request_under_a_korean_when_clause_is_a_standing_rule() -> None:
    """ "물어볼 땐 … 답해줘" (when I ask…, answer…) sets a rule the way "from now on" does."""
    assert not _decide("이 표 그램 단위로 바꿔줘").should_create_candidate
    rule = _decide("빵 레시피 물어볼 땐 그램 단위로만 답해줘")
    assert rule.memory_type is MemoryType.PREFERENCE, rule.reason


@pytest.mark.parametrize(
    "message",
    [
        "다음 달부터 서버 전부 fly로 옮기면 어떨까",
        "도메인 갱신하면 일 년에 얼마야",
        "이번 배포는 전부 금요일에 할까",
    ],
)
def test_a_korean_clause_ending_in_a_question_form_asks_without_a_question_mark(message: str) -> None:
    decision = _decide(message)

    assert decision.status is CandidateStatus.NOT_CANDIDATE, decision.reason


def test_a_korean_negative_command_with_never_is_a_preference() -> None:
    decision = _decide("인보이스 메일엔 느낌표 절대 넣지 마. 가벼워 보여")

    assert decision.memory_type is MemoryType.PREFERENCE, decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "민재한테 50만원 빌려줬음. 다음 달에 갚는대",
        "Inés wants to move in together by spring, I said yes",
        "ravi apologised for missing the rehearsal, we're fine now",
    ],
    ids=["korean name with its particle", "accented capitalised name", "lower-case name before a verb"],
)
def test_a_named_person_makes_it_a_relationship_memory(message: str) -> None:
    decision = _decide(message)

    assert decision.memory_type is MemoryType.RELATIONSHIP_LOOP, decision.reason
    assert "named person" in decision.reason


def test_a_fact_about_a_definite_thing_of_the_fiction_is_canon() -> None:
    decision = _decide("the old lighthouse burned down in the winter of the long storm", namespace="au")

    assert decision.memory_type is MemoryType.AU_CANON, decision.reason
    assert "world subject" in decision.reason


def test_a_korean_statement_about_a_thing_of_the_fiction_is_canon() -> None:
    fact = _decide("등대지기는 12장 시점에 이미 편지를 읽었어. 주인공만 몰라", namespace="au")
    mood = _decide("오늘은 글이 진짜 안 써진다", namespace="au")

    assert fact.memory_type is MemoryType.AU_CANON, fact.reason
    assert "world subject" in fact.reason and "chapter <num>" in fact.reason
    assert not mood.should_create_candidate, mood.reason


def test_a_todo_about_the_writing_stays_an_open_loop_in_the_fiction() -> None:
    decision = _decide("AU todo: fix the ch 4 timeline where the wedding comes too early", namespace="au")

    assert decision.memory_type is MemoryType.OPEN_LOOP, decision.reason


def test_what_a_retraction_is_about_is_not_a_new_statement() -> None:
    assert not _decide("ignore what I said about moving the blog to ghost").should_create_candidate
    kept = _decide("ignore what I said about the plan, we're going with Postgres")
    assert kept.memory_type is MemoryType.PROJECT_DECISION, kept.reason


def test_a_turn_about_the_writing_keeps_its_type_in_the_fiction() -> None:
    rule = _decide("Mira's chapters should always open on a line of dialogue, that's my rule for her", "au")
    stuck = _decide("chapter 9 is stalled until I work out how Wren crosses the salt flats", "au")

    assert rule.memory_type is MemoryType.PREFERENCE, rule.reason
    assert stuck.memory_type is MemoryType.BLOCKER, stuck.reason


def test_a_request_lead_that_sets_a_standing_rule_keeps_what_follows_its_colon() -> None:
    standing = _decide("send parcels to my new place from now on: 14 Harrow Road")
    one_off = _decide("translate to german: send parcels to 14 Harrow Road")

    assert standing.sensitivity is Sensitivity.PRIVATE, standing.reason
    assert not one_off.should_create_candidate, one_off.reason


@pytest.mark.parametrize(
    "message",
    [
        "refunds always go to my place, 27 Larkin Close, Dunmore",
        "택배는 앞으로 무조건 새 주소로 보내줘: 마포구 성미산로 41 나동 702호",
        "세금계산서에 사업자등록번호 204-18-66321 넣어야 함, 내일까지 해야 돼",
    ],
)
def test_a_street_address_or_an_id_number_is_private(message: str) -> None:
    decision = _decide(message)

    assert decision.sensitivity is Sensitivity.PRIVATE, decision.reason
    assert decision.requires_review


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        ("hmm none of those, give me different names", "Some options: Brightwell, Ashcombe, Tarn Hollow."),
        ("nah, show me more options first", "I could make the tavern keeper a former soldier."),
    ],
)
def test_asking_for_other_options_accepts_nothing(message: str, reply: str) -> None:
    decision = should_auto_create_memory_candidate(message, reply, namespace="au")

    assert decision.status is CandidateStatus.NOT_CANDIDATE, decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "vite or webpack for a tiny internal dashboard, which builds faster?",
        "is blackjack card counting legal or just frowned on",
    ],
)
def test_alternatives_set_side_by_side_are_a_question(message: str) -> None:
    assert not _decide(message).should_create_candidate, _decide(message).reason


def test_an_order_with_alternatives_stays_an_order() -> None:
    decision = _decide("don't put odds or point spreads in any answer, keep that stuff out")

    assert decision.should_create_candidate, decision.reason


@pytest.mark.parametrize("refusal", ["no thanks, not now", "nah, not right now"])
def test_a_short_refusal_states_nothing(refusal: str) -> None:
    reply = "Should I also set up a weekly digest email for new signups?"
    decision = should_auto_create_memory_candidate(refusal, reply, namespace="real_life")

    assert decision.status is CandidateStatus.NOT_CANDIDATE, decision.reason
    assert "candidate.durability.refusal" in decision.rules


def test_a_refusal_that_sets_a_rule_is_still_a_preference() -> None:
    reply = "Want me to add motivational quotes at the end of each summary?"
    decision = should_auto_create_memory_candidate("no, never add those", reply, namespace="real_life")

    assert decision.should_create_candidate, decision.reason


def test_a_korean_yes_to_a_recommendation_is_a_choice() -> None:
    reply = "이미지 파일 이름은 한글 대신 영어로 바꾸는 걸 추천드려요. 그렇게 바꿀까요?"
    decision = should_auto_create_memory_candidate("네 그렇게 해주세요", reply, namespace="real_life")

    assert decision.should_create_candidate, decision.reason
    assert decision.requires_review


def test_a_korean_title_with_an_honorific_is_someone_in_the_users_life() -> None:
    reply = "집사님께는 전화보다 문자로 먼저 정중하게 말씀드리는 게 좋겠어요. 이렇게 할까요?"
    answer = "네 그렇게 할게요. 전화는 안 할래요"
    decision = should_auto_create_memory_candidate(answer, reply, namespace="real_life")

    assert decision.memory_type is MemoryType.RELATIONSHIP_LOOP, decision.reason


@pytest.mark.parametrize("pick", ["B", "ok option 2 then", "go with b please"])
def test_picking_one_of_the_lettered_options_is_a_reviewed_decision(pick: str) -> None:
    reply = (
        "Two ways to store the drafts: (1) local IndexedDB with sync on save, or (B) server-side "
        "autosave every 30 seconds. Which do you prefer?"
    )
    decision = should_auto_create_memory_candidate(pick, reply, namespace="real_life")

    assert decision.memory_type is MemoryType.PROJECT_DECISION, decision.reason
    assert decision.requires_review


def test_a_lone_letter_without_options_in_the_reply_is_no_choice() -> None:
    decision = should_auto_create_memory_candidate("B", "Sounds good, talk soon!", namespace="real_life")

    assert not decision.should_create_candidate, decision.reason


def test_comparing_two_things_by_versus_is_a_question() -> None:
    assert not _decide("Postgres vs SQLite for a tiny CLI, which is simpler?").should_create_candidate


def test_deferring_an_offer_states_nothing() -> None:
    reply = "Want me to keep every chapter under 3,000 words from now on?"
    decision = should_auto_create_memory_candidate("let me reread the outline first", reply, namespace="au")

    assert decision.status is CandidateStatus.NOT_CANDIDATE, decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "경마 배당은 어떻게 계산하는 거야",
        "remind me how to squash the last three commits",
        "redis cluster로 가면 어떨까... 결정 아님, 그냥 생각중",
        "if we ever moved to Lisbon how does school enrolment work there? not planning anything yet",
    ],
)
def test_korean_wh_questions_how_to_reminders_and_musings_are_not_memories(message: str) -> None:
    assert not _decide(message).should_create_candidate, _decide(message).reason


def test_a_korean_statement_ending_like_a_question_without_a_question_word_stays_a_statement() -> None:
    assert _decide("다음 달부터 배포는 금요일에 안 하기로 했어").should_create_candidate


def test_a_first_line_asking_for_work_on_this_leads_the_pasted_lines() -> None:
    pasted = "can you turn this into a markdown table\nplan | price\nsolo | 19\nteam | 29"

    assert not should_auto_create_memory_candidate(pasted, namespace="real_life").should_create_candidate


def test_a_first_line_that_is_the_users_own_statement_keeps_the_lines_after_it() -> None:
    message = "new rule for the team wiki\nevery page gets an owner and a review date from now on"

    assert should_auto_create_memory_candidate(message, namespace="real_life").should_create_candidate


def test_a_korean_sentence_closed_by_a_comma_is_not_swallowed_by_the_request_after_it() -> None:
    decision = should_auto_create_memory_candidate(
        "참고로 나 채식주의자야, 밀프렙 아이디어에 고기 빼줘", namespace="real_life"
    )

    assert decision.should_create_candidate, decision.reason
    assert decision.memory_type.value == "preference"


def test_rule_words_beside_a_strong_taste_are_the_tastes_not_the_canons() -> None:
    taste = _decide("i'd rather you never give the smugglers new named ships without asking me first", "au")
    canon = _decide("the smugglers never sail north of the reef, it's canon", "au")

    assert taste.memory_type is MemoryType.PREFERENCE, taste.reason
    assert "candidate.transfer.taste" in taste.rules
    assert canon.memory_type is MemoryType.AU_CANON, canon.reason
    assert "candidate.transfer.taste" not in canon.rules


def test_thanks_for_an_answer_that_proposed_nothing_accepts_nothing() -> None:
    answer = "The capital of Australia is Canberra, not Sydney."
    offer = "Want me to keep your client emails under 120 words from now on?"

    thanked = should_auto_create_memory_candidate("perfect, thanks", answer, namespace="real_life")
    accepted = should_auto_create_memory_candidate("perfect, thanks", offer, namespace="real_life")

    assert not thanked.should_create_candidate, thanked.reason
    assert "candidate.assistant.thanked" in thanked.rules
    assert accepted.should_create_candidate, accepted.reason
    assert accepted.memory_type is MemoryType.PREFERENCE


@pytest.mark.parametrize(
    "message",
    [
        "What if the lighthouse burned down in the prologue? Just a thought, not decided.",
        "Give me three names for the ferry captain. Nothing's decided yet.",
    ],
)
def test_a_capital_that_only_opens_a_sentence_and_the_words_of_a_doubt_state_no_canon(message: str) -> None:
    decision = _decide(message, "au")

    assert not decision.should_create_candidate, decision.reason
    assert "character subject" not in decision.reason


def test_a_lower_case_name_before_said_is_a_person_but_the_docs_are_not() -> None:
    person = _decide("ilse said the deposit comes back in march, i'm holding her to it")
    docs = _decide("the readme says node 20 is pinned for the api, keeping it that way")

    assert person.requires_review, person.reason
    assert "named person" in person.reason
    assert "named person" not in docs.reason


def test_what_is_owed_in_a_strained_relationship_is_the_relationships_not_a_promised_deliverable() -> None:
    strained = _decide(
        "Oksana and I still aren't really talking since the budget argument, I need to text her before monday"
    )
    deliverable = _decide("promised Oksana the revised floor plan by sunday, still owe her")

    assert strained.memory_type is MemoryType.RELATIONSHIP_LOOP, strained.reason
    assert deliverable.memory_type is MemoryType.OPEN_LOOP, deliverable.reason


class TestAcceptedOffers:
    def test_accepting_an_offered_change_to_the_users_setup_is_their_decision(self) -> None:
        decision = should_auto_create_memory_candidate(
            "yes do that, 4 workers",
            "I can add a Celery queue 'exports' with 4 workers and route the PDF export tasks to it.",
        )
        assert decision.status is CandidateStatus.CANDIDATE, decision.reason

    def test_accepting_an_offer_of_words_is_no_memory(self) -> None:
        decision = should_auto_create_memory_candidate(
            "ok sure", "Want me to also draft the welcome email for the new volunteers?"
        )
        assert decision.status is CandidateStatus.NOT_CANDIDATE, decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "rosalind is my PI, kind but slow on email, ring her if it's urgent",
        "teodor (my cousin's husband) fixes our van for free now",
    ],
)
def test_who_someone_is_to_the_user_is_a_relationship_fact(message: str) -> None:
    decision = _decide(message)
    assert decision.status is CandidateStatus.CANDIDATE, decision.reason
    assert decision.memory_type is MemoryType.RELATIONSHIP_LOOP, decision.reason


def test_a_debt_with_its_sums_and_months_is_a_risk_not_a_business_priority() -> None:
    decision = _decide("the store card is at 2.4k, paying 150 a month off it since the overdraft")
    assert decision.memory_type is MemoryType.RISK, decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "for the visa forms: home is Lindenweg 14, and my PESEL is 85031204567",
        "my AMKA is 22118504417, the clinic keeps asking",
        "packages go to my place now: 1408 W Fulton Ave, set it as the default",
    ],
)
def test_a_home_and_an_identifying_number_stated_as_the_users_are_a_private_record(message: str) -> None:
    decision = _decide(message)
    assert decision.status is CandidateStatus.CANDIDATE, decision.reason
    assert decision.sensitivity is Sensitivity.PRIVATE, decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "passport no. K48213907 expires next june, need it for the visa form",
        "tax id 482-19-3307 goes on the invoice template",
        "the nursing board reg no. is RN20481173, renewal is due in march",
        "my uscis receipt number is MSC2291847730, save it for the status page",
    ],
)
def test_a_number_named_as_a_personal_documents_is_private_without_my(message: str) -> None:
    decision = _decide(message)
    assert decision.status is CandidateStatus.CANDIDATE, decision.reason
    assert decision.sensitivity is Sensitivity.PRIVATE, decision.reason
    assert "identifying number" in decision.reason


@pytest.mark.parametrize(
    "message",
    ["dani's my physio, she's on thursdays at the sports clinic", "rob's our bookkeeper since the spring"],
)
def test_who_someone_is_to_the_user_reads_the_same_contracted(message: str) -> None:
    decision = _decide(message)
    assert decision.memory_type is MemoryType.RELATIONSHIP_LOOP, decision.reason
    assert "'is my" in decision.reason or "'is our" in decision.reason


@pytest.mark.parametrize(
    ("message", "memory_type"),
    [
        ("waitin on the council tae send the parking permit", MemoryType.OPEN_LOOP),
        ("the club found out about my drink driving conviction, the committee meets friday", MemoryType.RISK),
        ("put 200 on betway again last night, down 900 this month", MemoryType.RISK),
        ("uninstalled the rummy app again, third time this month", MemoryType.RISK),
        ("have to pay dev back the 300 by friday. no excuses this time", MemoryType.OPEN_LOOP),
    ],
)
def test_dropped_gs_criminal_records_and_betting_sites_are_read(
    message: str, memory_type: MemoryType
) -> None:
    decision = _decide(message)
    assert decision.status is CandidateStatus.CANDIDATE, decision.reason
    assert decision.memory_type is memory_type, decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "sold the tesla shares at a realized loss of 2,100, done with single stocks",
        "the gym membership is 4 months behind, they sent it to collections",
        "got a final notice from the water company, 380 owing",
    ],
)
def test_losses_arrears_and_final_notices_are_high(message: str) -> None:
    decision = _decide(message)
    assert decision.status is CandidateStatus.CANDIDATE, decision.reason
    assert decision.sensitivity in (Sensitivity.HIGH, Sensitivity.PRIVATE), decision.reason
    assert decision.requires_review


@pytest.mark.parametrize(
    ("message", "level"),
    [
        ("tuve dos ataques de pánico esta semana, uno en el subte", Sensitivity.PRIVATE),
        ("mi primo perdió el trabajo y me debe 600 desde marzo", Sensitivity.HIGH),
    ],
)
def test_spanish_crises_and_money_owed_are_sensitive(message: str, level: Sensitivity) -> None:
    decision = _decide(message)
    assert decision.sensitivity is level, decision.reason
    assert decision.requires_review


@pytest.mark.parametrize(
    ("message", "memory_type"),
    [
        ("a loja deu prejuízo de 3 mil em maio, segundo mês seguido", MemoryType.RISK),
        ("falta renovar o seguro do carro, vence em 12/09", MemoryType.OPEN_LOOP),
        ("não consigo fechar o caixa desde segunda, o sistema caiu", MemoryType.BLOCKER),
        ("optamos por stripe para los pagos, mercado pago queda afuera", MemoryType.PROJECT_DECISION),
    ],
)
def test_portuguese_and_spanish_statements_are_candidates_of_their_type(
    message: str, memory_type: MemoryType
) -> None:
    decision = _decide(message)
    assert decision.status is CandidateStatus.CANDIDATE, decision.reason
    assert decision.memory_type is memory_type, decision.reason


def test_a_chapter_rated_explicit_is_private_in_the_au() -> None:
    decision = _decide("chapter 12 is the explicit one, posting it rated E with its own warnings", "au")
    assert decision.sensitivity is Sensitivity.PRIVATE, decision.reason


def test_a_build_number_is_no_identifying_number() -> None:
    assert _decide("our build number is 20251130 now").sensitivity is Sensitivity.LOW


def test_do_that_is_an_order_not_a_question() -> None:
    decision = should_auto_create_memory_candidate(
        "ok do that, lock it in for the spring sowing",
        "Suggest sowing the broad beans in two rows 45 cm apart, starting the second row a fortnight later.",
    )
    assert decision.status is CandidateStatus.CANDIDATE, decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "invoices go to the new account from now on: DE44 5001 0517 5407 3249 31",
        "ship the prints to my flat from now on, Kirkegata 22B, 0153 oslo",
        "my new address is Rua das Flores 18, 2º dto, 4050-262 Porto, update the contracts",
    ],
)
def test_an_iban_and_street_addresses_of_more_countries_are_private(message: str) -> None:
    assert _decide(message).sensitivity is Sensitivity.PRIVATE, _decide(message).reason


def test_a_capital_option_letter_with_a_few_words_picks_the_option() -> None:
    decision = should_auto_create_memory_candidate(
        "B. from next month",
        "Two options: (A) keep the shop closed on Sundays, or (B) open 10-4 with two staff on rotation.",
    )
    assert decision.status is CandidateStatus.CANDIDATE, decision.reason


@pytest.mark.parametrize(
    "message",
    [
        "waiting to hear back from the council about the extension permit",
        "the api runs min 3 replicas, hpa up to 12 at 70% cpu",
        "tomas switched on two-step login for the shop account, codes come by text",
    ],
)
def test_waiting_to_hear_replicas_and_switching_a_setting_on_are_memories(message: str) -> None:
    assert _decide(message).status is CandidateStatus.CANDIDATE, _decide(message).reason


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("dr. okafor is my supervisor. she replies fast", 2),
        ("the studio moved to Kopenhagener Str. 41 in march", 1),
        ("we live at No. 5 Harbour Row now", 1),
        ("No. Cut it entirely. It is not worth it", 3),
    ],
)
def test_a_title_or_abbreviation_does_not_end_a_sentence(text: str, count: int) -> None:
    assert len(read_text(text, candidate_rules())) == count


# Money strain, gambling, care, health, secrets and reputation in the user's own words, as the fresh
# batches wrote them (each line written anew for this test).
GATED_IN_OWN_WORDS = [
    "started antidepressants last week, dont let me skip a dose",
    "the bailiffs sent a second letter about the van, 14 days to pay",
    "the overdraft on the joint account is eating me alive, only paying the minimum since spring",
    "lost another 300 on the pokies at the club on friday",
    "the agency wants to claw back the grant because the report went in late",
    "signed the van lease personally, so if the cafe folds it's all on me",
    "dont mention care homes for dad unless i bring it up, im not ready",
    "the studio account is 12k in the red and i paid the rent with my own card",
    "someone lodged a complaint with the regulator about a dosing error in march, waiting to hear",
    "egg collection is booked for the 9th, still need cover at the shop for that week",
    "i failed the first exam. nobody at home knows, they think i haven't sat it yet",
    "couldnt stop crying in the staff toilet last night, booked the GP for friday",
    "my GMC number is 7281946, use it on the forms",
    "the deposit wiped my emergency fund, two months of runway left",
    "pt says no running for 2 weeks, calf strain, bike only",
    "legal fees on the warehouse case are at 41k already. getting scary",
    "the tax office flagged my march return, they want receipts in 21 days",
    "two klarna things outstanding, about 180 total, next one due friday",
    "gran fell in the kitchen and broke her hip, partial replacement on monday",
    "i still have to tell priya about the loan, been putting it off",
    "owe tomasz an apology for friday, need to sort it this week",
    "the neurologist said it might be early parkinson's, follow-up scan booked for june",
    "we've been trying for a baby for a year and it's not happening",
]


@pytest.mark.parametrize("message", GATED_IN_OWN_WORDS)
def test_sensitive_matters_in_the_users_own_words_are_gated(message: str) -> None:
    decision = _decide(message)
    assert decision.status is CandidateStatus.CANDIDATE, decision.reason
    assert decision.requires_review, decision.reason
