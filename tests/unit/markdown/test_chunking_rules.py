"""One test per chunking rule of the adaptive strategy, plus the other strategies' contracts."""

import hashlib
import itertools

import pytest
from pandora_memory.markdown.chunking import (
    CHUNKER_NAME,
    CHUNKER_VERSION,
    Chunk,
    ChunkerConfig,
    chunk_markdown,
    estimate_tokens,
)

SMALL = ChunkerConfig(max_tokens=60, overlap_tokens=10, small_file_tokens=60)


def paragraph(topic: str, words: int = 30) -> str:
    return " ".join(f"{topic}{i % 7}" for i in range(words)) + "."


def assert_sound(text: str, chunks: list[Chunk]) -> None:
    assert [chunk.ordinal for chunk in chunks] == list(range(len(chunks)))
    covered = [False] * len(text)
    for chunk in chunks:
        assert chunk.text == text[chunk.start : chunk.end]
        assert chunk.chunk_hash == hashlib.sha256(chunk.text.encode()).hexdigest()
        assert chunk.token_estimate == estimate_tokens(chunk.text)
        covered[chunk.start : chunk.end] = [True] * (chunk.end - chunk.start)
    assert all(flag or char.isspace() for flag, char in zip(covered, text, strict=True))


@pytest.mark.parametrize("text", ["", "   \n\n\t  \n"])
def test_an_empty_or_blank_file_has_no_chunk(text: str) -> None:
    assert chunk_markdown(text) == []


def test_a_small_file_is_one_chunk_with_its_original_text() -> None:
    text = "# Notes\n\n- [Deploy](deploy.md) — how we ship\n\nSome *emphasis* and `code`.\n"
    chunks = chunk_markdown(text)
    assert len(chunks) == 1
    assert chunks[0].text == text.rstrip()
    assert chunks[0].heading_path == ("Notes",)
    assert_sound(text, chunks)


def test_a_larger_file_splits_at_headings_and_keeps_the_heading_line() -> None:
    text = (
        f"# Project Pandora\n\n{paragraph('intro', 20)}\n\n"
        f"## Deploy\n\n{paragraph('deploy', 20)}\n\n"
        f"### Rollback\n\n{paragraph('rollback', 20)}\n\n"
        f"## People\n\n{paragraph('people', 20)}\n"
    )
    chunks = chunk_markdown(text, SMALL)
    assert_sound(text, chunks)
    by_path = {chunk.heading_path: chunk for chunk in chunks}
    assert by_path[("Project Pandora", "Deploy", "Rollback")].text.startswith("### Rollback")
    assert by_path[("Project Pandora", "People")].text.startswith("## People")
    assert ("Project Pandora", "Deploy") in by_path


def test_a_section_that_fits_keeps_its_subsections_together() -> None:
    text = f"# Big\n\n{paragraph('big', 80)}\n\n## Small\n\nshort text\n\n### Tiny\n\nalso short\n"
    chunks = chunk_markdown(text, SMALL)
    small = [chunk for chunk in chunks if chunk.heading_path == ("Big", "Small")]
    assert len(small) == 1
    assert "### Tiny" in small[0].text


def test_setext_headings_count_as_headings() -> None:
    text = f"Project\n=======\n\n{paragraph('a')}\n\nDeploy\n------\n\n{paragraph('b')}\n"
    chunks = chunk_markdown(text, SMALL)
    assert ("Project", "Deploy") in {chunk.heading_path for chunk in chunks}
    assert_sound(text, chunks)


def test_headings_inside_code_fences_are_not_headings() -> None:
    fence = "```bash\n# not a heading\necho hi\n## still not\n```"
    text = f"# Real\n\n{paragraph('a')}\n\n{fence}\n\n{paragraph('b')}\n"
    for strategy in ("heading", "adaptive"):
        chunks = chunk_markdown(
            text, ChunkerConfig(strategy=strategy, max_tokens=60, overlap_tokens=5, small_file_tokens=10)
        )
        titles = {title for chunk in chunks for title in chunk.heading_path}
        assert titles == {"Real"}, strategy


@pytest.mark.parametrize(
    "front_matter",
    ["---\ntitle: Trip\nnotes: |\n  # not a heading\n---\n", "+++\ntitle = 'Trip'\n# not a heading\n+++\n"],
)
def test_front_matter_is_kept_as_text_but_never_parsed_as_headings(front_matter: str) -> None:
    text = f"{front_matter}# Trip\n\n{paragraph('a', 60)}\n\n## Flights\n\n{paragraph('b', 60)}\n"
    chunks = chunk_markdown(text, SMALL)
    assert_sound(text, chunks)
    assert chunks[0].start == 0 and chunks[0].text.startswith(front_matter.splitlines()[0])
    titles = {title for chunk in chunks for title in chunk.heading_path}
    assert titles <= {"Trip", "Flights"}


def test_yaml_front_matter_would_otherwise_look_like_a_setext_heading() -> None:
    text = f"---\ntitle: Trip\n---\n\n{paragraph('a', 80)}\n"
    chunks = chunk_markdown(text, SMALL)
    assert all(chunk.heading_path == () for chunk in chunks)


def test_an_oversized_section_becomes_bounded_overlapping_windows() -> None:
    paragraphs = "\n\n".join(paragraph(f"w{i}x", 25) for i in range(12))
    text = f"# Log\n\n{paragraphs}\n"
    config = ChunkerConfig(max_tokens=80, overlap_tokens=20, small_file_tokens=80)
    chunks = chunk_markdown(text, config)
    assert len(chunks) > 3
    assert all(chunk.token_estimate <= config.max_tokens for chunk in chunks)
    assert any(later.start < earlier.end for earlier, later in itertools.pairwise(chunks))
    assert all(chunk.heading_path == ("Log",) for chunk in chunks)
    # Paragraphs fit a window, so windows end at paragraph ends (overlaps may start mid-line).
    assert all(text[chunk.end :].startswith("\n") for chunk in chunks)
    assert_sound(text, chunks)


def test_a_code_fence_that_fits_is_never_split() -> None:
    fence = "```python\n" + "\n".join(f"value_{i} = compute({i})" for i in range(12)) + "\n```"
    text = f"# Code\n\n{paragraph('a', 40)}\n\n{fence}\n\n{paragraph('b', 40)}\n"
    config = ChunkerConfig(max_tokens=120, overlap_tokens=20, small_file_tokens=50)
    assert estimate_tokens(fence) <= config.max_tokens
    chunks = chunk_markdown(text, config)
    assert any(fence in chunk.text for chunk in chunks)
    for chunk in chunks:
        inside = chunk.text.count("```")
        assert inside in (0, 2), chunk.text


def test_a_code_fence_bigger_than_a_window_is_split_by_lines_and_bounded() -> None:
    fence = "```\n" + "\n".join(f"line {i} of generated output here" for i in range(200)) + "\n```"
    text = f"# Dump\n\n{fence}\n"
    config = ChunkerConfig(max_tokens=100, overlap_tokens=10, small_file_tokens=100)
    chunks = chunk_markdown(text, config)
    assert len(chunks) > 5
    assert all(chunk.token_estimate <= config.max_tokens for chunk in chunks)
    assert all(text[chunk.start - 1] == "\n" for chunk in chunks[1:])
    assert_sound(text, chunks)


def test_index_file_list_items_keep_their_link_and_description_together() -> None:
    items = "\n".join(
        f"- [Topic {i} notes](topics/topic-{i}.md) — what happened with topic {i}\n  and a second line"
        for i in range(40)
    )
    text = f"# Memory index\n\n{items}\n"
    chunks = chunk_markdown(text, ChunkerConfig(max_tokens=80, overlap_tokens=10, small_file_tokens=80))
    assert len(chunks) > 3
    for chunk in chunks:
        lines = chunk.text.splitlines()
        for index, line in enumerate(lines):
            if line.startswith("- ["):
                assert index + 1 < len(lines) and lines[index + 1] == "  and a second line", chunk.text
        assert not chunk.text.startswith("  and a second line")


def test_a_single_huge_line_is_cut_within_the_budget() -> None:
    text = "word " * 5000
    chunks = chunk_markdown(text, SMALL)
    assert all(chunk.token_estimate <= SMALL.max_tokens for chunk in chunks)
    assert_sound(text, chunks)


def test_heading_strategy_splits_at_every_heading_without_size_logic() -> None:
    text = f"intro\n\n# A\n\n{paragraph('a', 400)}\n\n## B\n\nb\n\n# C\n\nc\n"
    chunks = chunk_markdown(text, ChunkerConfig(strategy="heading", max_tokens=50, overlap_tokens=5))
    assert [chunk.heading_path for chunk in chunks] == [(), ("A",), ("A", "B"), ("C",)]
    assert_sound(text, chunks)


def test_whole_file_strategy_gives_one_chunk() -> None:
    text = f"# A\n\n{paragraph('a', 400)}\n\n# B\n\nb\n"
    chunks = chunk_markdown(text, ChunkerConfig(strategy="whole_file"))
    assert len(chunks) == 1 and chunks[0].heading_path == ()


def test_window_strategy_ignores_structure_but_stays_bounded() -> None:
    fence = "```\n" + "x = 1\n" * 60 + "```"
    text = f"# A\n\n{paragraph('a', 100)}\n\n{fence}\n"
    config = ChunkerConfig(strategy="window", max_tokens=60, overlap_tokens=10)
    chunks = chunk_markdown(text, config)
    assert all(chunk.token_estimate <= config.max_tokens for chunk in chunks)
    assert_sound(text, chunks)


def test_chunking_is_deterministic() -> None:
    text = f"# A\n\n{paragraph('a', 300)}\n\n## B\n\n{paragraph('b', 50)}\n"
    assert chunk_markdown(text, SMALL) == chunk_markdown(text, SMALL)


def test_config_is_validated_and_serialisable() -> None:
    with pytest.raises(ValueError, match="strategy"):
        ChunkerConfig(strategy="sentences")
    with pytest.raises(ValueError, match="overlap"):
        ChunkerConfig(max_tokens=100, overlap_tokens=60)
    with pytest.raises(ValueError, match="max_tokens"):
        ChunkerConfig(max_tokens=2)
    assert ChunkerConfig().as_dict() == {
        "name": CHUNKER_NAME,
        "version": CHUNKER_VERSION,
        "strategy": "adaptive",
        "max_tokens": 400,
        "overlap_tokens": 80,
        "small_file_tokens": 400,
    }


@pytest.mark.parametrize(
    "text",
    [
        "#" * 10_000,
        "# " + "deep " * 3000,
        "\n".join(f"{'#' * (1 + i % 6)} heading {i}" for i in range(3000)),
        "```\n" + "code\n" * 20_000,
        ">" * 5000 + " quoted",
        "".join(f"{'  ' * i}- item {i}\n" for i in range(300)),
        "a\x00b\r\nc\rd\x00\n# h\x00\n" * 500,
        "\ufeff---\nx: 1\n---\n" + "text\n" * 10,
        "| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * 3000,
        "<div>\n" + "# not heading\n" * 100 + "</div>\n",
    ],
    ids=[
        "hashes",
        "long-heading",
        "all-headings",
        "all-code",
        "nested-quotes",
        "nested-list",
        "nul-cr",
        "bom-front-matter",
        "table",
        "html",
    ],
)
def test_hostile_inputs_never_crash_and_stay_sound(text: str) -> None:
    for strategy in ("adaptive", "heading", "window", "whole_file"):
        config = ChunkerConfig(strategy=strategy, max_tokens=80, overlap_tokens=10, small_file_tokens=80)
        chunks = chunk_markdown(text, config)
        assert_sound(text, chunks)
        if strategy in ("adaptive", "window"):
            assert all(chunk.token_estimate <= config.max_tokens for chunk in chunks)
