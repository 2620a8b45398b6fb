"""Apache Beam pipelines (thin: every per-element step is a wordle_core function)."""
