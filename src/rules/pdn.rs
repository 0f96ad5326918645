//! PDN (Portable Draughts Notation): reading and writing games and multi-game files.
//!
//! Reading accepts what real files hold: tag pairs, move numbers (`1.`, `1...`), moves in
//! algebraic or numeric notation with `-`, `:` or `x` (a capture may give only its start
//! and end square), comments `{...}` and `;`, NAGs (`$1`, `!`, `?`), nested variations
//! `( ... )` (skipped), and the results `1-0 0-1 1/2-1/2 2-0 0-2 1-1 *`. Move numbers are
//! read past, not checked against the ply. Every game record gives one entry, so a broken
//! game never hides the others. Errors name the line and column (counted in characters,
//! from 1) and what was expected.
//!
//! A recorded result (resignation, agreement) is applied with [`Game::declare`] only when
//! the last position has not already ended the game by the rules; then the rules win.
//!
//! Writing gives the seven standard tags, `[GameType "25"]`, `[Variant "giveaway"]` for
//! поддавки, `[SetUp "1"]` and `[FEN ...]` for a set-up start, and the moves in Russian
//! algebraic notation with the shortest unambiguous text, wrapped at 80 columns.

use super::game::{DrawRule, Game, Outcome, Variant, WinReason};
use super::mv::Move;
use super::notation::{self, NotationError};
use super::position::{Color, Position};
use std::path::Path;

/// Where writing wraps the move text.
const LINE_WIDTH: usize = 80;

/// Results accepted as the end of a game record (`2-0`, `0-2` and `1-1` are the
/// two-point scoring of Russian tournaments).
const RESULTS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "½-½", "2-0", "0-2", "1-1", "*"];

/// Tags that [`write_pdn`] derives from the game itself.
const DERIVED_TAGS: [&str; 6] = ["Result", "GameType", "Variant", "SetUp", "Setup", "FEN"];

/// The standard tags, written first (with `?` when unknown), as PGN and PDN ask.
const ROSTER: [&str; 6] = ["Event", "Site", "Date", "Round", "White", "Black"];

/// A problem in a PDN text, with the line and column where it was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct PdnError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// One game read from a PDN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// Tag pairs in file order, as written.
    pub tags: Vec<(String, String)>,
    /// The game replayed from its start position, with the recorded result declared
    /// when the position had not already decided it.
    pub game: Game,
    /// The result that ended the record (`1-0`, `2-0`, `1/2-1/2`, ...); `None` for `*`.
    pub result: Option<String>,
    /// The mover's clock after each move, from `{[%clk h:mm:ss]}` comments.
    pub clocks: Vec<Option<std::time::Duration>>,
}

impl PdnGame {
    /// The value of a tag, looked up without regard to case.
    pub fn tag(&self, name: &str) -> Option<&str> {
        find_tag(&self.tags, name).map(|(v, _)| v)
    }

    pub fn variant(&self) -> Variant {
        self.game.variant()
    }

    /// The game's clock, when the record has a `TimeControl` tag the game offers and a
    /// `[%clk]` reading after every move.
    pub fn clock(&self) -> Option<super::GameClock> {
        let control: super::TimeControl = self.tag("TimeControl")?.parse().ok()?;
        let times: Option<Vec<_>> = self.clocks.iter().copied().collect();
        super::GameClock::from_readings(control, &self.game, &times?)
    }

    /// This game written back as PDN (see [`write_pdn`]).
    pub fn to_pdn(&self) -> String {
        write_pdn(&self.game, &self.tags)
    }
}

/// A tag's value and index, looked up without regard to case.
fn find_tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<(&'a str, usize)> {
    tags.iter()
        .enumerate()
        .find(|(_, (n, _))| n.eq_ignore_ascii_case(name))
        .map(|(i, (_, v))| (v.as_str(), i))
}

/// A line and column, both counted from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct At {
    line: usize,
    column: usize,
}

impl At {
    fn error(self, message: impl Into<String>) -> PdnError {
        PdnError {
            line: self.line,
            column: self.column,
            message: message.into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok<'a> {
    Tag {
        name: &'a str,
        value: String,
    },
    /// A run of text between delimiters: a move, a move number, a result or a glyph.
    Word(&'a str),
    Nag,
    OpenVariation,
    CloseVariation,
    /// A lexical error inside a game; the game goes on to its end.
    Error(String),
    /// A comment without its `}`: the game ends here and reading resumes at the next
    /// line that opens a tag pair, if any.
    Unterminated(String),
}

#[derive(Clone, Debug)]
struct Token<'a> {
    tok: Tok<'a>,
    at: At,
}

/// Splits a PDN text into tokens, skipping whitespace and comments.
struct Lexer<'a> {
    text: &'a str,
    /// Byte offset of the next character; always on a character boundary.
    offset: usize,
    line: usize,
    column: usize,
    /// The clock reading (`[%clk h:mm:ss]`) of the last comment skipped, until taken.
    clock: Option<std::time::Duration>,
}

fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}' || "{}()[];$".contains(c)
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            text,
            offset: 0,
            line: 1,
            column: 1,
            clock: None,
        }
    }

    /// The clock reading of a comment skipped since the last call.
    fn take_clock(&mut self) -> Option<std::time::Duration> {
        self.clock.take()
    }

    fn rest(&self) -> &'a str {
        self.text.get(self.offset..).unwrap_or("")
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn here(&self) -> At {
        At {
            line: self.line,
            column: self.column,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.offset += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
    }

    /// True when the text from here is a line that opens a tag pair: `[Name "`.
    fn at_tag_line(&self) -> bool {
        let line = self
            .rest()
            .trim_start_matches([' ', '\t', '\r', '\u{feff}']);
        let Some(after) = line.strip_prefix('[') else {
            return false;
        };
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        name_len > 0
            && after
                .get(name_len..)
                .is_some_and(|s| s.trim_start_matches([' ', '\t']).starts_with('"'))
    }

    fn next_token(&mut self) -> Option<Token<'a>> {
        loop {
            while self
                .peek()
                .is_some_and(|c| c.is_whitespace() || c == '\u{feff}')
            {
                self.bump();
            }
            let mut at = self.here();
            let c = self.peek()?;
            let tok = match c {
                '{' => match self.comment() {
                    Some(tok) => tok,
                    None => continue,
                },
                ';' => {
                    self.skip_line();
                    continue;
                }
                // A `%` in the first column escapes the whole line (as in PGN).
                '%' if at.column == 1 => {
                    self.skip_line();
                    continue;
                }
                '[' => {
                    let (tok, problem_at) = self.tag(at);
                    at = problem_at;
                    tok
                }
                '(' => {
                    self.bump();
                    Tok::OpenVariation
                }
                ')' => {
                    self.bump();
                    Tok::CloseVariation
                }
                '$' => {
                    self.bump();
                    let mut digits = 0;
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.bump();
                        digits += 1;
                    }
                    if digits == 0 {
                        Tok::Error("expected a number after '$' (a NAG such as $1)".into())
                    } else {
                        Tok::Nag
                    }
                }
                '}' | ']' => {
                    self.bump();
                    Tok::Error(format!("unexpected '{c}'"))
                }
                _ => {
                    let start = self.offset;
                    while self.peek().is_some_and(|c| !is_delimiter(c)) {
                        self.bump();
                    }
                    Tok::Word(self.text.get(start..self.offset).unwrap_or(""))
                }
            };
            return Some(Token { tok, at });
        }
    }

    /// Skips a comment; `Some` only for one that is never closed.
    fn comment(&mut self) -> Option<Tok<'a>> {
        self.bump();
        let start = self.offset;
        loop {
            match self.bump() {
                None => {
                    return Some(Tok::Unterminated(
                        "comment opened here is never closed (expected '}' before the end of \
                         the file)"
                            .into(),
                    ));
                }
                Some('}') => {
                    let text = &self.text[start..self.offset - 1];
                    if let Some(clock) = super::clock::parse_pdn_clock(text) {
                        self.clock = Some(clock);
                    }
                    return None;
                }
                // A line opening a tag pair inside a comment means the '}' was forgotten:
                // stop there so the next game still loads.
                Some('\n') if self.at_tag_line() => {
                    return Some(Tok::Unterminated(format!(
                        "comment opened here is never closed (expected '}}' before the tags \
                         on line {})",
                        self.line
                    )));
                }
                Some(_) => {}
            }
        }
    }

    /// Reads `[Name "value"]`; after an error goes on past the tag's `]`, or at the
    /// next line when this line has none.
    /// Errors are placed where the problem was found.
    fn tag(&mut self, at: At) -> (Tok<'a>, At) {
        match self.tag_pair() {
            Ok(tok) => (tok, at),
            Err(message) => {
                let problem_at = self.here();
                while let Some(c) = self.peek() {
                    if c == '\n' {
                        break;
                    }
                    self.bump();
                    if c == ']' {
                        break;
                    }
                }
                (Tok::Error(message), problem_at)
            }
        }
    }

    fn skip_blanks(&mut self) {
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
    }

    fn tag_pair(&mut self) -> Result<Tok<'a>, String> {
        self.bump();
        self.skip_blanks();
        let start = self.offset;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.bump();
        }
        let name = self.text.get(start..self.offset).unwrap_or("");
        if name.is_empty() {
            return Err(format!(
                "expected a tag name after '[', found {}",
                found(self.peek())
            ));
        }
        self.skip_blanks();
        if self.peek() != Some('"') {
            return Err(format!(
                "expected '\"' to open the value of tag {name}, found {}",
                found(self.peek())
            ));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.peek() {
                None | Some('\n') | Some('\r') => {
                    return Err(format!(
                        "the value of tag {name} is not closed (expected '\"')"
                    ));
                }
                Some('"') => {
                    self.bump();
                    break;
                }
                Some('\\') => {
                    self.bump();
                    // `\"` and `\\` stand for the character itself.
                    match self.peek() {
                        Some(c @ ('"' | '\\')) => {
                            self.bump();
                            value.push(c);
                        }
                        _ => value.push('\\'),
                    }
                }
                Some(c) => {
                    self.bump();
                    value.push(c);
                }
            }
        }
        self.skip_blanks();
        if self.peek() != Some(']') {
            return Err(format!(
                "expected ']' to close tag {name}, found {}",
                found(self.peek())
            ));
        }
        self.bump();
        Ok(Tok::Tag { name, value })
    }
}

fn found(c: Option<char>) -> String {
    match c {
        None => "the end of the file".into(),
        Some('\n' | '\r') => "the end of the line".into(),
        Some(c) => format!("'{c}'"),
    }
}

/// What a word of move text is.
enum WordKind<'a> {
    Result(&'a str),
    MoveNumber,
    /// Only annotation glyphs such as `!`, `?!`.
    Glyph,
    Move(&'a str),
}

fn classify(word: &str) -> WordKind<'_> {
    if RESULTS.contains(&word) {
        return WordKind::Result(word);
    }
    // A move number: digits then dots (`12.`, `12...`, `12…`), maybe glued to the move.
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let after_digits = word.get(digits..).unwrap_or("");
    let rest = after_digits.trim_start_matches(['.', '…']);
    let word = if digits > 0 && rest.len() < after_digits.len() {
        if rest.is_empty() {
            return WordKind::MoveNumber;
        }
        rest
    } else {
        word
    };
    if word.chars().all(|c| matches!(c, '!' | '?')) {
        return WordKind::Glyph;
    }
    // `1. ... f6-g5`: the dots alone stand for White's move left out.
    if word.chars().all(|c| matches!(c, '.' | '…')) {
        return WordKind::MoveNumber;
    }
    WordKind::Move(word)
}

fn parse_result(text: &str) -> Option<Outcome> {
    let win = |winner| Outcome::Win {
        winner,
        reason: WinReason::Resignation,
    };
    match text {
        "1-0" | "2-0" => Some(win(Color::White)),
        "0-1" | "0-2" => Some(win(Color::Black)),
        "1/2-1/2" | "½-½" | "1-1" => Some(Outcome::Draw(DrawRule::Agreement)),
        _ => None,
    }
}

fn parse_variant(value: &str) -> Option<Variant> {
    match value.trim().to_lowercase().as_str() {
        "" | "russian" | "русские" | "русские шашки" => Some(Variant::Russian),
        "giveaway" | "poddavki" | "поддавки" | "antidraughts" => Some(Variant::Giveaway),
        _ => None,
    }
}

/// A game record being read.
struct Record {
    tags: Vec<(String, String)>,
    tag_at: Vec<At>,
    game: Option<Game>,
    error: Option<PdnError>,
    /// Movetext has begun, so the next tag pair opens another game.
    in_moves: bool,
    /// Open variations and where the outermost one opened.
    variation_depth: usize,
    variation_at: Option<At>,
    /// The mover's clock after each move of the main line, where a comment gave it.
    clocks: Vec<Option<std::time::Duration>>,
}

impl Record {
    fn fail(&mut self, error: PdnError) {
        if self.error.is_none() {
            self.error = Some(error);
        }
    }

    /// The game from the tags, built when the movetext begins.
    fn start_game(&mut self, at: At) -> Result<&mut Game, PdnError> {
        let game = match self.game.take() {
            Some(game) => game,
            None => self.game_from_tags(at)?,
        };
        Ok(self.game.insert(game))
    }

    fn game_from_tags(&self, at: At) -> Result<Game, PdnError> {
        let tag = |name: &str| {
            find_tag(&self.tags, name).map(|(v, i)| (v, self.tag_at.get(i).copied().unwrap_or(at)))
        };
        let mut variant = Variant::Russian;
        if let Some((value, at)) = tag("GameType") {
            let kind = value.split(',').next().unwrap_or("").trim();
            if !kind.is_empty() && kind != "25" {
                return Err(at.error(format!(
                    "GameType \"{value}\" is not Russian draughts (expected 25)"
                )));
            }
        }
        if let Some((value, at)) = tag("Variant") {
            variant = parse_variant(value).ok_or_else(|| {
                at.error(format!(
                    "unknown Variant \"{value}\" (expected russian or giveaway)"
                ))
            })?;
        }
        let start = match (tag("FEN"), tag("SetUp")) {
            (Some((fen, at)), _) => Position::from_fen(fen)
                .map_err(|e| at.error(format!("bad FEN tag \"{fen}\": {e}")))?,
            (None, Some((setup, at))) if setup.trim() == "1" => {
                return Err(at.error("SetUp \"1\" needs a FEN tag with the start position"));
            }
            _ => Position::start(),
        };
        Ok(Game::from_position(variant, start))
    }

    fn play(&mut self, text: &str, at: At) -> Result<(), PdnError> {
        let game = self.start_game(at)?;
        let label = move_label(game);
        if let Some(outcome) = game.outcome() {
            return Err(at.error(format!(
                "move {label} {text} comes after the end of the game ({})",
                describe(outcome)
            )));
        }
        let mv = match game.position().parse_move(text) {
            Ok(mv) => mv,
            Err(NotationError::Syntax(_)) => {
                return Err(at.error(format!("expected a move, found '{text}'")));
            }
            Err(e) => return Err(at.error(format!("move {label}: {e}"))),
        };
        game.play(&mv)
            .map_err(|e| at.error(format!("move {label}: {e}")))
    }
}

/// `5.` for White's fifth move, `5...` for Black's.
fn move_label(game: &Game) -> String {
    let first_black = game.start_position().side_to_move() == Color::Black;
    let ply = game.ply() + usize::from(first_black);
    let dots = if ply.is_multiple_of(2) { "." } else { "..." };
    format!("{}{dots}", ply / 2 + 1)
}

fn describe(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win { winner, reason } => {
            let loser = winner.opposite();
            let why = match reason {
                WinReason::NoPieces => format!("{loser} has no pieces"),
                WinReason::NoMoves => format!("{loser} has no move"),
                WinReason::Resignation => format!("{loser} resigned"),
                WinReason::Time => format!("{loser} lost on time"),
            };
            format!("{winner} won, {why}")
        }
        Outcome::Draw(rule) => format!("draw, {} ({})", rule.description(), rule.number()),
    }
}

/// Reads one game record starting with `first`; returns it and the token that opens
/// the next record, if reading stopped at one.
fn read_record<'a>(
    first: Token<'a>,
    lexer: &mut Lexer<'a>,
) -> (Result<PdnGame, PdnError>, Option<Token<'a>>) {
    let mut rec = Record {
        tags: Vec::new(),
        tag_at: Vec::new(),
        game: None,
        error: None,
        in_moves: false,
        variation_depth: 0,
        variation_at: None,
        clocks: Vec::new(),
    };
    let mut next = Some(first);
    let mut result: Option<(&str, At)> = None;
    let mut leftover = None;
    while let Some(token) = next.take().or_else(|| lexer.next_token()) {
        // A clock comment belongs to the main-line move before it.
        if let Some(clock) = lexer.take_clock()
            && rec.variation_depth == 0
            && let Some(last) = rec.clocks.last_mut()
        {
            *last = Some(clock);
        }
        let at = token.at;
        match token.tok {
            Tok::Tag { name, value } => {
                // A tag after the movetext, or one named twice, opens the next game.
                let repeated = find_tag(&rec.tags, name).is_some();
                if rec.in_moves || repeated {
                    leftover = Some(Token {
                        tok: Tok::Tag { name, value },
                        at,
                    });
                    break;
                }
                rec.tags.push((name.to_string(), value));
                rec.tag_at.push(at);
            }
            Tok::Unterminated(message) => {
                rec.fail(at.error(message));
                break;
            }
            Tok::Error(message) => rec.fail(at.error(message)),
            Tok::Nag => rec.in_moves = true,
            Tok::OpenVariation => {
                rec.in_moves = true;
                if rec.variation_depth == 0 {
                    rec.variation_at = Some(at);
                }
                rec.variation_depth += 1;
            }
            Tok::CloseVariation => {
                rec.in_moves = true;
                if rec.variation_depth == 0 {
                    rec.fail(at.error("')' closes no variation"));
                } else {
                    rec.variation_depth -= 1;
                }
            }
            Tok::Word(word) => {
                rec.in_moves = true;
                let kind = classify(word);
                if let WordKind::Result(r) = kind {
                    if rec.variation_depth == 0 {
                        result = Some((r, at));
                        break;
                    }
                    continue;
                }
                if rec.variation_depth > 0 || rec.error.is_some() {
                    continue;
                }
                if let WordKind::Move(text) = kind {
                    match rec.play(text, at) {
                        Ok(()) => rec.clocks.push(None),
                        Err(e) => rec.fail(e),
                    }
                }
            }
        }
    }
    if let Some(at) = rec.variation_at.filter(|_| rec.variation_depth > 0) {
        rec.fail(at.error("variation opened here is never closed (expected ')')"));
    }
    let end_at = leftover.as_ref().map_or(lexer.here(), |t: &Token| t.at);
    if result.is_none() {
        let where_ = if leftover.is_some() {
            "the tags of the next game"
        } else {
            "the end of the file"
        };
        rec.fail(end_at.error(format!(
            "expected a result (1-0, 0-1, 1/2-1/2, 2-0, 0-2, 1-1 or *), found {where_}"
        )));
    }
    if let Some(error) = rec.error.take() {
        return (Err(error), leftover);
    }
    let at = result.map_or(end_at, |(_, at)| at);
    let mut game = match rec.start_game(at) {
        Ok(game) => std::mem::take(game),
        Err(e) => return (Err(e), leftover),
    };
    let result = result.map(|(r, _)| r);
    // The rules decide first; the record only adds what no position shows.
    if let Some(outcome) = result.and_then(parse_result)
        && game.outcome().is_none()
    {
        game.declare(outcome);
    }
    let pdn = PdnGame {
        tags: rec.tags,
        game,
        result: result.filter(|r| *r != "*").map(str::to_string),
        clocks: rec.clocks,
    };
    (Ok(pdn), leftover)
}

/// Reads every game record of a PDN text: one entry per record, in file order.
pub fn read_pdn(text: &str) -> Vec<Result<PdnGame, PdnError>> {
    let mut lexer = Lexer::new(text);
    let mut games = Vec::new();
    let mut pending = None;
    while let Some(first) = pending.take().or_else(|| lexer.next_token()) {
        let (game, next) = read_record(first, &mut lexer);
        games.push(game);
        pending = next;
    }
    games
}

/// Decodes the bytes of a PDN file line by line: UTF-8 where the line is UTF-8 (a damaged
/// byte becomes U+FFFD), Windows-1251 where the line is not UTF-8 at all.
pub fn decode_pdn_bytes(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Ok(text) = std::str::from_utf8(bytes) {
        return text.to_string();
    }
    let mut out = String::with_capacity(bytes.len() + bytes.len() / 2);
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        match std::str::from_utf8(line) {
            Ok(text) => out.push_str(text),
            Err(_) => {
                let lossy = String::from_utf8_lossy(line);
                let damaged = lossy.chars().filter(|&c| c == '\u{fffd}').count();
                let multibyte = lossy
                    .chars()
                    .filter(|&c| !c.is_ascii() && c != '\u{fffd}')
                    .count();
                if multibyte > damaged {
                    out.push_str(&lossy);
                } else {
                    let (text, _) = encoding_rs::WINDOWS_1251.decode_without_bom_handling(line);
                    out.push_str(&text);
                }
            }
        }
    }
    out
}

/// Reads a PDN file (UTF-8 or Windows-1251); only a failure to read the file is an
/// error here, each game carries its own.
pub fn read_pdn_file(path: impl AsRef<Path>) -> std::io::Result<Vec<Result<PdnGame, PdnError>>> {
    let bytes = std::fs::read(path)?;
    Ok(read_pdn(&decode_pdn_bytes(&bytes)))
}

fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// Writes a game as PDN: tags, moves and result. The caller's tags are kept except the
/// ones the game itself decides (Result, GameType, Variant, SetUp, FEN) and those whose
/// name is not a PDN tag name (letters, digits, `_`).
pub fn write_pdn(game: &Game, tags: &[(String, String)]) -> String {
    write_pdn_annotated(game, tags, &[])
}

/// What an annotator adds to one move: a numeric annotation glyph (`$2`), a comment and
/// a variation (moves played instead of this one, from the position before it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveNote {
    pub nag: Option<u8>,
    pub comment: Option<String>,
    pub variation: Vec<Move>,
}

/// The text of `moves` played from `pos` at ply `first_ply` of the game, with move
/// numbers; the first move always carries its number.
fn numbered(pos: &Position, first_ply: usize, moves: &[Move]) -> Vec<String> {
    let mut units = Vec::new();
    let mut p = *pos;
    for (k, mv) in moves.iter().enumerate() {
        let ply = first_ply + k;
        let text = notation::move_text(&p, mv);
        let number = ply / 2 + 1;
        units.push(if ply.is_multiple_of(2) {
            format!("{number}. {text}")
        } else if k == 0 {
            format!("{number}... {text}")
        } else {
            text
        });
        p = p.play(mv);
    }
    units
}

/// [`write_pdn`] with `notes[i]` written after the i-th move (missing notes write
/// nothing). A comment's `}` is written as `)` so that the comment stays closed.
pub fn write_pdn_annotated(game: &Game, tags: &[(String, String)], notes: &[MoveNote]) -> String {
    let mut out = String::new();
    let mut line = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    };
    for name in ROSTER {
        let default = if name == "Date" { "????.??.??" } else { "?" };
        line(name, find_tag(tags, name).map_or(default, |(v, _)| v));
    }
    let result = game.outcome().map_or("*", |o| o.result_text());
    line("Result", result);
    line("GameType", "25");
    if game.variant() == Variant::Giveaway {
        line("Variant", "giveaway");
    }
    let start = game.start_position();
    if *start != Position::start() {
        line("SetUp", "1");
        line("FEN", &start.to_fen());
    }
    for (name, value) in tags {
        let derived = DERIVED_TAGS
            .iter()
            .chain(ROSTER.iter())
            .any(|d| d.eq_ignore_ascii_case(name));
        let valid_name =
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !derived && valid_name {
            line(name, value);
        }
    }
    out.push('\n');
    let mut units = Vec::new();
    let first_black = start.side_to_move() == Color::Black;
    let mut after_note = false;
    for (i, mv) in game.moves().iter().enumerate() {
        let Some(pos) = game.position_at(i) else {
            break;
        };
        let ply = i + usize::from(first_black);
        let text = notation::move_text(pos, mv);
        let number = ply / 2 + 1;
        // After a comment or a variation Black's move carries its number again.
        let unit = if ply.is_multiple_of(2) {
            format!("{number}. {text}")
        } else if i == 0 || after_note {
            format!("{number}... {text}")
        } else {
            text
        };
        units.push(unit);
        after_note = false;
        if let Some(note) = notes.get(i) {
            if let Some(nag) = note.nag {
                units.push(format!("${nag}"));
            }
            if let Some(c) = &note.comment {
                units.push(format!("{{{}}}", c.replace('}', ")")));
                after_note = true;
            }
            if !note.variation.is_empty() {
                let mut v = numbered(pos, ply, &note.variation);
                if let Some(first) = v.first_mut() {
                    *first = format!("( {first}");
                }
                if let Some(last) = v.last_mut() {
                    last.push_str(" )");
                }
                units.extend(v);
                after_note = true;
            }
        }
    }
    units.push(result.to_string());
    let mut width = 0;
    for unit in units {
        let len = unit.chars().count();
        if width > 0 && width + 1 + len > LINE_WIDTH {
            out.push('\n');
            width = 0;
        } else if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(&unit);
        width += len;
    }
    out.push('\n');
    out
}

/// Every `.pdn` file under `dir` (searched recursively), sorted; none when it cannot be
/// read.
pub fn pdn_files_in(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            out.extend(pdn_files_in(&path));
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pdn"))
        {
            out.push(path);
        }
    }
    out
}

/// Writes several games, separated by blank lines, as one multi-game file.
pub fn write_pdn_games(games: &[PdnGame]) -> String {
    games
        .iter()
        .map(PdnGame::to_pdn)
        .collect::<Vec<_>>()
        .join("\n")
}
