"""Markdown ingest: S3 uploads under `memory/<namespace>/` become redacted revisions, chunks and an
atomically swapped search projection. Every stored key starts with the namespace.
"""
