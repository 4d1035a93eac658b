"""Property tests: whatever Markdown comes in, chunks are exact slices that cover it, in order."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pandora_memory.markdown.chunking import STRATEGIES, ChunkerConfig, chunk_markdown
from pandora_memory.markdown.structure import analyse
from pandora_memory.markdown.transcript import exchange_starts, find_turns

WORDS = st.sampled_from(
    ["deploy", "kael", "카엘은", "memory", "v2.3", "us-east-1", "中文", "—", "#253", "x" * 40]
)
LINE = st.lists(WORDS, min_size=1, max_size=12).map(" ".join)
TITLE = st.text(alphabet="abcdefgh", min_size=1, max_size=6).map(lambda word: f"Title {word}")


def atx(title: str, level: int) -> str:
    return f"{'#' * level} {title}"


HEADING = st.one_of(
    st.builds(atx, TITLE, st.integers(1, 6)),
    st.builds(lambda title, under: f"{title}\n{under * 3}", TITLE, st.sampled_from("=-")),
)
PARAGRAPH = st.lists(LINE, min_size=1, max_size=8).map("\n".join)
FENCE = st.builds(
    lambda lines, marker, info: (
        f"{marker}{info}\n# fenced heading\n" + "\n".join(lines) + f"\n## fenced too\n{marker}"
    ),
    st.lists(LINE, max_size=30),
    st.sampled_from(["```", "~~~", "````"]),
    st.sampled_from(["", "python", "bash"]),
)
LIST = st.lists(
    st.builds(lambda title, line: f"- [{title}](notes/{title.lower()}.md) — {line}", TITLE, LINE),
    min_size=1,
    max_size=15,
).map("\n".join)
# Chat-log turns in the shapes exports use; enough of them make a document a chat log.
TURN = st.builds(
    lambda label, line: label.format(line),
    st.sampled_from(
        [
            "## User\n\n{}",
            "### Assistant\n\n{}",
            "**User:** {}",
            "**Assistant:** {}",
            "User: {}",
            "Assistant: {}",
        ]
    ),
    LINE,
)
BLOCK = st.one_of(
    HEADING, PARAGRAPH, FENCE, LIST, TURN, TURN, st.just("---"), st.just("> quoted # not heading")
)
FRONT_MATTER = st.sampled_from(
    ["", "---\ntitle: x\n# fm heading\n---\n", "+++\ntitle = 'x'\n# fm heading\n+++\n"]
)


@st.composite
def documents(draw: st.DrawFn) -> str:
    front = draw(FRONT_MATTER)
    blocks = draw(st.lists(BLOCK, max_size=25))
    separator = draw(st.sampled_from(["\n\n", "\n\n\n", "\r\n\r\n"]))
    body = separator.join(blocks)
    if separator.startswith("\r"):
        body = body.replace("\n", "\r\n").replace("\r\r\n", "\r\n")
    return front + body + draw(st.sampled_from(["", "\n", "  \n"]))


@st.composite
def chat_logs(draw: st.DrawFn) -> str:
    """A title, then turns of both sides (each at least twice), some followed by other blocks."""
    turns = draw(st.lists(TURN, min_size=4, max_size=30))
    turns += ["## User\n\nask", "**User:** again", "### Assistant\n\nreply", "Assistant: done"]
    order = draw(st.permutations(turns))
    blocks = [draw(st.sampled_from(["# Title log", "Title log\nexported"]))]
    for turn in order:
        blocks.append(turn)
        blocks.extend(draw(st.lists(BLOCK, max_size=2)))
    return "\n\n".join(blocks) + "\n"


CONFIGS = st.builds(
    lambda strategy, max_tokens, overlap, small: ChunkerConfig(strategy, max_tokens, overlap, small),
    st.sampled_from(STRATEGIES),
    st.sampled_from([8, 24, 60, 400]),
    st.sampled_from([0, 3]),
    st.sampled_from([0, 30, 400]),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(documents(), chat_logs()), CONFIGS)
def test_chunks_are_exact_ordered_slices_that_cover_every_visible_character(
    text: str, config: ChunkerConfig
) -> None:
    chunks = chunk_markdown(text, config)
    assert [chunk.ordinal for chunk in chunks] == list(range(len(chunks)))
    covered = bytearray(len(text))
    for chunk in chunks:
        assert 0 <= chunk.start < chunk.end <= len(text)
        assert chunk.text == text[chunk.start : chunk.end]
        assert chunk.text.strip()
        covered[chunk.start : chunk.end] = b"\x01" * (chunk.end - chunk.start)
    assert all(covered[i] or char.isspace() for i, char in enumerate(text))
    assert [chunk.start for chunk in chunks] == sorted(chunk.start for chunk in chunks)
    assert chunk_markdown(text, config) == chunks


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(documents(), chat_logs()), CONFIGS)
def test_fenced_and_front_matter_lines_never_become_headings(text: str, config: ChunkerConfig) -> None:
    for chunk in chunk_markdown(text, config):
        for title in chunk.heading_path:
            assert "fenced" not in title and "fm heading" not in title
            assert title.startswith("Title ") or title in ("", "User", "Assistant")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chat_logs(), CONFIGS.filter(lambda config: config.strategy == "adaptive"))
def test_chat_log_chunks_open_at_an_exchange_or_inside_an_oversized_one(
    text: str, config: ChunkerConfig
) -> None:
    structure = analyse(text)
    exchanges = [structure.offset(line) for line in exchange_starts(find_turns(structure))]
    chunks = chunk_markdown(text, config)
    if not exchanges or len(chunks) < 2:
        return
    bounds = [*exchanges[1:], len(text)]
    for chunk in chunks:
        assert not {"User", "Assistant"} & set(chunk.heading_path)
        if chunk.start >= exchanges[0]:
            # Either the chunk opens at an exchange, or it is a window of one exchange too big for a chunk.
            opening = max(start for start in exchanges if start <= chunk.start)
            closing = min(end for end in bounds if end > opening)
            assert chunk.start == opening or chunk.end <= closing


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(documents(), chat_logs()),
    CONFIGS.filter(lambda config: config.strategy in ("window", "adaptive")),
)
def test_windows_stay_within_the_token_budget(text: str, config: ChunkerConfig) -> None:
    chunks = chunk_markdown(text, config)
    if config.strategy == "window" or len(chunks) > 1:  # only a small file may be one bigger chunk
        assert all(chunk.token_estimate <= config.max_tokens for chunk in chunks)
