//! The Snapshot of the IPC contract: everything the UI needs to draw the game, built from
//! the session. The UI holds no rules: coordinate labels, forbidden points, legal moves and
//! flipped discs all come from here.

use serde::Serialize;
use tengen_engine::ai::Score;
use tengen_engine::game::opening::{OpeningRule, Phase};
use tengen_engine::game::{EndReason, GameKind, PlayerKind, Position, RenjuOpening, TimeControl};
use tengen_engine::gomoku::{self, ForbiddenKind, Rule};
use tengen_engine::{Color, Move, Point};

use crate::events::{Notice, ScoredPoint, Xy};
use crate::session::Session;

/// Both players.
#[derive(Clone, Debug, Serialize)]
pub struct Players {
    pub black: PlayerKind,
    pub white: PlayerKind,
}

/// One move of the line shown.
#[derive(Clone, Debug, Serialize)]
pub struct MoveEntry {
    pub x: u8,
    pub y: u8,
    pub pass: bool,
    pub color: Color,
    pub ms: u64,
    /// The move in the game's notation (`h8`, `f5`; `pass`).
    pub label: String,
    /// Its node in the game tree (for `navigate` and `variation`).
    pub node: usize,
    /// Which of its parent's children it is: 0 for the main line's move there.
    #[serde(skip_serializing_if = "is_zero")]
    pub branch: usize,
    /// The other moves tried at the same position, in order (the main line's first).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub alts: Vec<Alt>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// How many moves of a variation the move list shows (its first and those after it along
/// its own main line); a longer one ends in "…" (`more`).
pub const ALT_MOVES: usize = 4;

/// A move tried instead of a move of the line shown (the first move of a variation), with
/// the moves that follow it in that variation (up to [`ALT_MOVES`] in all).
#[derive(Clone, Debug, Serialize)]
pub struct Alt {
    pub node: usize,
    pub label: String,
    /// The variation's next moves, each with its node (to step into the line there).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub then: Vec<AltStep>,
    /// Whether the variation goes on past what is listed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub more: bool,
}

/// A move of a variation after its first.
#[derive(Clone, Debug, Serialize)]
pub struct AltStep {
    pub node: usize,
    pub label: String,
}

/// The board editor, while it is open (the board shows its stones).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EditorView {
    pub to_move: Color,
}

/// A forbidden point for black (Renju).
#[derive(Clone, Debug, Serialize)]
pub struct ForbiddenPoint {
    pub x: u8,
    pub y: u8,
    /// `double_three`, `double_four` or `overline`.
    pub kind: ForbiddenKind,
}

/// Disc or stone counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub black: u32,
    pub white: u32,
}

/// The search under way.
#[derive(Clone, Debug, Serialize)]
pub struct ThinkingView {
    pub color: Color,
    /// `"move"` or `"hint"`.
    pub purpose: &'static str,
    pub depth: u32,
    /// `null` until the first progress report.
    pub score: Option<Score>,
    pub nodes: u64,
    pub nps: u64,
}

/// The clocks of a timed game. The page counts the running side's time down from
/// `blackMs`/`whiteMs` (the times left when the snapshot was built) until the next snapshot.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClockView {
    pub control: TimeControl,
    pub black_ms: u64,
    pub white_ms: u64,
    /// The side whose time runs (`null`: the clock stands still).
    pub running: Option<Color>,
    /// Stopped by the pause button or a restored game's wait (the resume button shows).
    pub paused: bool,
    /// Whether the pause button is offered (no computer plays).
    pub can_pause: bool,
}

/// The end of the game.
#[derive(Clone, Debug, Serialize)]
pub struct ResultView {
    pub winner: Option<Color>,
    /// `five`, `forbidden`, `no_moves`, `resignation`, `board_full`, `time` or
    /// `{"forfeit": why}`.
    pub reason: EndReason,
    /// Renju: the forbidden move that lost the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<ForbiddenKind>,
    pub line: Vec<Xy>,
    pub discs: Option<Counts>,
}

/// The opening phase while it lasts: the rule, the step now (who acts — `first` or
/// `second`, and whether that player is the computer — and what they do), the colour the
/// first player has so far, and Soosõrv's count and offers.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpeningView {
    pub rule: OpeningRule,
    #[serde(flatten)]
    pub phase: Phase,
    /// Whether the player who acts now is the computer.
    pub computer: bool,
}

/// The canonical Renju opening the line starts with: `kagetsu`, its RIF code (`4D`) and
/// both names.
#[derive(Clone, Debug, Serialize)]
pub struct OpeningName {
    pub id: RenjuOpening,
    pub code: String,
    pub romaji: &'static str,
    pub chinese: &'static str,
}

/// The whole state as the UI draws it (see the IPC contract).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    /// Counts the snapshots the session built (from 1); a snapshot with a lower number than
    /// the one on screen is stale (a command's answer and the computer's reply, sent from
    /// different threads, may reach the page in either order) and the UI drops it.
    pub seq: u64,
    pub generation: u64,
    /// `gomoku` or `reversi`.
    pub game: &'static str,
    pub rule: Option<Rule>,
    pub size: u8,
    pub players: Players,
    pub time_per_move_ms: u64,
    /// The opening rule of the game's settings.
    pub opening_rule: OpeningRule,
    /// The players as the settings name them: with an opening rule, `black` is the first
    /// player and `white` the second (`players` says who plays each colour now).
    pub seats: Players,
    /// The opening phase while it lasts (`null` after it, and with no opening rule).
    pub opening: Option<OpeningView>,
    /// The Renju opening the line shown starts with, once its three stones stand.
    pub opening_name: Option<OpeningName>,
    /// `board[y][x]`, y from the top.
    pub board: Vec<Vec<Option<Color>>>,
    pub to_move: Option<Color>,
    /// The line shown: the moves to the position shown, then the rest of the line (redo
    /// follows it); each with its variations.
    pub moves: Vec<MoveEntry>,
    /// How many entries of `moves` lead to the position shown.
    pub ply: usize,
    /// The board editor, while it is open.
    pub editor: Option<EditorView>,
    pub last_move: Option<Xy>,
    /// Gomoku: the shapes the last stone made for its colour, strongest first, as locale keys
    /// (`open_three`, `four`, …); empty for Reversi.
    pub last_shapes: Vec<&'static str>,
    pub legal_moves: Vec<Xy>,
    pub forbidden: Vec<ForbiddenPoint>,
    pub flipped: Vec<Xy>,
    pub counts: Counts,
    pub thinking: Option<ThinkingView>,
    pub hint: Option<Xy>,
    pub heat: Vec<ScoredPoint>,
    pub can_undo: bool,
    pub can_redo: bool,
    /// A position stepped back to at the computer's turn: "Computer plays here" is offered
    /// (the `computer_play` command).
    pub computer_can_play: bool,
    pub notice: Option<Notice>,
    /// Each of the app's files that start-up found corrupt (`file_reset`) or could not read
    /// (`file_unreadable`), until the player's first change.
    pub file_notices: Vec<Notice>,
    pub result: Option<ResultView>,
    /// Column labels, left to right.
    pub columns: Vec<String>,
    /// Row labels, top to bottom.
    pub rows: Vec<String>,
    /// The coach's facts about the move that led here (`null` while the coach is off or
    /// still thinking).
    pub coach: Option<crate::coach::CoachView>,
    /// The clocks (`null` in a game without a time control).
    pub clock: Option<ClockView>,
    /// A restored game at an external engine's turn: the engine's name. It starts only when
    /// the player presses Continue (`clock` op `resume`).
    pub engine_waits: Option<String>,
}

impl Snapshot {
    /// An empty board, only for the moment before the state exists.
    pub fn empty() -> Snapshot {
        Snapshot {
            seq: 0,
            generation: 0,
            game: "gomoku",
            rule: None,
            size: 0,
            players: Players { black: PlayerKind::Human, white: PlayerKind::Human },
            time_per_move_ms: 0,
            opening_rule: OpeningRule::None,
            seats: Players { black: PlayerKind::Human, white: PlayerKind::Human },
            opening: None,
            opening_name: None,
            board: Vec::new(),
            to_move: None,
            moves: Vec::new(),
            ply: 0,
            editor: None,
            last_move: None,
            last_shapes: Vec::new(),
            legal_moves: Vec::new(),
            forbidden: Vec::new(),
            flipped: Vec::new(),
            counts: Counts::default(),
            thinking: None,
            hint: None,
            heat: Vec::new(),
            can_undo: false,
            can_redo: false,
            computer_can_play: false,
            notice: None,
            file_notices: Vec::new(),
            result: None,
            columns: Vec::new(),
            rows: Vec::new(),
            coach: None,
            clock: None,
            engine_waits: None,
        }
    }
}

/// The clocks of `session` as the page shows them.
fn clock_view(session: &Session) -> Option<ClockView> {
    let clock = &session.clock;
    let now = std::time::Instant::now();
    Some(ClockView {
        control: clock.control(),
        black_ms: clock.left(Color::Black, now)?,
        white_ms: clock.left(Color::White, now)?,
        running: clock.is_running().then(|| clock.turn()),
        paused: session.pauses.user || session.pauses_now().engine,
        can_pause: session.can_pause(),
    })
}

/// Builds the snapshot of `session`.
pub fn build(session: &Session) -> Snapshot {
    let game = &session.game;
    let config = game.config();
    let pos = game.position();
    let size = pos.size();
    let over = game.result().is_some();

    let editor = session.editor.as_ref();
    let stone = |p: Point| match editor {
        Some(e) => e.stones.get(p.index(e.size)).copied().flatten(),
        None => pos.stone(p),
    };
    let mut counts = Counts::default();
    let board: Vec<Vec<Option<Color>>> = (0..size)
        .map(|y| {
            (0..size)
                .map(|x| {
                    let s = stone(Point::new(x, y));
                    match s {
                        Some(Color::Black) => counts.black += 1,
                        Some(Color::White) => counts.white += 1,
                        None => {}
                    }
                    s
                })
                .collect()
        })
        .collect();

    let tree = game.tree();
    let moves = game
        .line()
        .into_iter()
        .filter_map(|node| {
            let r = tree.record(node)?;
            let (x, y, pass) = match r.mv {
                Move::Place(p) => (p.x, p.y, false),
                Move::Pass => (0, 0, true),
            };
            let siblings = tree.parent(node).map_or(&[][..], |p| tree.children(p));
            let branch = siblings.iter().position(|&c| c == node).unwrap_or(0);
            let alts = siblings
                .iter()
                .filter(|&&c| c != node)
                .filter_map(|&c| {
                    let label = pos.move_label(tree.record(c)?.mv);
                    let mut then = Vec::new();
                    let mut at = c;
                    while let Some(next) = tree.next(at) {
                        if then.len() + 1 == ALT_MOVES {
                            break;
                        }
                        let step = pos.move_label(tree.record(next)?.mv);
                        then.push(AltStep { node: next, label: step });
                        at = next;
                    }
                    let more = tree.next(at).is_some();
                    Some(Alt { node: c, label, then, more })
                })
                .collect();
            let label = pos.move_label(r.mv);
            Some(MoveEntry { x, y, pass, color: r.color, ms: r.ms, label, node, branch, alts })
        })
        .collect();
    let last_point = game.history().iter().rev().find_map(|r| r.mv.point());
    let last_move = last_point.map(Xy::from);
    let last_shapes = match (pos, last_point) {
        (Position::Gomoku(g), Some(p)) => {
            gomoku::shapes_at(g, p).into_iter().map(|shape| shape.key()).collect()
        }
        _ => Vec::new(),
    };

    let (legal_moves, forbidden) = match pos {
        Position::Reversi(r) if !over => {
            (r.legal_points().into_iter().map(Xy::from).collect(), Vec::new())
        }
        Position::Gomoku(g)
            if !over && g.rule() == Rule::Renju && g.side_to_move() == Color::Black =>
        {
            let forbidden = g
                .forbidden_points()
                .into_iter()
                .map(|(p, kind)| ForbiddenPoint { x: p.x, y: p.y, kind })
                .collect();
            (Vec::new(), forbidden)
        }
        _ => (Vec::new(), Vec::new()),
    };

    let thinking = session.thinking.as_ref().map(|t| ThinkingView {
        color: t.color,
        purpose: t.purpose.name(),
        depth: t.info.as_ref().map_or(0, |i| i.depth),
        score: t.info.as_ref().map(|i| i.score),
        nodes: t.info.as_ref().map_or(0, |i| i.nodes),
        nps: t.info.as_ref().map_or(0, |i| i.nps),
    });

    let result = game.result().map(|r| ResultView {
        winner: r.winner,
        reason: r.reason,
        kind: r.forbidden,
        line: r.line.iter().map(|&p| p.into()).collect(),
        discs: r.discs.map(|(black, white)| Counts { black, white }),
    });

    let rule = match config.kind {
        GameKind::Gomoku { rule, .. } => Some(rule),
        GameKind::Reversi => None,
    };

    Snapshot {
        seq: 0,
        generation: session.generation,
        game: config.kind.name(),
        rule,
        size,
        players: Players { black: game.player(Color::Black), white: game.player(Color::White) },
        time_per_move_ms: config.time_per_move_ms,
        opening_rule: config.opening,
        seats: Players { black: config.black, white: config.white },
        opening: opening_view(session),
        opening_name: game.opening_name().map(|id| OpeningName {
            id,
            code: id.code(),
            romaji: id.romaji(),
            chinese: id.chinese(),
        }),
        board,
        to_move: if over { None } else { Some(game.side_to_move()) },
        moves,
        ply: game.history().len(),
        editor: editor.map(|e| EditorView { to_move: e.to_move }),
        last_move,
        last_shapes,
        legal_moves,
        forbidden,
        flipped: game.flipped().iter().map(|&p| p.into()).collect(),
        counts,
        thinking,
        hint: session.hint.map(Xy::from),
        heat: ScoredPoint::list(&session.heat),
        can_undo: session.can_undo(),
        can_redo: game.redo_len() > 0,
        computer_can_play: session.computer_can_play_here(),
        notice: session.notice.clone(),
        file_notices: session.file_notices.clone(),
        result,
        columns: pos.column_labels(),
        rows: pos.row_labels(),
        coach: crate::coach::view(session),
        clock: clock_view(session),
        engine_waits: session.engine_waits(),
    }
}

fn opening_view(session: &Session) -> Option<OpeningView> {
    let game = &session.game;
    let phase = game.opening_phase();
    let step = phase.step.filter(|_| game.result().is_none())?;
    let computer = !game.role_player(step.role).is_human();
    Some(OpeningView { rule: game.opening().rule(), phase, computer })
}
