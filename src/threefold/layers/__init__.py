"""The three layers of a stream: facts (1), summaries (2) and raw turns (3).

And what changes them: repairs, erasure, and who a fact names."""
