//! Tests of the rules engine and the AI (no window): one binary, one module per part.

mod ai;
mod fuzz;
mod i18n;
mod pdn;
mod perft;
mod rules;
mod store;
