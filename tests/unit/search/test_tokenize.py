"""Index terms: words, identifiers, stemming, stop words, Korean and other CJK text."""

from pandora_memory.search.stemming import stem
from pandora_memory.search.tokenize import heading_terms, path_terms, query_terms, terms


def test_words_are_lower_cased_stemmed_and_stop_words_dropped() -> None:
    assert terms("What did we DECIDE about the Deployments?") == ["decid", "deploy"]


def test_inflections_meet_at_one_stem() -> None:
    for family in (
        ["deploy", "deploys", "deployed", "deploying", "deployment"],
        ["release", "released", "releases", "releasing"],
        ["ship", "ships", "shipped", "shipping"],
        ["resurrect", "resurrected", "resurrection"],
        ["story", "stories"],
    ):
        assert len({stem(word) for word in family}) == 1, family


def test_identifiers_stay_whole_and_their_parts_are_searchable() -> None:
    found = terms("Rolled back PR #253 in us-east-1, shipped v2.3 on 2025-04-02")
    for identifier in ("us-east-1", "v2.3", "2025-04-02", "253", "pr"):
        assert identifier in found
    assert {"east", "2025", "04"} <= set(found)


def test_snake_case_and_dotted_names_split_into_parts() -> None:
    found = terms("call update_alias on deploy-notes.md")
    assert {"update_alias", stem("update"), stem("alias"), "deploy-notes.md", "deploy", stem("notes")} <= set(
        found
    )


def test_hangul_words_lose_particles_and_long_words_give_bigrams() -> None:
    found = terms("카엘은 리븐에게 검을 건넸다")
    assert {"카엘", "리븐", "검"} <= set(found)
    assert "건넸" in found and "넸다" in found
    assert "카엘" in terms("카엘의 검")  # the same name with another particle


def test_korean_question_words_are_stop_words() -> None:
    assert "뭐야" not in terms("카엘의 검은 뭐야")


def test_han_and_kana_give_bigrams() -> None:
    assert terms("東京タワー") == ["東京", "京タ", "タワ", "ワー"]


def test_unicode_is_normalised() -> None:
    assert terms("Ｃａｆé") == terms("café")


def test_query_terms_are_distinct_and_a_long_hangul_word_counts_as_one_word() -> None:
    weights = query_terms("한국어판 deploy deploy")
    assert weights["deploy"] == 1.0
    assert weights["한국어판"] == 1.0
    assert abs(sum(weight for term, weight in weights.items() if len(term) == 2) - 1.0) < 1e-9


def test_path_terms_drop_the_extension_and_split_folders() -> None:
    assert path_terms("notes/deploy-notes.md") == ["not", "deploy-notes", "deploy", "not"]
    assert "md" not in path_terms("MEMORY.md")


def test_heading_terms_cover_every_level() -> None:
    assert heading_terms(("Project Pandora", "Rollback")) == ["project", "pandora", "rollback"]
