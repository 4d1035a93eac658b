"""Keeping a folder of Markdown files (such as a Claude memory folder) mirrored under
`memory/<namespace>/` in the memory bucket, so every change flows through the ingest pipeline.

local_files.scan_directory  -> what the folder holds (content digests; what is skipped and why)
plan.plan_sync              -> uploads (new, changed), unchanged and deletes: a pure function
remote.S3Mirror             -> lists the bucket, reads digests where needed, applies a plan
"""
