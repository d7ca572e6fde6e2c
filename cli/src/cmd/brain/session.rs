//! The brain's game state: board, rule and time controls, driven by protocol commands.

use std::time::Duration;

use tengen_engine::ai::{control, Limits};
use tengen_engine::gomoku::{Position, Rule, MAX_SIZE, MIN_SIZE};
use tengen_engine::{Color, Point};

use super::protocol::{Command, Info};

/// What the I/O loop must do after a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Print these lines (possibly none).
    Reply(Vec<String>),
    /// Search the current position and answer with a move.
    Think,
    /// Search the current position for its `n` best moves (YXNBEST).
    ThinkBest(u32),
    /// Forget what the engine learnt (its tables), printing these lines.
    ClearTables(Vec<String>),
    /// Quit.
    Quit,
}

fn reply(line: impl Into<String>) -> Action {
    Action::Reply(vec![line.into()])
}

fn error(message: impl std::fmt::Display) -> Action {
    reply(format!("ERROR {message}"))
}

/// The shortest time a move is thought about, however little is left.
const MIN_BUDGET: Duration = Duration::from_millis(10);

/// The manager's time and memory limits (milliseconds, bytes; 0 = none) and the search
/// threads (`INFO thread_num`, else all cores but one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Controls {
    pub timeout_turn: u64,
    pub timeout_match: u64,
    pub time_left: Option<u64>,
    pub max_memory: u64,
    pub threads: usize,
}

impl Default for Controls {
    fn default() -> Controls {
        // Piskvork's defaults when the manager says nothing.
        Controls {
            timeout_turn: 30_000,
            timeout_match: 0,
            time_left: None,
            max_memory: 0,
            threads: control::default_threads(),
        }
    }
}

impl Controls {
    /// The milliseconds of one turn (0 = "as fast as possible": 100 ms) and the safety
    /// margin kept from them: a fifth, 30 ms to 1 s (a loaded machine delays threads by tens
    /// of milliseconds, and a brain that answers late forfeits).
    fn turn_and_margin(&self) -> (u64, u64) {
        const FASTEST_MS: u64 = 100;
        let turn = if self.timeout_turn == 0 { FASTEST_MS } else { self.timeout_turn };
        (turn, (turn / 5).clamp(30, 1_000))
    }

    /// The limits of one move: the turn less the margin, and the time left in the game
    /// less the margin (of which the search control spends a share).
    pub fn limits(&self) -> Limits {
        let (turn, margin) = self.turn_and_margin();
        let left = self.time_left.filter(|_| self.timeout_match > 0);
        Limits {
            time: Some(Duration::from_millis(turn.saturating_sub(margin))),
            time_left: left.map(|left| Duration::from_millis(left.saturating_sub(margin))),
            ..Limits::default()
        }
    }

    /// The time to think about one move (after which the search is cancelled): the search
    /// control's budget for [`Controls::limits`], at least 10 ms.
    pub fn move_budget(&self) -> Duration {
        control::time_budget(&self.limits(), None).unwrap_or_default().max(MIN_BUDGET)
    }

    /// The time by which the brain answers whatever the search is doing: half-way through
    /// the margin after [`Controls::move_budget`].
    /// With a match clock nearly run out, it stays within half of the time left.
    pub fn reply_time(&self) -> Duration {
        let (_, margin) = self.turn_and_margin();
        let budget = self.move_budget();
        let mut reply = budget + Duration::from_millis(margin / 2);
        if let Some(left) = self.time_left.filter(|_| self.timeout_match > 0) {
            reply = reply.min(budget.max(Duration::from_millis(left / 2)));
        }
        reply
    }
}

/// The most moves YXNBEST lists (each is a search of its own).
pub const MAX_NBEST: u32 = 64;

/// The brain's state between commands.
pub struct Session {
    pub pos: Option<Position>,
    pub rule: Rule,
    pub controls: Controls,
    /// Stones received since BOARD or YXBOARD, waiting for DONE.
    board: Option<Vec<(Point, u8)>>,
    /// Whether the position being received (YXBOARD) is only set up, not answered.
    board_quiet: bool,
    /// Lines to print before the answer of the command just handled.
    notices: Vec<String>,
    /// Whether YXNBEST's lines also go out as Yixin-Board's INFO blocks (`INFO SHOW_DETAIL`
    /// 2 or 3).
    pub show_detail: bool,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

/// The rule of the manager's `INFO rule` value, or why Tengen cannot play it.
///
/// Gomocup's value is a bitmask: 1 = exactly five wins, 2 = continuous game (play goes on
/// after a five, with blocked points), 4 = Renju, 8 = caro (a five blocked at both ends does
/// not win). Yixin-Board instead sends 0 / 1 / 2 for freestyle / standard / Renju (Rapfi
/// reads 2 the same way), so 2 alone means Renju; continuous games and caro are refused.
pub fn rule_of_mask(mask: u32) -> Result<Rule, String> {
    match mask {
        2 => Ok(Rule::Renju),
        m if m & 8 != 0 => Err(format!("unsupported rule {m} (caro)")),
        m if m & 2 != 0 => Err(format!("unsupported rule {m} (continuous game)")),
        m if m & !7 != 0 => Err(format!("unsupported rule {m}")),
        m if m & 4 != 0 => Ok(Rule::Renju),
        m if m & 1 != 0 => Ok(Rule::Standard),
        _ => Ok(Rule::Freestyle),
    }
}

/// Yixin-Board's answer to YXSHOWFORBID: `FORBID ` then each point forbidden to black as
/// two-digit x and y (`0707`), row by row, then `.` (`FORBID .` when there is none, or when
/// white is to move). The format is Rapfi's (`Rapfi/command/gomocup.cpp`, `showForbid`).
pub fn forbid_line(pos: &Position) -> String {
    let mut points: Vec<Point> = if pos.side_to_move() == Color::Black {
        pos.forbidden_points().into_iter().map(|(p, _)| p).collect()
    } else {
        Vec::new()
    };
    points.sort_by_key(|p| (p.y, p.x));
    let mut line = String::from("FORBID ");
    for p in points {
        line.push_str(&format!("{:02}{:02}", p.x, p.y));
    }
    line.push('.');
    line
}

impl Session {
    pub fn new() -> Session {
        Session {
            pos: None,
            rule: Rule::Freestyle,
            controls: Controls::default(),
            board: None,
            board_quiet: false,
            notices: Vec::new(),
            show_detail: false,
        }
    }

    /// Handles one command. `Think` leaves the position with the brain to move. Lines to
    /// print before acting on the answer are left in [`Session::take_notices`].
    pub fn handle(&mut self, cmd: Command) -> Action {
        if self.board.is_some() && !matches!(cmd, Command::Stone(..) | Command::Done) {
            // An unfinished BOARD is dropped with an ERROR, and the command still runs: a
            // manager's ABOUT or END is never lost.
            self.board = None;
            self.notices.push("ERROR BOARD must end with DONE (the position was dropped)".into());
        }
        match cmd {
            Command::Start(n) => {
                let size = match u8::try_from(n) {
                    Ok(s) if (MIN_SIZE..=MAX_SIZE).contains(&s) => s,
                    _ => return error(format!("unsupported board size {n}")),
                };
                match Position::new(size, self.rule) {
                    Ok(pos) => {
                        self.pos = Some(pos);
                        reply("OK")
                    }
                    Err(e) => error(e),
                }
            }
            Command::RectStart(..) => error("rectangular boards are not supported"),
            Command::Restart => match &self.pos {
                Some(pos) => match Position::new(pos.size(), self.rule) {
                    Ok(p) => {
                        self.pos = Some(p);
                        reply("OK")
                    }
                    Err(e) => error(e),
                },
                None => error("RESTART before START"),
            },
            Command::Begin => match &self.pos {
                Some(pos) if pos.moves().is_empty() => Action::Think,
                Some(_) => error("BEGIN on a board that is not empty"),
                None => error("BEGIN before START"),
            },
            Command::Turn(p) => {
                let Some(pos) = &mut self.pos else { return error("TURN before START") };
                match pos.play(p) {
                    Ok(()) if pos.is_over() => error("the game is over"),
                    Ok(()) => Action::Think,
                    Err(e) => error(format!("cannot play {},{}: {e}", p.x, p.y)),
                }
            }
            Command::Board | Command::YxBoard => {
                if self.pos.is_none() {
                    return error("BOARD before START");
                }
                self.board = Some(Vec::new());
                self.board_quiet = cmd == Command::YxBoard;
                Action::Reply(Vec::new())
            }
            Command::Stone(p, field) => match &mut self.board {
                Some(stones) => {
                    stones.push((p, field));
                    Action::Reply(Vec::new())
                }
                None => error("a stone line outside BOARD"),
            },
            Command::Done => match self.board.take() {
                Some(stones) => match self.set_board(&stones, self.board_quiet) {
                    Ok(()) if self.board_quiet => Action::Reply(Vec::new()),
                    Ok(()) => Action::Think,
                    Err(message) => error(message),
                },
                None => error("DONE without BOARD"),
            },
            Command::YxShowForbid => match &self.pos {
                Some(pos) => reply(forbid_line(pos)),
                None => error("YXSHOWFORBID before START"),
            },
            Command::YxHashClear => {
                Action::ClearTables(vec!["MESSAGE the search tables are cleared".to_string()])
            }
            Command::YxNBest(n) => match &self.pos {
                Some(pos) if pos.is_over() => error("the game is over"),
                Some(_) if !(1..=MAX_NBEST).contains(&n) => {
                    error(format!("YXNBEST needs 1 to {MAX_NBEST} moves"))
                }
                Some(_) => Action::ThinkBest(n),
                None => error("YXNBEST before START"),
            },
            Command::TakeBack(p) => {
                let Some(pos) = &mut self.pos else { return error("TAKEBACK before START") };
                if pos.moves().last() == Some(&p) {
                    pos.undo();
                    reply("OK")
                } else {
                    error(format!("{},{} is not the last move", p.x, p.y))
                }
            }
            Command::Info(info) => match self.info(info) {
                Ok(()) => Action::Reply(Vec::new()),
                Err(message) => error(message),
            },
            Command::End => Action::Quit,
            Command::About => reply(
                "name=\"Tengen\", version=\"0.1.0\", author=\"Tengen developers\", country=\"CN\"",
            ),
            Command::Unknown(word) => reply(format!("UNKNOWN command {word}")),
        }
    }

    /// Applies an INFO value. Keys Tengen has no use for (`caution_factor`,
    /// `game_type`, `folder`, `evaluate`, ...) are accepted and ignored, as the protocol
    /// asks. A rule Tengen cannot play is refused and the current rule kept.
    fn info(&mut self, info: Info) -> Result<(), String> {
        match info {
            Info::TimeoutTurn(ms) => self.controls.timeout_turn = ms,
            Info::TimeoutMatch(ms) => self.controls.timeout_match = ms,
            Info::TimeLeft(ms) => self.controls.time_left = Some(ms),
            Info::MaxMemory(bytes) => self.controls.max_memory = bytes,
            Info::ThreadNum(n) => {
                self.controls.threads =
                    usize::try_from(n).unwrap_or(usize::MAX).clamp(1, control::MAX_THREADS)
            }
            Info::Rule(mask) => {
                let rule = rule_of_mask(mask)?;
                if rule != self.rule {
                    self.rule = rule;
                    // Replay the game so far under the new rule (normally the board is empty).
                    if let Some(pos) = &self.pos {
                        let moves = pos.moves().to_vec();
                        if let Ok(mut fresh) = Position::new(pos.size(), rule) {
                            if moves.iter().all(|&p| fresh.play(p).is_ok()) {
                                self.pos = Some(fresh);
                            }
                        }
                    }
                }
            }
            // Yixin-Board's SHOW_DETAIL: 2 or 3 asks for the INFO block of each YXNBEST line.
            Info::Other(key, value) if key == "show_detail" => {
                self.show_detail = matches!(value.trim().parse::<u32>(), Ok(2 | 3));
            }
            Info::Other(..) => {}
        }
        Ok(())
    }

    /// Rebuilds the position from BOARD stones, the brain to move: the stones are replayed
    /// alternately in the order given, black first. A YXBOARD position (`finished_ok`) may
    /// be a finished game: it is only shown, not answered.
    fn set_board(&mut self, stones: &[(Point, u8)], finished_ok: bool) -> Result<(), String> {
        let size = self.pos.as_ref().map_or(15, |p| p.size());
        let own: Vec<Point> = stones.iter().filter(|s| s.1 == 1).map(|s| s.0).collect();
        let theirs: Vec<Point> = stones.iter().filter(|s| s.1 == 2).map(|s| s.0).collect();
        if let Some(&(p, f)) = stones.iter().find(|s| !(1..=3).contains(&s.1)) {
            return Err(format!("bad field {f} for {},{}", p.x, p.y));
        }
        let me = if own.len() == theirs.len() {
            Color::Black
        } else if theirs.len() == own.len() + 1 {
            Color::White
        } else {
            return Err(format!(
                "{} own and {} opponent stones cannot be a position with the brain to move",
                own.len(),
                theirs.len()
            ));
        };
        let (black, white) = if me == Color::Black { (own, theirs) } else { (theirs, own) };
        let mut pos = Position::new(size, self.rule).map_err(|e| e.to_string())?;
        for (i, &b) in black.iter().enumerate() {
            for p in std::iter::once(b).chain(white.get(i).copied()) {
                pos.play(p).map_err(|e| format!("cannot place {},{}: {e}", p.x, p.y))?;
            }
        }
        if pos.is_over() && !finished_ok {
            return Err("the game is over".to_string());
        }
        self.pos = Some(pos);
        Ok(())
    }

    /// The lines to print before the answer of the command just handled (emptied).
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// Records the brain's own move.
    pub fn play_own(&mut self, p: Point) -> Result<(), String> {
        match &mut self.pos {
            Some(pos) => pos.play(p).map_err(|e| e.to_string()),
            None => Err("no game".to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::protocol::parse;
    use super::*;

    fn run(session: &mut Session, line: &str) -> Action {
        session.handle(parse(line).unwrap())
    }

    #[test]
    fn a_short_game() {
        let mut s = Session::new();
        assert_eq!(run(&mut s, "START 15"), reply("OK"));
        assert_eq!(run(&mut s, "TURN 7,7"), Action::Think);
        s.play_own(Point::new(8, 8)).unwrap();
        assert!(matches!(run(&mut s, "TURN 7,7"), Action::Reply(l) if l[0].starts_with("ERROR")));
        assert_eq!(run(&mut s, "TAKEBACK 8,8"), reply("OK"));
        assert_eq!(s.pos.as_ref().unwrap().moves(), &[Point::new(7, 7)]);
        assert!(
            matches!(run(&mut s, "TAKEBACK 1,1"), Action::Reply(l) if l[0].starts_with("ERROR"))
        );
        assert_eq!(run(&mut s, "RESTART"), reply("OK"));
        assert_eq!(run(&mut s, "BEGIN"), Action::Think);
        assert_eq!(run(&mut s, "END"), Action::Quit);
    }

    #[test]
    fn board_sets_up_a_position_with_the_brain_to_move() {
        let mut s = Session::new();
        run(&mut s, "START 15");
        for line in ["BOARD", "7,7,2", "8,8,1", "7,8,2"] {
            assert_eq!(run(&mut s, line), Action::Reply(vec![]));
        }
        assert_eq!(run(&mut s, "DONE"), Action::Think);
        let pos = s.pos.as_ref().unwrap();
        assert_eq!(pos.side_to_move(), Color::White);
        assert_eq!(pos.stone(Point::new(8, 8)), Some(Color::White));
        assert_eq!(pos.stone(Point::new(7, 8)), Some(Color::Black));
        // Two own stones against one cannot be our move.
        for line in ["BOARD", "1,1,1", "2,2,1", "3,3,2"] {
            run(&mut s, line);
        }
        assert!(matches!(run(&mut s, "DONE"), Action::Reply(l) if l[0].starts_with("ERROR")));
    }

    #[test]
    fn info_sets_rule_and_time() {
        let mut s = Session::new();
        run(&mut s, "INFO rule 4");
        run(&mut s, "START 15");
        assert_eq!(s.pos.as_ref().unwrap().rule(), Rule::Renju);
        run(&mut s, "INFO rule 1");
        assert_eq!(s.pos.as_ref().unwrap().rule(), Rule::Standard);
        let ms = |d: Duration| d.as_millis();
        // The turn less a fifth, less the search control's own 5%.
        run(&mut s, "INFO timeout_turn 1000");
        assert_eq!(s.controls.limits().time, Some(Duration::from_millis(800)));
        assert_eq!(ms(s.controls.move_budget()), 760);
        assert_eq!(ms(s.controls.reply_time()), 860);
        run(&mut s, "INFO timeout_turn 300");
        assert_eq!(ms(s.controls.move_budget()), 228);
        assert_eq!(ms(s.controls.reply_time()), 258);
        // A twelfth of the time left less the margin.
        run(&mut s, "INFO timeout_turn 1000");
        run(&mut s, "INFO timeout_match 100000");
        run(&mut s, "INFO time_left 2400");
        assert_eq!(s.controls.limits().time_left, Some(Duration::from_millis(2200)));
        assert_eq!(ms(s.controls.move_budget()), 183);
        assert_eq!(ms(s.controls.reply_time()), 283);
        run(&mut s, "INFO time_left 50");
        assert_eq!(ms(s.controls.move_budget()), 10);
        assert_eq!(ms(s.controls.reply_time()), 25);
        run(&mut s, "INFO evaluate 7,7");
        assert!(matches!(run(&mut s, "START 99"), Action::Reply(l) if l[0].starts_with("ERROR")));
        assert!(matches!(run(&mut s, "START 4"), Action::Reply(l) if l[0].starts_with("ERROR")));
    }

    #[test]
    fn a_command_inside_an_unfinished_board_still_runs() {
        let mut s = Session::new();
        run(&mut s, "START 15");
        run(&mut s, "BOARD");
        run(&mut s, "7,7,1");
        let Action::Reply(lines) = run(&mut s, "ABOUT") else { panic!() };
        assert!(lines[0].starts_with("name="), "{lines:?}");
        assert!(s.take_notices()[0].starts_with("ERROR BOARD must end with DONE"));
        assert!(s.take_notices().is_empty());
        assert!(s.pos.as_ref().unwrap().moves().is_empty(), "the unfinished position is dropped");
        run(&mut s, "BOARD");
        assert_eq!(run(&mut s, "END"), Action::Quit);
    }

    #[test]
    fn rule_values() {
        assert_eq!(rule_of_mask(0), Ok(Rule::Freestyle));
        assert_eq!(rule_of_mask(1), Ok(Rule::Standard));
        assert_eq!(rule_of_mask(4), Ok(Rule::Renju));
        assert_eq!(rule_of_mask(5), Ok(Rule::Renju));
        assert_eq!(rule_of_mask(2), Ok(Rule::Renju), "Yixin-Board's Renju");
        for refused in [3, 6, 8, 9, 12, 16, u32::MAX] {
            assert!(rule_of_mask(refused).is_err(), "{refused}");
        }
        let mut s = Session::new();
        run(&mut s, "INFO rule 1");
        let Action::Reply(l) = run(&mut s, "INFO rule 8") else { panic!() };
        assert_eq!(l, vec!["ERROR unsupported rule 8 (caro)".to_string()]);
        assert_eq!(s.rule, Rule::Standard, "a refused rule leaves the rule as it was");
        assert_eq!(run(&mut s, "INFO thread_num 8"), Action::Reply(vec![]));
        assert_eq!(s.controls.threads, 8);
        run(&mut s, "INFO thread_num 0");
        assert_eq!(s.controls.threads, 1);
        run(&mut s, "INFO thread_num 100000");
        assert_eq!(s.controls.threads, control::MAX_THREADS);
        assert_eq!(run(&mut s, "INFO caution_factor 3"), Action::Reply(vec![]));
    }

    #[test]
    fn yixin_board_positions_and_forbidden_points() {
        let mut s = Session::new();
        run(&mut s, "INFO rule 4");
        run(&mut s, "START 15");
        assert_eq!(run(&mut s, "YXSHOWFORBID"), reply("FORBID ."));
        // Black (own) 2,3,4 and 6,7,8 on row 7: 5,7 is an overline.
        run(&mut s, "YXBOARD");
        for (i, x) in [2, 3, 4, 6, 7, 8].into_iter().enumerate() {
            run(&mut s, &format!("{x},7,1"));
            run(&mut s, &format!("0,{},2", 2 * i));
        }
        assert_eq!(run(&mut s, "DONE"), Action::Reply(vec![]), "YXBOARD is not answered");
        assert_eq!(s.pos.as_ref().unwrap().moves().len(), 12);
        assert_eq!(run(&mut s, "YXSHOWFORBID"), reply("FORBID 0507."));
        // White to move: no forbidden points are shown.
        run(&mut s, "TURN 14,14");
        assert_eq!(run(&mut s, "YXSHOWFORBID"), reply("FORBID ."));
        assert_eq!(run(&mut s, "YXNBEST 2"), Action::ThinkBest(2));
        assert!(matches!(run(&mut s, "YXNBEST 0"), Action::Reply(l) if l[0].starts_with("ERROR")));
        assert!(
            matches!(run(&mut s, "YXNBEST 4000000000"), Action::Reply(l) if l[0].starts_with("ERROR"))
        );
        assert!(matches!(run(&mut s, "YXHASHCLEAR"), Action::ClearTables(_)));
        // SHOW_DETAIL 2 or 3 asks for the INFO blocks of YXNBEST; 0 and 1 do not.
        assert!(!s.show_detail);
        for (value, detail) in [("2", true), ("0", false), ("3", true), ("1", false)] {
            run(&mut s, &format!("INFO SHOW_DETAIL {value}"));
            assert_eq!(s.show_detail, detail, "SHOW_DETAIL {value}");
        }
    }

    #[test]
    fn about_names_tengen() {
        let mut s = Session::new();
        let Action::Reply(lines) = run(&mut s, "ABOUT") else { panic!() };
        assert!(lines[0].contains("name=\"Tengen\"") && lines[0].contains("country=\"CN\""));
        assert!(matches!(run(&mut s, "FROB"), Action::Reply(l) if l[0].starts_with("UNKNOWN")));
        assert!(matches!(run(&mut s, "TURN 1,1"), Action::Reply(l) if l[0].starts_with("ERROR")));
    }
}
