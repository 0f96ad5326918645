//! One test per rule: position in, exact legal move list out; draw rules; outcomes.
