//! The computer opponent: search, evaluation and levels.
