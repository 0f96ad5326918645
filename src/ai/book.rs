//! The engine's opening book: positions of the first moves with the scores that deep
//! searches gave their moves, built by the project (`shashki book build`, drop-out
//! expansion: see `src/cli/book_cmd.rs`) and embedded in the binary
//! (`assets/book/russian.book`, `assets/book/giveaway.book`).
//!
//! **Use.** For a position in the book, every stored move is worth its own search score,
//! or, when the book holds the position it leads to, that position's value (the best of
//! its moves, turned to the mover's view): the searches' leaves are backed up by negamax
//! through the book. The engine plays a move whose value is within a small margin of the
//! best, chosen by a seeded generator, so that games vary without giving anything away.
//!
//! **File** (text, one line each):
//! `SHBK 1 russian|giveaway` (format version and variant), then one line a position:
//! its FEN, a tab, and its searched moves as `MOVE SCORE` pairs separated by spaces (the
//! move in the program's notation, the score in centi-men from the mover's view; only
//! moves whose score the search made exact are stored), then `end POSITIONS CHECKSUM`,
//! the number of position lines and the FNV-1a 64 checksum (hexadecimal) of every byte
//! before the `end` line. A file that does not match, or a move that is not legal in its
//! position, is refused with the line and the reason.

use super::shared::Rng;
use super::shared::fnv1a;
use crate::rules::notation::parse_move;
use crate::rules::{Move, Position, Variant};
use std::collections::HashMap;
use std::fmt::Write;
use std::sync::OnceLock;

/// Version of the book file format.
pub const FORMAT: u32 = 1;
/// Moves within this many centi-men of the best book move may be played.
pub const MARGIN: i32 = 6;

/// One searched move of a book position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    /// The search's score, centi-men from the mover's view.
    pub score: i32,
}

/// Positions with their searched moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    pub entries: HashMap<Position, Vec<BookMove>>,
}

impl Book {
    /// The value of each move of `pos` (the position after it, when the book holds it,
    /// else the move's own score), best first; empty when `pos` is not in the book.
    pub fn moves(&self, pos: &Position) -> Vec<BookMove> {
        let mut memo = HashMap::new();
        let Some(list) = self.entries.get(pos) else {
            return Vec::new();
        };
        let mut out: Vec<BookMove> = list
            .iter()
            .map(|m| BookMove {
                mv: m.mv,
                score: self.move_value(pos, m, &mut memo, 0),
            })
            .collect();
        out.sort_by_key(|m| std::cmp::Reverse(m.score));
        out
    }

    /// The value of a book position: the best of its moves' values.
    pub fn value(&self, pos: &Position) -> Option<i32> {
        self.entries
            .contains_key(pos)
            .then(|| self.value_memo(pos, &mut HashMap::new(), 0))
    }

    /// The value of every book position.
    pub fn values(&self) -> HashMap<Position, i32> {
        let mut memo = HashMap::new();
        for pos in self.entries.keys() {
            self.value_memo(pos, &mut memo, 0);
        }
        memo
    }

    fn value_memo(&self, pos: &Position, memo: &mut HashMap<Position, i32>, depth: u32) -> i32 {
        if let Some(&v) = memo.get(pos) {
            return v;
        }
        let list = &self.entries[pos];
        let v = list
            .iter()
            .map(|m| self.move_value(pos, m, memo, depth))
            .max()
            .unwrap_or(0);
        memo.insert(*pos, v);
        v
    }

    fn move_value(
        &self,
        pos: &Position,
        m: &BookMove,
        memo: &mut HashMap<Position, i32>,
        depth: u32,
    ) -> i32 {
        let child = pos.play(&m.mv);
        // Book lines never cycle (every move of the first moves is a man move or a
        // capture), but a damaged or hand-made file must not recurse for ever.
        if depth < 200 && self.entries.contains_key(&child) {
            -self.value_memo(&child, memo, depth + 1)
        } else {
            m.score
        }
    }

    /// A move for `pos` within [`MARGIN`] of the best book move, chosen by `seed`.
    pub fn choose(&self, pos: &Position, seed: u64) -> Option<BookMove> {
        let moves = self.moves(pos);
        let best = moves.first()?.score;
        let near: Vec<&BookMove> = moves.iter().filter(|m| m.score >= best - MARGIN).collect();
        let mut rng = Rng::new(seed ^ pos.white ^ pos.black.rotate_left(21));
        Some(*near[(rng.next_u64() % near.len() as u64) as usize])
    }

    /// The file form of the book (see the module documentation), positions in FEN order.
    pub fn to_text(&self, variant: Variant) -> String {
        let mut lines: Vec<String> = self
            .entries
            .iter()
            .map(|(pos, moves)| {
                let mut line = format!("{}\t", pos.to_fen());
                for (i, m) in moves.iter().enumerate() {
                    let sep = if i == 0 { "" } else { " " };
                    let _ = write!(line, "{sep}{} {}", m.mv, m.score);
                }
                line
            })
            .collect();
        lines.sort();
        let mut out = format!("SHBK {FORMAT} {}\n", variant_name(variant));
        for l in lines {
            out.push_str(&l);
            out.push('\n');
        }
        let sum = fnv1a(out.as_bytes());
        let _ = writeln!(out, "end {} {sum:016x}", self.entries.len());
        out
    }

    /// Reads a book file, checking its header, every position and move, and its checksum.
    pub fn parse(text: &str, variant: Variant) -> Result<Book, String> {
        let Some(end_at) = text.trim_end().rfind('\n').map(|i| i + 1) else {
            return Err("the book has no end line: it is cut short".into());
        };
        let (body, end) = (&text[..end_at], text[end_at..].trim());
        let mut lines = body.lines();
        let header = lines.next().unwrap_or("");
        let want = format!("SHBK {FORMAT} {}", variant_name(variant));
        if !header.starts_with("SHBK ") {
            return Err("line 1: the book does not start with SHBK".into());
        }
        if header != want {
            return Err(format!("line 1: '{header}', expected '{want}'"));
        }
        let f: Vec<&str> = end.split_whitespace().collect();
        let (count, sum) = match f.as_slice() {
            ["end", n, s] => (
                n.parse::<usize>()
                    .map_err(|_| format!("end line: '{n}' is not a count"))?,
                u64::from_str_radix(s, 16)
                    .map_err(|_| format!("end line: '{s}' is not hexadecimal"))?,
            ),
            _ => {
                return Err(
                    "the book's last line is not 'end POSITIONS CHECKSUM': it is cut short".into(),
                );
            }
        };
        if fnv1a(body.as_bytes()) != sum {
            return Err("the book's checksum does not match: it is damaged".into());
        }
        let mut book = Book::default();
        for (n, line) in lines.enumerate() {
            let at = n + 2;
            let (fen, moves) = line
                .split_once('\t')
                .ok_or_else(|| format!("line {at}: expected a FEN, a tab and moves"))?;
            let pos = Position::from_fen(fen).map_err(|e| format!("line {at}: {e}"))?;
            let words: Vec<&str> = moves.split_whitespace().collect();
            if words.is_empty() || !words.len().is_multiple_of(2) {
                return Err(format!("line {at}: expected pairs of a move and a score"));
            }
            let mut list = Vec::new();
            for pair in words.chunks(2) {
                let mv = parse_move(&pos, pair[0])
                    .map_err(|e| format!("line {at}: move {}: {e}", pair[0]))?;
                let score = pair[1]
                    .parse()
                    .map_err(|_| format!("line {at}: score '{}' is not a number", pair[1]))?;
                list.push(BookMove { mv, score });
            }
            if book.entries.insert(pos, list).is_some() {
                return Err(format!("line {at}: the position {fen} comes twice"));
            }
        }
        if book.entries.len() != count {
            return Err(format!(
                "the book has {} positions, its end line says {count}",
                book.entries.len()
            ));
        }
        Ok(book)
    }
}

fn variant_name(variant: Variant) -> &'static str {
    match variant {
        Variant::Russian => "russian",
        Variant::Giveaway => "giveaway",
    }
}

static RUSSIAN_FILE: &str = include_str!("../../assets/book/russian.book");
static GIVEAWAY_FILE: &str = include_str!("../../assets/book/giveaway.book");

/// The embedded book of a variant, read once. A damaged embedded file is a broken build:
/// the error names the file and the reason.
pub fn embedded(variant: Variant) -> &'static Book {
    static RU: OnceLock<Book> = OnceLock::new();
    static GA: OnceLock<Book> = OnceLock::new();
    let (cell, text, name) = match variant {
        Variant::Russian => (&RU, RUSSIAN_FILE, "russian.book"),
        Variant::Giveaway => (&GA, GIVEAWAY_FILE, "giveaway.book"),
    };
    cell.get_or_init(|| match Book::parse(text, variant) {
        Ok(b) => b,
        Err(e) => panic!("assets/book/{name}, embedded in this program, cannot be used: {e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_book() -> Book {
        // c3-d4 leads to a position whose best reply leaves White 10 ahead; e3-f4 is
        // scored 8 by its own search; the rest are worse.
        let start = Position::start();
        let mv = |p: &Position, t: &str| parse_move(p, t).unwrap();
        let mut book = Book::default();
        book.entries.insert(
            start,
            vec![
                BookMove {
                    mv: mv(&start, "c3-d4"),
                    score: 30,
                },
                BookMove {
                    mv: mv(&start, "e3-f4"),
                    score: 8,
                },
                BookMove {
                    mv: mv(&start, "a3-b4"),
                    score: -20,
                },
            ],
        );
        let after = start.play(&mv(&start, "c3-d4"));
        book.entries.insert(
            after,
            vec![
                BookMove {
                    mv: mv(&after, "f6-g5"),
                    score: -10,
                },
                BookMove {
                    mv: mv(&after, "b6-a5"),
                    score: -40,
                },
            ],
        );
        book
    }

    #[test]
    fn values_are_backed_up_through_the_book() {
        let book = small_book();
        let moves = book.moves(&Position::start());
        let shown: Vec<(String, i32)> = moves.iter().map(|m| (m.mv.to_string(), m.score)).collect();
        assert_eq!(
            shown,
            [
                ("c3-d4".to_string(), 10),
                ("e3-f4".to_string(), 8),
                ("a3-b4".to_string(), -20)
            ]
        );
        assert_eq!(book.value(&Position::start()), Some(10));
        // Both moves within the margin are chosen by some seed, the worse one never.
        let chosen: std::collections::HashSet<String> = (0..40)
            .map(|s| book.choose(&Position::start(), s).unwrap().mv.to_string())
            .collect();
        assert_eq!(chosen.len(), 2, "{chosen:?}");
        assert!(!chosen.contains("a3-b4"));
        assert!(
            book.choose(&Position::from_fen("W:Wa1:Bh8").unwrap(), 1)
                .is_none()
        );
    }

    #[test]
    fn book_files_round_trip_and_refuse_damage() {
        let book = small_book();
        let text = book.to_text(Variant::Russian);
        assert_eq!(Book::parse(&text, Variant::Russian).unwrap(), book);
        assert!(
            Book::parse(&text, Variant::Giveaway)
                .unwrap_err()
                .contains("line 1")
        );
        let damaged = text.replace("c3-d4 30", "c3-d4 31");
        assert!(
            Book::parse(&damaged, Variant::Russian)
                .unwrap_err()
                .contains("damaged")
        );
        let cut = &text[..text.len() / 2];
        assert!(Book::parse(cut, Variant::Russian).is_err());
        assert!(Book::parse("", Variant::Russian).is_err());
        // An illegal move is named with its line, even under a matching checksum.
        let body = "SHBK 1 russian\nW:W21-32:B1-12\tc3-e5 5\n";
        let bad = format!("{body}end 1 {:016x}\n", fnv1a(body.as_bytes()));
        let e = Book::parse(&bad, Variant::Russian).unwrap_err();
        assert!(e.starts_with("line 2: move c3-e5"), "{e}");
    }

    #[test]
    fn the_embedded_books_load() {
        for v in [Variant::Russian, Variant::Giveaway] {
            let book = embedded(v);
            assert!(!book.moves(&Position::start()).is_empty(), "{v:?}");
        }
    }
}
