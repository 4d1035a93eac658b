"""Backfill: run the candidate policy over a ChatGPT data export and queue what it finds for review.

The export is streamed one conversation at a time; each conversation's main thread becomes turns that
go through the same policy and record mapping as a live turn. Backfill only ever queues for review.
"""
