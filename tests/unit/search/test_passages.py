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


def test_each_exchange_of_a_chat_log_is_one_passage_without_role_headings_in_its_path() -> None:
    text = (
        "## User\n\nwhere?\n\n## Assistant\n\n### Option\n\nthere\n\n## User\n\nwhen?\n\n## Assistant\n\nnow"
    )
    passages = split_passages(text, ("Trip",))
    assert [p.text.split("\n")[2] for p in passages] == ["where?", "when?"]
    assert [p.heading_path for p in passages] == [("Trip",), ("Trip",)]
    assert "".join(p.text for p in passages) == text


def test_bold_and_plain_user_labels_open_an_exchange_too() -> None:
    text = "Log title\n\n**User:** where?\n**Assistant:** there\n\nUser: when?\n\nAssistant: now\n"
    passages = split_passages(text, ())
    assert [p.text.strip().split("\n")[0] for p in passages] == [
        "Log title",
        "**User:** where?",
        "User: when?",
    ]


def test_user_labels_in_code_fences_are_ignored() -> None:
    text = "User: run it\n\n```\nUser: not a turn\n```\n\nAssistant: done"
    assert len(split_passages(text, ())) == 1


def test_a_title_before_the_first_turn_is_no_passage_of_its_own() -> None:
    text = "# Trip\n\n## User\n\nwhere?\n\n## Assistant\n\nthere\n\n## User\n\nwhen?\n\n## Assistant\n\nnow"
    assert [p.text.split("\n")[0] for p in split_passages(text, ())] == ["# Trip", "## User"]


def test_a_note_where_only_one_side_speaks_keeps_its_sections() -> None:
    text = "## User\n\nreads memory\n\n### Limits\n\nten a day\n\n## Admin\n\nUser: not a turn here"
    paths = [p.heading_path for p in split_passages(text, ("Roles",))]
    assert paths == [("Roles", "User"), ("Roles", "User", "Limits"), ("Roles", "Admin")]
