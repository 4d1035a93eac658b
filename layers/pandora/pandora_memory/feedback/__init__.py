"""The feedback loop: every review action is recorded, summarised, and tunes the next capture decision."""
