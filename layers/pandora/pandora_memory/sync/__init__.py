"""Keeping a folder of Markdown files (such as a Claude memory folder) mirrored under
`memory/<namespace>/` in the memory bucket, so every change flows through the ingest pipeline.

local_files.scan_directory  -> what the folder holds (content digests), what is skipped, and what
                               the ingest would refuse (checked with the ingest's own functions)
plan.plan_sync              -> uploads (new, changed), unchanged, and deletes (only when asked): pure
remote.S3Mirror             -> lists the bucket, reads digests where needed, applies a plan
"""
