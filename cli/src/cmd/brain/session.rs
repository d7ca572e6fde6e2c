//! The brain's game state: board, rule and time controls, driven by protocol commands.

use std::time::Duration;

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
    /// Quit.
    Quit,
}

fn reply(line: impl Into<String>) -> Action {
    Action::Reply(vec![line.into()])
}

fn error(message: impl std::fmt::Display) -> Action {
    reply(format!("ERROR {message}"))
}

/// The manager's time and memory limits (milliseconds, bytes; 0 = none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Controls {
    pub timeout_turn: u64,
    pub timeout_match: u64,
    pub time_left: Option<u64>,
    pub max_memory: u64,
}

impl Default for Controls {
    fn default() -> Controls {
        // Piskvork's defaults when the manager says nothing.
        Controls { timeout_turn: 30_000, timeout_match: 0, time_left: None, max_memory: 0 }
    }
}

impl Controls {
    /// The time to think about one move: the turn limit less a safety margin, and a share
    /// of the time left in the game.
    pub fn move_budget(&self) -> Duration {
        const FASTEST_MS: u64 = 100;
        let turn = if self.timeout_turn == 0 { FASTEST_MS } else { self.timeout_turn };
        let margin = (turn / 10).clamp(30, 1_000);
        let mut ms = turn.saturating_sub(margin);
        if let Some(left) = self.time_left.filter(|_| self.timeout_match > 0) {
            // Keep a reserve and spread the rest over the moves still to come.
            let share = left.saturating_sub(margin) / 12;
            ms = ms.min(share);
        }
        Duration::from_millis(ms.max(10))
    }
}

/// The brain's state between commands.
pub struct Session {
    pub pos: Option<Position>,
    pub rule: Rule,
    pub controls: Controls,
    /// Stones received since BOARD, waiting for DONE.
    board: Option<Vec<(Point, u8)>>,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

/// The rule of the manager's INFO rule bitmask.
pub fn rule_of_mask(mask: u32) -> Rule {
    if mask & 4 != 0 {
        Rule::Renju
    } else if mask & 1 != 0 {
        Rule::Standard
    } else {
        Rule::Freestyle
    }
}

impl Session {
    pub fn new() -> Session {
        Session { pos: None, rule: Rule::Freestyle, controls: Controls::default(), board: None }
    }

    /// Handles one command. `Think` leaves the position with the brain to move.
    pub fn handle(&mut self, cmd: Command) -> Action {
        if self.board.is_some() && !matches!(cmd, Command::Stone(..) | Command::Done) {
            self.board = None;
            if cmd == Command::End {
                return Action::Quit;
            }
            return error("BOARD must end with DONE");
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
            Command::Board => {
                if self.pos.is_none() {
                    return error("BOARD before START");
                }
                self.board = Some(Vec::new());
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
                Some(stones) => match self.set_board(&stones) {
                    Ok(()) => Action::Think,
                    Err(message) => error(message),
                },
                None => error("DONE without BOARD"),
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
            Command::Info(info) => {
                self.info(info);
                Action::Reply(Vec::new())
            }
            Command::End => Action::Quit,
            Command::About => reply(
                "name=\"Tengen\", version=\"0.1.0\", author=\"Tengen developers\", country=\"CN\"",
            ),
            Command::Unknown(word) => reply(format!("UNKNOWN command {word}")),
        }
    }

    fn info(&mut self, info: Info) {
        match info {
            Info::TimeoutTurn(ms) => self.controls.timeout_turn = ms,
            Info::TimeoutMatch(ms) => self.controls.timeout_match = ms,
            Info::TimeLeft(ms) => self.controls.time_left = Some(ms),
            Info::MaxMemory(bytes) => self.controls.max_memory = bytes,
            Info::Rule(mask) => {
                let rule = rule_of_mask(mask);
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
            Info::Other(..) => {}
        }
    }

    /// Rebuilds the position from BOARD stones, the brain to move: the stones are replayed
    /// alternately in the order given, black first.
    fn set_board(&mut self, stones: &[(Point, u8)]) -> Result<(), String> {
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
        if pos.is_over() {
            return Err("the game is over".to_string());
        }
        self.pos = Some(pos);
        Ok(())
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
        run(&mut s, "INFO timeout_turn 1000");
        assert_eq!(s.controls.move_budget(), Duration::from_millis(900));
        run(&mut s, "INFO timeout_match 100000");
        run(&mut s, "INFO time_left 2400");
        assert_eq!(s.controls.move_budget(), Duration::from_millis(191));
        run(&mut s, "INFO evaluate 7,7");
        assert!(matches!(run(&mut s, "START 99"), Action::Reply(l) if l[0].starts_with("ERROR")));
        assert!(matches!(run(&mut s, "START 4"), Action::Reply(l) if l[0].starts_with("ERROR")));
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
