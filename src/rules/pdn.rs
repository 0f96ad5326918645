//! PDN reading and writing of games and multi-game files.
