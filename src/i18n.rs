//! Every text the player reads, in English and Russian, switchable while the game runs.
//!
//! Fixed texts are [`Text`] keys read with [`tr`]; texts with numbers, colours or rules
//! in them (result banners, draw countdowns) are built by the functions below, because
//! Russian needs other word forms than a simple substitution gives.

use crate::rules::game::{Countdown, WinReason};
use crate::rules::{Color, DrawRule, Outcome, PositionError, Variant};
use serde::{Deserialize, Serialize};

/// The language of the interface.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub enum Lang {
    #[default]
    En,
    Ru,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ru];

    /// The language's name in itself, for the language menu.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Ru => "Русский",
        }
    }

    /// The system's language: Russian when the locale (LC_ALL, LC_MESSAGES, LANG) is Russian.
    pub fn system() -> Lang {
        Lang::from_locale_vars(|name| std::env::var(name).ok())
    }

    /// Like [`Lang::system`] with the environment given by `var`: the first variable set
    /// to a non-empty value decides, as in POSIX locale lookup.
    pub fn from_locale_vars(var: impl Fn(&str) -> Option<String>) -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .filter_map(var)
            .find(|value| !value.is_empty())
            .map_or(Lang::En, |value| Lang::from_locale(&value))
    }

    /// `ru_RU.UTF-8`, `ru`, `RU_ru` are Russian; anything else is English.
    pub fn from_locale(locale: &str) -> Lang {
        if locale
            .get(..2)
            .is_some_and(|p| p.eq_ignore_ascii_case("ru"))
        {
            Lang::Ru
        } else {
            Lang::En
        }
    }

    /// The text of `text` in this language.
    pub fn tr(self, text: Text) -> &'static str {
        tr(self, text)
    }
}

/// Declares [`Text`], its list [`Text::ALL`] and [`tr`] from one table, so that a key
/// cannot exist without both translations.
macro_rules! texts {
    ($($(#[$doc:meta])* $key:ident => $en:expr, $ru:expr;)*) => {
        /// A fixed text of the interface; [`tr`] gives it in a language.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        pub enum Text {
            $($(#[$doc])* $key,)*
        }

        impl Text {
            /// Every text, for checks and for tools that list them.
            pub const ALL: &'static [Text] = &[$(Text::$key,)*];
        }

        /// The text of `text` in `lang`.
        pub fn tr(lang: Lang, text: Text) -> &'static str {
            match text {
                $(Text::$key => match lang {
                    Lang::En => $en,
                    Lang::Ru => $ru,
                },)*
            }
        }
    };
}

texts! {
    // The game menu.
    AppTitle => "Shashki", "Шашки";
    NewGame => "New game", "Новая игра";
    Continue => "Continue", "Продолжить";
    Undo => "Undo", "Отменить ход";
    Redo => "Redo", "Вернуть ход";
    Flip => "Flip the board", "Перевернуть доску";
    Resign => "Resign", "Сдаться";
    OfferDraw => "Offer a draw", "Предложить ничью";
    Hint => "Hint", "Подсказка";
    // Analysis of the whole game.
    AnalyseGame => "Analyse the game", "Анализ партии";
    AnalyseGameHover => "Every position is searched; the moves are marked ?! inaccuracy, ? mistake, ?? blunder",
        "Каждая позиция просчитывается; ходы отмечаются: ?! неточность, ? ошибка, ?? зевок";
    Analysing => "Analysing", "Анализ";
    CancelAnalysis => "Cancel", "Отменить";
    AnalysisGraph => "Evaluation (White's view, in men); a click goes to that move",
        "Оценка (за белых, в шашках); щелчок переходит к ходу";
    Inaccuracy => "Inaccuracy", "Неточность";
    Mistake => "Mistake", "Ошибка";
    Blunder => "Blunder", "Зевок";
    BetterWas => "Better was", "Лучше было";
    Settings => "Settings", "Настройки";
    Help => "Help", "Справка";
    Statistics => "Statistics", "Статистика";
    Puzzles => "Puzzles", "Комбинации";
    PuzzleTryAgain => "Not this move: try again", "Не этот ход: попробуйте ещё раз";
    PuzzleSolved => "Solved!", "Решено!";
    GameBack => "Your game is back on the board", "Ваша партия снова на доске";
    MoveField => "Move:", "Ход:";
    MoveFieldHover => "Type a move and press Enter: c3-d4, cd4, c3:e5:g3, c3e5 or 22-18 (/ or M to get here)", "Введите ход и нажмите Enter: c3-d4, cd4, c3:e5:g3, c3e5 или 22-18 (сюда — клавиша / или M)";
    EndingLetsWinGo => "That move lets the win go: try another", "Этот ход упускает выигрыш: попробуйте другой";
    Endings => "Endings", "Окончания";
    EndgameTables => "Endgame tables", "База окончаний";
    BuildSixPieceTables => "Build the 6-piece endings", "Построить окончания из 6 шашек";
    BuildSixPieceHint => "About half an hour a variant on one core, 3 GB of memory while it runs and 0.8 GB on disk; play goes on meanwhile.", "Около получаса на вариант на одном ядре, 3 ГБ памяти во время построения и 0,8 ГБ на диске; игра при этом продолжается.";
    EndingsIntro => "Win before the counting rules draw; the computer defends perfectly (endgame tables).", "Выиграйте, пока правила подсчёта ходов не дали ничью; компьютер защищается безошибочно (база окончаний).";
    EndingsNotReady => "The endgame tables are not ready yet.", "База окончаний ещё не готова.";
    EndingPetrov => "Three kings against one (Petrov's triangle)", "Три дамки против одной (треугольник Петрова)";
    EndingTwoKingsMan => "Two kings and a man against a king", "Две дамки и шашка против дамки";
    EndingKingTwoMen => "King and two men against a king", "Дамка и две шашки против дамки";
    EndingKingManPair => "King and man against king and man", "Дамка и шашка против дамки и шашки";
    EndingGiveawayKing => "Giveaway: a king against two kings", "Поддавки: дамка против двух дамок";
    EndingGiveawayKingMan => "Giveaway: king and man against a king", "Поддавки: дамка и шашка против дамки";
    PuzzleShown => "The solution was shown", "Показано решение";
    PuzzleHint => "Hint", "Подсказка";
    PuzzleShowSolution => "Show the solution", "Показать решение";
    PuzzleNext => "Next puzzle", "Следующая";
    PuzzleLeave => "Leave", "Выйти";
    PuzzlePlay => "Play", "Решать";
    PuzzlesIntro => "Find the only winning move, then the next; the computer answers for the other side.",
        "Найдите единственный выигрывающий ход, затем следующий; за другую сторону отвечает компьютер.";
    StatisticsNone => "No games against the computer yet", "Партий с компьютером ещё не было";
    StatisticsNote => "Games against the computer, from your side; a draw is half a point",
        "Партии с компьютером, с вашей стороны; ничья — пол-очка";
    StatLevel => "Level", "Уровень";
    StatGames => "Games", "Партий";
    StatWon => "Won", "Побед";
    StatDrawn => "Drawn", "Ничьих";
    StatLost => "Lost", "Поражений";
    StatScore => "Score", "Очки";
    Rules => "Rules", "Правила";
    Quit => "Quit", "Выход";
    Play => "Play", "Играть";
    Cancel => "Cancel", "Отмена";
    Close => "Close", "Закрыть";
    Ok => "OK", "Хорошо";
    Yes => "Yes", "Да";
    No => "No", "Нет";
    Accept => "Accept", "Принять";
    Decline => "Decline", "Отклонить";

    MenuFiles => "Game record", "Запись партии";
    Confirm => "Please confirm", "Подтвердите";
    MoveWord => "move", "ход";
    Clipboard => "Clipboard", "Буфер обмена";
    ChooseGameTitle => "Choose a game", "Выберите партию";

    // The new-game form.
    Variant => "Variant", "Вариант";
    RussianDraughts => "Russian draughts", "Русские шашки";
    Giveaway => "Giveaway", "Поддавки";
    Opponent => "Opponent", "Соперник";
    Computer => "Computer", "Компьютер";
    ComputerLevel => "Computer level", "Уровень компьютера";
    Human => "Human", "Человек";
    SecondPlayerHere => "Second player at this computer", "Второй игрок за этим компьютером";
    YourColour => "Your colour", "Ваш цвет";
    White => "White", "Белые";
    Black => "Black", "Чёрные";
    Random => "Random", "Случайно";
    ChooseGame => "Choose a game to start", "Выберите игру";

    // Settings.
    Volume => "Volume", "Громкость";
    Mute => "Mute", "Без звука";
    AnimationSpeed => "Animation speed", "Скорость анимации";
    AnimationOff => "Off", "Без анимации";
    AnimationFast => "Fast", "Быстро";
    AnimationNormal => "Normal", "Обычно";
    AnimationSlow => "Slow", "Медленно";
    BoardTheme => "Board theme", "Оформление доски";
    ThemeWalnut => "Walnut", "Орех";
    ThemeBirch => "Birch", "Берёза";
    ThemeTournament => "Tournament green", "Турнирная зелёная";
    ShowCoordinates => "Show coordinates", "Показывать координаты";
    ShowLegalMoves => "Show legal moves", "Показывать возможные ходы";
    Language => "Language", "Язык";
    GraphicsQuality => "Graphics quality", "Качество графики";
    QualityLow => "Low", "Низкое";
    QualityHigh => "High", "Высокое";
    QualityNeedsGpu => "High needs a graphics card: this computer draws with its processor", "Высокому нужна видеокарта: этот компьютер рисует процессором";
    QualityAuto => "Auto", "Автоматически";
    SoftwareRenderer => "Software renderer", "Программная отрисовка";
    EvaluationBar => "Evaluation bar", "Шкала оценки";

    // Files, clipboard and tools.
    OpenPdn => "Open PDN…", "Открыть PDN…";
    SavePdn => "Save PDN…", "Сохранить PDN…";
    CopyFen => "Copy FEN", "Копировать FEN";
    PasteFen => "Paste FEN", "Вставить FEN";
    CopyPdn => "Copy PDN", "Копировать PDN";
    PastePdn => "Paste PDN", "Вставить PDN";
    Copied => "Copied to the clipboard", "Скопировано в буфер обмена";
    ClipboardEmpty => "The clipboard holds no text", "В буфере обмена нет текста";
    InvalidFen => "This is not a position in FEN", "Это не позиция в формате FEN";
    InvalidPdn => "No game could be read from this PDN", "Из этого PDN не удалось прочитать ни одной партии";
    GameSaved => "Game saved", "Партия сохранена";
    PositionEditor => "Position editor", "Редактор позиции";
    EditorClear => "Clear the board", "Очистить доску";
    EditorStartPosition => "Start position", "Начальная расстановка";
    EditorWhiteMan => "White man", "Белая шашка";
    EditorWhiteKing => "White king", "Белая дамка";
    EditorBlackMan => "Black man", "Чёрная шашка";
    EditorBlackKing => "Black king", "Чёрная дамка";
    EditorEraser => "Eraser", "Ластик";
    EditorNeedsBothSides => "Each side needs at least one piece", "У каждой стороны должна быть хотя бы одна шашка";
    EditorNoMoves => "The side to move has no move here: in Russian draughts that is already a loss", "У стороны, чей ход, здесь нет ходов: в русских шашках это уже проигрыш";
    EditorNoMovesGiveaway => "The side to move has no move here: in giveaway that is already a win", "У стороны, чей ход, здесь нет ходов: в поддавках это уже выигрыш";
    AnswerFirst => "Answer the question first", "Сначала ответьте на вопрос";
    EditorSideToMove => "Side to move", "Чей ход";
    EditorHelp => "Click a square to put the chosen piece there; click it again to take it off", "Щёлкните поле, чтобы поставить выбранную шашку; щёлкните ещё раз, чтобы убрать";
    PlayFromHere => "Play from this position", "Играть с этой позиции";
    Review => "Review", "Разбор партии";
    ReviewFirst => "To the start", "В начало";
    ReviewBack => "Back", "Назад";
    ReviewForward => "Forward", "Вперёд";
    ReviewLast => "To the end", "В конец";

    // During the game.
    Thinking => "thinking…", "думает…";
    SideToMove => "Side to move", "Очередь хода";
    MoveList => "Moves", "Ходы";
    NoMovesYet => "No moves yet", "Ходов ещё не было";
    CaptureCompulsory => "Capture is compulsory: one of the marked pieces must take", "Бить обязательно: одна из отмеченных шашек должна взять";
    PieceCannotMove => "This piece cannot move", "Эта шашка не может ходить";
    ChooseMovablePiece => "Choose one of your pieces that can move", "Выберите свою шашку, которая может ходить";
    SeveralRoutes => "Several routes end there: click each landing square in turn", "Туда ведут несколько путей: щёлкните по очереди каждое поле остановки";
    NotALandingSquare => "Not a landing square of this capture", "Это поле не входит в путь взятия";
    NotALegalMove => "Not a legal move", "Так ходить нельзя";
    WaitForComputer => "Wait for the computer's move", "Дождитесь хода компьютера";
    HintNotNow => "A hint is given when it is your move", "Подсказка даётся, когда ваш ход";
    HintThinking => "Looking for the best move…", "Ищу лучший ход…";
    EvalWhiteBetter => "White stands better", "У белых лучше";
    EvalBlackBetter => "Black stands better", "У чёрных лучше";
    EvalEqual => "Equal", "Равно";
    ReviewComputerTurn => "The computer moves here: step on, or press \"Continue from here\"", "Здесь ходит компьютер: листайте дальше или нажмите «Продолжить отсюда»";
    ContinueHere => "Continue from here", "Продолжить отсюда";
    ConfirmBranch => "Play from here? The moves after this point will be dropped.", "Играть отсюда? Ходы после этого места будут удалены.";
    Reviewing => "Reviewing the game", "Просмотр партии";
    NothingToUndo => "Nothing to take back", "Нечего отменять";
    NothingToRedo => "Nothing to replay", "Нечего возвращать";
    DrawDeclined => "The computer declines the draw", "Компьютер отклоняет ничью";
    DrawAccepted => "The computer accepts the draw", "Компьютер соглашается на ничью";
    DrawOffered => "Your opponent offers a draw", "Соперник предлагает ничью";
    ConfirmResign => "Resign this game?", "Сдать партию?";
    GameOver => "Game over", "Партия окончена";
    YouWin => "You win!", "Вы победили!";
    YouLose => "You lose", "Вы проиграли";
    Draw => "Draw", "Ничья";
    GamePaused => "The game is paused: press Resume (P) to go on", "Партия на паузе: нажмите «Продолжить» (P)";
    Pause => "Pause", "Пауза";
    Resume => "Resume", "Продолжить";
    ClockPausedLabel => "Clocks stopped", "Часы остановлены";
    TimeControlLabel => "Time control", "Контроль времени";
    NoClock => "No clock", "Без часов";
    CustomClock => "Custom", "Свой";
    ClockMinutes => "minutes", "минут";
    ClockIncrement => "seconds added a move", "секунд добавка за ход";

    // Keyboard and mouse help, one line each.
    HelpControls => "Controls", "Управление";
    KeysSelect => "Click a piece, then the square it goes to; in a capture with several stops click each stop in turn", "Щёлкните шашку, затем поле, куда она идёт; при взятии с несколькими остановками щёлкайте каждую по очереди";
    KeysCamera => "Right mouse button and drag: turn the board; wheel: nearer or farther", "Правая кнопка мыши с перетаскиванием: поворот доски; колесо: ближе или дальше";
    KeysCancel => "Esc or a right click: drop the selected piece", "Esc или щелчок правой кнопкой: снять выбор шашки";
    KeysFlip => "F: flip the board", "F: перевернуть доску";
    KeysUndo => "U or Ctrl+Z: undo; Ctrl+Y: redo", "U или Ctrl+Z: отменить ход; Ctrl+Y: вернуть ход";
    KeysHint => "H: hint", "H: подсказка";
    KeysMove => "/ or M: the move field; type a move (c3-d4, cd4, c3:e5:g3, c3e5, 22-18) and press Enter. Tab moves through the buttons, Space or Enter presses one", "/ или M: поле хода; введите ход (c3-d4, cd4, c3:e5:g3, c3e5, 22-18) и нажмите Enter. Tab переходит по кнопкам, пробел или Enter нажимает кнопку";
    KeysHelp => "F1: this help; Esc: close a window or open the new-game menu", "F1: эта справка; Esc: закрыть окно или открыть меню новой игры";
    KeysNewGame => "N: new game", "N: новая игра";
    KeysPause => "P: pause or resume a game with a clock", "P: пауза или продолжение партии с часами";
    KeysReview => "Left and right arrows, Home, End: step through the moves; a click on a move goes there", "Стрелки влево и вправо, Home, End: листать ходы; щелчок по ходу переходит к нему";
    KeysCursor => "Up or down arrow, Enter or Space: the board cursor; the arrows move it (as the board is seen), Enter or Space clicks its square, Esc hides it and the arrows step through the moves again", "Стрелка вверх или вниз, Enter или пробел: курсор на доске; стрелки двигают его (как видна доска), Enter или пробел щёлкает его поле, Esc убирает его, и стрелки снова листают ходы";
    DiagramManCaptures => "A man takes two pieces in one move, c3:e5:g7", "Простая бьёт две шашки за один ход: c3:e5:g7";
    DiagramKingCaptures => "A king takes from afar and must stop on e5, from where it can take again: a1:e5:g3", "Дамка бьёт издалека и должна встать на e5, откуда можно бить дальше: a1:e5:g3";
    DiagramGiveaway => "Поддавки: White offers a man with e3-f4, and Black must take it", "Поддавки: белые подставляют шашку ходом e3-f4, и чёрные обязаны её взять";

    // The rules pages.
    RulesRussianTitle => "Russian draughts", "Русские шашки";
    RulesRussian =>
        "The game is played on the dark squares of an 8 by 8 board. Each side starts with twelve men on the three rows nearest to it, and White makes the first move.\n\n\
         A man steps one square diagonally forward onto a free square. It takes an enemy piece by jumping over it, forward or backward, onto the free square just behind it, and keeps jumping as long as it can. Taking is not optional: if any capture exists you must make one, but when several are possible you may choose any of them, short or long. Pieces you have jumped stay on the board until your move is over, so they block the way and cannot be jumped a second time.\n\n\
         A man that reaches the far row is crowned and becomes a king; if that happens in the middle of a capture, it carries on taking as a king straight away. A king moves any distance along a free diagonal and takes a piece at any distance along its diagonal, provided the squares up to it are empty and the square just behind it is free, landing on any free square beyond. If from some of those squares it could take again, it must land on one of them.\n\n\
         You lose when it is your turn and you have no pieces or no move. A game is drawn by agreement, when the same position comes up for the third time with the same side to move, or by one of the counting rules for endings with kings; the game shows how many moves such a rule has left.",
        "Играют на тёмных полях доски 8 на 8. У каждой стороны в начале двенадцать шашек на трёх ближних к ней рядах; первыми ходят белые.\n\n\
         Простая шашка ходит на одно поле по диагонали вперёд, на свободное поле. Шашку соперника она бьёт, перепрыгивая через неё вперёд или назад на свободное поле сразу за ней, и продолжает бить, пока есть кого. Бить обязательно: если взятие возможно, его надо сделать, но из нескольких взятий можно выбрать любое, короткое или длинное. Побитые шашки остаются на доске до конца хода: они мешают проходу, и через них нельзя прыгать второй раз.\n\n\
         Шашка, дошедшая до последнего ряда, становится дамкой; если это случилось посреди взятия, она сразу бьёт дальше уже как дамка. Дамка ходит на любое расстояние по свободной диагонали и бьёт шашку на своей диагонали на любом расстоянии, если поля до неё пусты и поле сразу за ней свободно, вставая на любое свободное поле за ней. Если с какого-то из этих полей можно бить дальше, встать нужно на одно из них.\n\n\
         Проигрывает тот, у кого в свой ход не осталось шашек или ходов. Ничья бывает по соглашению, при третьем повторении одной и той же позиции с той же очерёдностью хода и по правилам подсчёта ходов в окончаниях с дамками; игра показывает, сколько ходов осталось по такому правилу.";
    RulesGiveawayTitle => "Giveaway", "Поддавки";
    RulesGiveaway =>
        "Поддавки uses the same board, the same moves and the same compulsory captures as Russian draughts, but the aim is turned around: you win by losing all your pieces or by being left with no move.\n\n\
         Because captures are still compulsory, the art is to offer pieces so that your opponent is forced to take them, while avoiding positions where you are forced to take theirs. A king is often a burden here, as it is hard to get rid of.\n\n\
         Draws by agreement, by threefold repetition and by the counting rules for king endings apply as in the main game, except those that only make sense when the stronger side is trying to win.",
        "В поддавках та же доска, те же ходы и то же обязательное взятие, что и в русских шашках, но цель обратная: побеждает тот, кто первым отдаст все свои шашки или останется без ходов.\n\n\
         Раз бить по-прежнему обязательно, искусство в том, чтобы подставлять шашки так, чтобы соперник был вынужден их брать, и не попадать в положения, где брать придётся самому. Дамка здесь часто обуза: от неё трудно избавиться.\n\n\
         Ничья по соглашению, по трёхкратному повторению и по правилам подсчёта ходов в дамочных окончаниях действует как в основной игре, кроме тех правил, которые имеют смысл только когда сильнейшая сторона стремится выиграть.";
}

/// "White" or "Black" as a subject: "White to move" uses [`side_to_move`] instead.
pub fn color_name(lang: Lang, color: Color) -> &'static str {
    match color {
        Color::White => tr(lang, Text::White),
        Color::Black => tr(lang, Text::Black),
    }
}

/// Russian genitive plural: "у белых", "победа чёрных".
fn color_genitive_ru(color: Color) -> &'static str {
    match color {
        Color::White => "белых",
        Color::Black => "чёрных",
    }
}

/// Russian dative plural: "белым некуда ходить".
fn color_dative_ru(color: Color) -> &'static str {
    match color {
        Color::White => "белым",
        Color::Black => "чёрным",
    }
}

/// The name of a variant for menus and titles.
pub fn variant_name(lang: Lang, variant: Variant) -> &'static str {
    match variant {
        Variant::Russian => tr(lang, Text::RussianDraughts),
        Variant::Giveaway => tr(lang, Text::Giveaway),
    }
}

/// "White to move" / "Ход белых".
pub fn side_to_move(lang: Lang, color: Color) -> String {
    match lang {
        Lang::En => format!("{} to move", color_name(lang, color)),
        Lang::Ru => format!("Ход {}", color_genitive_ru(color)),
    }
}

/// A player in the header: "Human" or "Computer, level 5".
pub fn player_name(lang: Lang, computer_level: Option<u8>) -> String {
    match (computer_level, lang) {
        (None, _) => tr(lang, Text::Human).to_string(),
        (Some(level), Lang::En) => format!("Computer, level {level}"),
        (Some(level), Lang::Ru) => format!("Компьютер, уровень {level}"),
    }
}

/// The end-of-game banner: "White has no moves: Black wins", "Draw by threefold
/// repetition (7.2.3)", "поддавки: White gave away all pieces and wins".
pub fn outcome_text(lang: Lang, outcome: Outcome, variant: Variant) -> String {
    match outcome {
        Outcome::Win { winner, reason } => win_text(lang, winner, reason, variant),
        Outcome::Draw(rule) => match lang {
            Lang::En => format!("Draw by {} ({})", draw_rule_name(lang, rule), rule.number()),
            Lang::Ru => format!("Ничья: {} ({})", draw_rule_name(lang, rule), rule.number()),
        },
    }
}

fn win_text(lang: Lang, winner: Color, reason: WinReason, variant: Variant) -> String {
    let loser = winner.opposite();
    match lang {
        Lang::En => {
            let (w, l) = (color_name(lang, winner), color_name(lang, loser));
            match (variant, reason) {
                (_, WinReason::Resignation) => format!("{l} resigned: {w} wins"),
                (_, WinReason::Time) => format!("{l} ran out of time: {w} wins"),
                (Variant::Russian, WinReason::NoPieces) => {
                    format!("{l} has no pieces left: {w} wins")
                }
                (Variant::Russian, WinReason::NoMoves) => format!("{l} has no moves: {w} wins"),
                (Variant::Giveaway, WinReason::NoPieces) => {
                    format!("поддавки: {w} gave away all pieces and wins")
                }
                (Variant::Giveaway, WinReason::NoMoves) => {
                    format!("поддавки: {w} has no moves left and wins")
                }
            }
        }
        Lang::Ru => {
            let w = color_genitive_ru(winner);
            match (variant, reason) {
                (_, WinReason::Resignation) => {
                    let l = color_name(lang, loser);
                    format!("{l} сдались: победа {w}")
                }
                (_, WinReason::Time) => {
                    format!("У {} истекло время: победа {w}", color_genitive_ru(loser))
                }
                (Variant::Russian, WinReason::NoPieces) => {
                    format!(
                        "У {} не осталось шашек: победа {w}",
                        color_genitive_ru(loser)
                    )
                }
                (Variant::Russian, WinReason::NoMoves) => {
                    format!("У {} нет ходов: победа {w}", color_genitive_ru(loser))
                }
                (Variant::Giveaway, WinReason::NoPieces) => {
                    let name = color_name(lang, winner).to_lowercase();
                    format!("Поддавки: {name} отдали все шашки и победили")
                }
                (Variant::Giveaway, WinReason::NoMoves) => {
                    format!(
                        "Поддавки: {} некуда ходить, победа {w}",
                        color_dative_ru(winner)
                    )
                }
            }
        }
    }
}

/// What a draw rule is about, for the result banner ("threefold repetition").
pub fn draw_rule_name(lang: Lang, rule: DrawRule) -> &'static str {
    match (lang, rule) {
        (Lang::En, DrawRule::Agreement) => "agreement",
        (Lang::En, DrawRule::Repetition) => "threefold repetition",
        (Lang::En, DrawRule::ThreeKingsVsOne) => "three kings against one, 15 moves",
        (Lang::En, DrawRule::KingsOnly) => "15 moves with kings only",
        (Lang::En, DrawRule::BalanceUnchanged) => "unchanged balance in a king ending",
        (Lang::En, DrawRule::LongDiagonal) => "lone king on the long diagonal, 5 moves",
        (Lang::En, DrawRule::SmallEnding) => "small king ending, 5 moves",
        (Lang::En, DrawRule::StandardEnding) => "standard draw ending, no increment on the clock",
        (Lang::Ru, DrawRule::Agreement) => "по соглашению",
        (Lang::Ru, DrawRule::Repetition) => "трёхкратное повторение позиции",
        (Lang::Ru, DrawRule::ThreeKingsVsOne) => "три дамки против одной, 15 ходов",
        (Lang::Ru, DrawRule::KingsOnly) => "15 ходов только дамками",
        (Lang::Ru, DrawRule::BalanceUnchanged) => {
            "соотношение сил в дамочном окончании не менялось"
        }
        (Lang::Ru, DrawRule::LongDiagonal) => "одинокая дамка на большой дороге, 5 ходов",
        (Lang::Ru, DrawRule::SmallEnding) => "малое дамочное окончание, 5 ходов",
        (Lang::Ru, DrawRule::StandardEnding) => "стандартная ничья, часы без добавления",
    }
}

/// A running draw rule: "15 king-only moves: 9 left (7.2.5)".
/// Why a typed move was refused, in the player's language.
pub fn typed_move_error(lang: Lang, e: &crate::rules::notation::NotationError) -> String {
    use crate::rules::notation::NotationError as E;
    match (lang, e) {
        (Lang::En, _) => e.to_string(),
        (Lang::Ru, E::Syntax(t)) => {
            format!("«{t}» — не ход (например: c3-d4, cd4, c3:e5, 22-18)")
        }
        (Lang::Ru, E::Illegal { text, legal }) => {
            format!("Ход «{text}» здесь невозможен; возможные ходы: {legal}")
        }
        (Lang::Ru, E::Ambiguous { text, options }) => {
            format!("«{text}» подходит к нескольким ходам, укажите путь: {options}")
        }
    }
}

pub fn countdown_text(lang: Lang, countdown: &Countdown) -> String {
    let left = countdown.moves_left();
    let rule = countdown.rule;
    let what = match (lang, rule) {
        (Lang::En, DrawRule::KingsOnly) => "15 king-only moves",
        (Lang::En, DrawRule::ThreeKingsVsOne) => "3 kings against 1, 15 moves",
        (Lang::En, DrawRule::BalanceUnchanged) => "Unchanged king ending",
        (Lang::En, DrawRule::LongDiagonal) => "Lone king on the long diagonal, 5 moves",
        (Lang::En, DrawRule::SmallEnding) => "Small king ending, 5 moves",
        (Lang::En, DrawRule::Repetition) => "Repetition",
        (Lang::En, DrawRule::Agreement) => "Agreement",
        (Lang::En, DrawRule::StandardEnding) => "Standard draw ending",
        (Lang::Ru, DrawRule::KingsOnly) => "15 ходов только дамками",
        (Lang::Ru, DrawRule::ThreeKingsVsOne) => "3 дамки против 1, 15 ходов",
        (Lang::Ru, DrawRule::BalanceUnchanged) => "Дамочное окончание без изменений",
        (Lang::Ru, DrawRule::LongDiagonal) => "Дамка на большой дороге, 5 ходов",
        (Lang::Ru, DrawRule::SmallEnding) => "Малое дамочное окончание, 5 ходов",
        (Lang::Ru, DrawRule::Repetition) => "Повторение",
        (Lang::Ru, DrawRule::Agreement) => "Соглашение",
        (Lang::Ru, DrawRule::StandardEnding) => "Стандартная ничья",
    };
    match lang {
        Lang::En => format!("{what}: {left} left ({})", rule.number()),
        Lang::Ru => {
            let verb = ru_plural(left, "остался", "осталось", "осталось");
            let noun = ru_plural(left, "ход", "хода", "ходов");
            format!("{what}: {verb} {left} {noun} ({})", rule.number())
        }
    }
}

/// The endgame tables' verdict for the panel: "Tablebase: White wins (next capture or
/// promotion in 5 moves)", "Tablebase: draw (7.2.4 in 6 moves)".
pub fn tablebase_text(lang: Lang, probe: &crate::ai::tablebase::Probe, to_move: Color) -> String {
    use crate::ai::tablebase::Wdl;
    let moves = probe.plies.div_ceil(2);
    let winner = match probe.wdl {
        Wdl::Win => Some(to_move),
        Wdl::Loss => Some(to_move.opposite()),
        Wdl::Draw => None,
    };
    match (lang, winner) {
        (Lang::En, Some(w)) => format!(
            "Tablebase: {} wins (next capture or promotion in {moves} move{})",
            if w == Color::White { "White" } else { "Black" },
            if moves == 1 { "" } else { "s" }
        ),
        (Lang::Ru, Some(w)) => format!(
            "База окончаний: {} выигрывают (взятие или превращение через {moves} {})",
            if w == Color::White {
                "белые"
            } else {
                "чёрные"
            },
            ru_plural(moves, "ход", "хода", "ходов")
        ),
        (_, None) => {
            let head = match lang {
                Lang::En => "Tablebase: draw",
                Lang::Ru => "База окончаний: ничья",
            };
            match probe.rule {
                Some(rule) if probe.plies_left != crate::ai::tablebase::NO_LIMIT => {
                    let left = probe.plies_left.div_ceil(2);
                    match lang {
                        Lang::En => format!(
                            "{head} ({} in {left} move{})",
                            rule.number(),
                            if left == 1 { "" } else { "s" }
                        ),
                        Lang::Ru => format!(
                            "{head} ({} через {left} {})",
                            rule.number(),
                            ru_plural(left, "ход", "хода", "ходов")
                        ),
                    }
                }
                _ => head.to_string(),
            }
        }
    }
}

/// The background build of the endgame tables: "Endgame tables: building 12/93".
pub fn tables_building_text(lang: Lang, done: usize, total: usize) -> String {
    match lang {
        Lang::En => format!("Endgame tables: building {done}/{total}"),
        Lang::Ru => format!("База окончаний: построение {done}/{total}"),
    }
}

/// How often the current position has occurred: "Position seen 2 times (draw on the 3rd, 7.2.3)".
pub fn repetition_text(lang: Lang, times: usize) -> String {
    let number = DrawRule::Repetition.number();
    match lang {
        Lang::En => format!("Position seen {times} times (draw on the 3rd, {number})"),
        Lang::Ru => {
            let word = ru_plural(times as u32, "раз", "раза", "раз");
            format!("Позиция повторилась {times} {word} (ничья на 3-й, {number})")
        }
    }
}

/// A move number for the move list: "12." in both languages, kept here for one place.
pub fn move_number(number: usize) -> String {
    format!("{number}.")
}

/// Russian plural form for a count: 1 ход, 2 хода, 5 ходов, 21 ход, 11 ходов.
pub fn ru_plural(n: u32, one: &'static str, few: &'static str, many: &'static str) -> &'static str {
    match (n % 10, n % 100) {
        (_, 11..=14) => many,
        (1, _) => one,
        (2..=4, _) => few,
        _ => many,
    }
}

/// "Could not save the game: {error}".
pub fn save_failed(lang: Lang, error: &str) -> String {
    match lang {
        Lang::En => format!("Could not save the game: {error}"),
        Lang::Ru => format!("Не удалось сохранить партию: {error}"),
    }
}

/// Why the rules engine refuses a position, for the position editor.
pub fn position_error(lang: Lang, error: &PositionError) -> String {
    match (lang, error) {
        (Lang::En, e) => {
            let text = e.to_string();
            let mut chars = text.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect())
                .unwrap_or_default()
        }
        (Lang::Ru, PositionError::Overlap(sq)) => {
            format!("На поле {sq} стоят и белая, и чёрная шашка")
        }
        (Lang::Ru, PositionError::TooManyPieces(color, n)) => {
            let who = match color {
                Color::White => "белых",
                Color::Black => "чёрных",
            };
            format!("У {who} {n} шашек; больше 12 быть не может")
        }
        (Lang::Ru, PositionError::WhiteManOnLastRow(sq)) => {
            format!("Белая простая на {sq} стоит на последнем ряду: там она была бы дамкой")
        }
        (Lang::Ru, PositionError::BlackManOnLastRow(sq)) => {
            format!("Чёрная простая на {sq} стоит на последнем ряду: там она была бы дамкой")
        }
        (Lang::Ru, PositionError::OffBoard) => "Шашка вне тёмных полей доски".to_string(),
        (Lang::Ru, PositionError::KingWithoutPiece) => "Отметка дамки на пустом поле".to_string(),
    }
}

/// A side's marks and mean loss after the analysis of a game.
pub fn review_summary(lang: Lang, color: Color, s: &crate::ai::analysis::Summary) -> String {
    let name = color_name(lang, color);
    match lang {
        Lang::En => format!(
            "{name}: {} ?!, {} ?, {} ??, average loss {:.1}",
            s.inaccuracies, s.mistakes, s.blunders, s.average_loss
        ),
        Lang::Ru => format!(
            "{name}: {} ?!, {} ?, {} ??, средняя потеря {:.1}",
            s.inaccuracies, s.mistakes, s.blunders, s.average_loss
        )
        .replace('.', ","),
    }
}

/// The task of a puzzle: "White to play and win", "... and win material", or in
/// поддавки "... give away and win".
pub fn puzzle_task(
    lang: Lang,
    solver: Color,
    goal: crate::ai::puzzle::Goal,
    variant: Variant,
) -> String {
    use crate::ai::puzzle::Goal;
    match (lang, variant, goal) {
        (Lang::En, Variant::Giveaway, _) => {
            format!("{} to play: give away and win", color_name(lang, solver))
        }
        (Lang::En, _, Goal::Win) => format!("{} to play and win", color_name(lang, solver)),
        (Lang::En, _, Goal::Material) => {
            format!("{} to play and win material", color_name(lang, solver))
        }
        (Lang::Ru, Variant::Giveaway, _) => format!(
            "Ход {}: отдайте шашки и выиграйте",
            color_genitive_ru(solver)
        ),
        (Lang::Ru, _, Goal::Win) => format!("Ход {}: выигрыш", color_genitive_ru(solver)),
        (Lang::Ru, _, Goal::Material) => {
            format!("Ход {}: выигрыш материала", color_genitive_ru(solver))
        }
    }
}

/// "Level 2: 5 of 60 solved".
pub fn puzzle_level_line(lang: Lang, level: u8, solved: usize, total: usize) -> String {
    match lang {
        Lang::En => format!("Level {level}: {solved} of {total} solved"),
        Lang::Ru => format!("Уровень {level}: решено {solved} из {total}"),
    }
}

/// "Level 2, puzzle 7 of 60".
pub fn puzzle_position_line(lang: Lang, level: u8, number: usize, total: usize) -> String {
    match lang {
        Lang::En => format!("Level {level}, puzzle {number} of {total}"),
        Lang::Ru => format!("Уровень {level}, комбинация {number} из {total}"),
    }
}
