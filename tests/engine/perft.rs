//! Perft node counts from data files.
