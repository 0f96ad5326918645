//! PDN and FEN: real games, round trips and broken inputs.
