"""Lexical ranking over Markdown chunks and approved memories: pure, in memory, no embeddings."""
