"""Sections inside a chunk: ATX headings outside fences start a passage; titles join their first section."""

from pandora_memory.search.passages import split_passages


def test_a_chunk_without_headings_is_one_passage() -> None:
    assert [p.heading_path for p in split_passages("plain text", ("Notes",))] == [("Notes",)]


def test_headings_inside_a_chunk_extend_its_heading_path() -> None:
    text = "# People\n\n## Mina\n\nadvisor\n\n## Jonas\n\naccountant\n\n### Contact\n\nemail\n"
    paths = [p.heading_path for p in split_passages(text, ("People",))]
    assert paths == [("People", "Mina"), ("People", "Jonas"), ("People", "Jonas", "Contact")]


def test_passages_cover_the_whole_chunk_in_order() -> None:
    text = "intro\n\n# A\n\n## B\n\nbody b\n\n# C ##\n\nbody c"
    passages = split_passages(text, ())
    assert "".join(p.text for p in passages) == text
    assert [p.heading_path for p in passages] == [(), ("A", "B"), ("C",)]


def test_headings_in_code_fences_are_ignored() -> None:
    text = "## Script\n\n```bash\n# comment\n~~~\n## not a heading\n```\n\n## Next\n\ntext"
    paths = [p.heading_path for p in split_passages(text, ("Code",))]
    assert paths == [("Code", "Script"), ("Code", "Next")]
