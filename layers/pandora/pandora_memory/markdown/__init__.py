"""Markdown memory files cut into searchable chunks: pure functions, no I/O."""
