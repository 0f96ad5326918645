//! The AI: forced wins, legality, levels and поддавки play.
