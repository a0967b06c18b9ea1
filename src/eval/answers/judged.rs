//! The LLM judges of answers: `correct`, `refused`, `grounded` (filled in by a later step).
