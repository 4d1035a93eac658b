"""Property: whatever the entries, a reloaded or incrementally updated snapshot ranks exactly like a
fresh build (same keys, same scores to the bit), with or without extra entries and field weights."""

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pandora_memory.search.index import FieldWeights, LexicalIndex, SearchEntry
from pandora_memory.search.snapshot import decode_snapshot, encode_snapshot, index_from_snapshot
from pandora_memory.search.splice import replace_document

WORDS = [
    "deploy",
    "deploys",
    "alias",
    "harbour",
    "카엘은",
    "검을",
    "us-east-1",
    "v2.3",
    "review",
    "the",
    "PR#7",
]
PATHS = ["notes/a.md", "notes/b.md", "plan.md", "world/harbour.md", "memory/preference"]
HEADINGS = [(), ("Deploy",), ("Deploy", "Rollback"), ("Harbour",), ("카엘",)]

words = st.lists(st.sampled_from(WORDS), min_size=0, max_size=12).map(" ".join)
bodies = st.lists(
    st.tuples(st.sampled_from(["", "## Rollback\n", "# Harbour\n", "### Alias #\n"]), words), max_size=3
)
entries_strategy = st.lists(
    st.tuples(
        st.sampled_from(PATHS), st.sampled_from(HEADINGS), bodies, st.sampled_from(["chunk", "memory"])
    ),
    max_size=14,
).map(
    lambda rows: [
        SearchEntry(
            f"{path}#{number:05d}",
            "real_life",
            path,
            heading,
            "\n\n".join(f"{marker}{text}" for marker, text in body),
            f"{path}#rev",
            kind,
        )
        for number, (path, heading, body, kind) in enumerate(rows)
    ]
)
queries = st.lists(
    st.lists(st.sampled_from([*WORDS, "rollback", "notes", "검"]), min_size=1, max_size=4).map(" ".join),
    min_size=1,
    max_size=4,
)
weights = st.sampled_from(
    [FieldWeights(), FieldWeights(heading=0.0, path=0.0), FieldWeights(body=0.0, path=3.0)]
)
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def ranked(index: LexicalIndex, texts: list[str]) -> list[list[tuple[str, float]]]:
    return [
        [(hit.entry.key, hit.score) for hit in index.search(query, limit=limit, path_prefix=prefix)]
        for query in texts
        for limit in (1, 3, 20)
        for prefix in (None, "notes/")
    ]


@PROPERTY
@given(entries=entries_strategy, extra_count=st.integers(0, 3), texts=queries, field_weights=weights)
def test_a_reloaded_snapshot_ranks_like_a_fresh_build(
    entries: list[SearchEntry], extra_count: int, texts: list[str], field_weights: FieldWeights
) -> None:
    extra = [replace(entry, key=f"memory:{entry.key}") for entry in entries[:extra_count]]
    fresh = LexicalIndex.build([*entries, *extra], field_weights)
    reloaded = index_from_snapshot(encode_snapshot(entries), extra=extra, weights=field_weights)
    assert ranked(reloaded, texts) == ranked(fresh, texts)
    assert list(reloaded) == list(fresh)


@PROPERTY
@given(entries=entries_strategy, replacement=entries_strategy, path=st.sampled_from(PATHS), texts=queries)
def test_replacing_a_document_equals_building_the_result(
    entries: list[SearchEntry], replacement: list[SearchEntry], path: str, texts: list[str]
) -> None:
    new = [replace(entry, key=f"{path}#new{entry.key}", logical_path=path) for entry in replacement[:4]]
    result = [entry for entry in entries if entry.logical_path != path] + new
    spliced = replace_document(decode_snapshot(encode_snapshot(entries)), path, new)
    assert encode_snapshot(spliced) == encode_snapshot(result)
    assert ranked(index_from_snapshot(spliced), texts) == ranked(LexicalIndex.build(result), texts)
