//! One arena game, either game, played through the session [`Game`]: the session keeps the
//! history and the Reversi passes and decides the end (five, a full board, no moves left, a
//! Renju forbidden point); the arena only asks each side for its move and times it.

use std::time::{Duration, Instant};

use tengen_engine::game::{EndReason, Game, GameConfig};
use tengen_engine::{Color, Move};

use super::player::{ClockLeft, Failure, Player};
use super::ArenaError;

/// One finished game.
pub struct Finished {
    /// The game, over: its moves with their times and its result.
    pub game: Game,
    /// The details of the loser's forfeit ([`EndReason::Forfeit`]), when the rules did not
    /// end the game: the rules' refusal of its move, or how the player failed.
    pub forfeit: Option<String>,
    /// The longest time one move took, in milliseconds.
    pub max_ms: u64,
}

impl Finished {
    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        self.game.result().and_then(|r| r.winner)
    }

    /// The stones or discs placed, the opening's included (Reversi passes are not counted).
    pub fn placed(&self) -> usize {
        self.game.history().iter().filter(|r| r.mv != Move::Pass).count()
    }

    /// Why the game ended, in the words of the game lines: `five`, `board full`, the final
    /// disc count `34-30`, or the loser's forfeit and its details.
    pub fn reason(&self) -> String {
        let Some(result) = self.game.result() else { return "unfinished".into() };
        match result.reason {
            EndReason::Five => "five".into(),
            EndReason::BoardFull => "board full".into(),
            EndReason::NoMoves => match result.discs {
                Some((black, white)) => format!("{black}-{white}"),
                None => "no moves".into(),
            },
            EndReason::Forbidden => match result.forbidden {
                Some(kind) => format!("black played a forbidden point ({kind})"),
                None => "black played a forbidden point".into(),
            },
            EndReason::Resignation => "resignation".into(),
            EndReason::Time => "time".into(),
            EndReason::Forfeit(why) => {
                let loser = result.winner.map_or(Color::Black, Color::opponent);
                let details = self.forfeit.as_deref().unwrap_or("");
                format!("{loser} forfeits ({why}): {details}")
            }
        }
    }
}

/// Plays one game of `config` from `opening` (played at 0 ms each), each side thinking
/// `time` per move (timed from when it is asked, after [`Player::prepare`]). A player that
/// fails, or whose move the rules refuse, loses the game. Under the config's game clock, a
/// side is told its time left with each move and loses on time when a move takes longer.
pub fn play(
    config: GameConfig,
    opening: &[tengen_engine::Point],
    players: [&mut dyn Player; 2],
    time: Duration,
) -> Result<Finished, ArenaError> {
    let mut game = Game::new(config)?;
    for &p in opening {
        game.play(Move::Place(p), 0)
            .map_err(|e| ArenaError::Unsupported(format!("opening: {e}")))?;
    }
    play_on(game, players, time)
}

/// [`play`] from where `game` stands.
fn play_on(
    mut game: Game,
    players: [&mut dyn Player; 2],
    time: Duration,
) -> Result<Finished, ArenaError> {
    let mut max_ms = 0;
    let mut forfeit = None;
    while !game.is_over() {
        let side = game.side_to_move();
        let player = &mut *players[side.index()];
        let ready = player.prepare(game.position());
        // The game's clock (none, or the match's) runs from the question to the answer.
        let mut clock = game.clock();
        let start = Instant::now();
        clock.resume(start);
        let increment = Duration::from_millis(clock.control().increment_ms());
        let left = clock
            .left(side, start)
            .map(|ms| ClockLeft { left: Duration::from_millis(ms), increment });
        let chosen = ready.and_then(|()| player.choose(game.position(), time, left));
        let now = Instant::now();
        let took_ms = clock.spent(now);
        max_ms = max_ms.max(took_ms);
        if clock.flagged(now).is_some() {
            game.lose_on_time()?;
            break;
        }
        let answer = chosen.as_ref().map(|&mv| mv).map_err(|f: &Failure| f.reason);
        match (game.play_or_forfeit(answer, took_ms), chosen) {
            (Err(refused), _) if game.is_over() => forfeit = Some(refused.to_string()),
            (Err(e), _) => return Err(e.into()),
            (Ok(_), Err(failure)) => forfeit = Some(failure.message),
            (Ok(_), Ok(_)) => {}
        }
    }
    Ok(Finished { game, forfeit, max_ms })
}

#[cfg(test)]
mod tests {
    use super::super::player::Computer;
    use super::*;
    use tengen_engine::ai::{GomokuLevel, Level, ReversiLevel};
    use tengen_engine::game::{ForfeitReason, GameKind, PlayerKind, Position, TimeControl};
    use tengen_engine::gomoku::{notation, Rule};
    use tengen_engine::Point;

    const MS: Duration = Duration::from_millis(50);

    fn config(kind: GameKind) -> GameConfig {
        GameConfig {
            kind,
            black: PlayerKind::Human,
            white: PlayerKind::Human,
            time_per_move_ms: 100,
            time_control: Default::default(),
            opening: Default::default(),
        }
    }

    fn gomoku(rule: Rule) -> GameConfig {
        config(GameKind::Gomoku { rule, size: 15 })
    }

    /// A game of `config` from `opening` between `black` and `white`, seeded 1 and 2.
    fn between(config: GameConfig, opening: &[Point], black: Level, white: Level) -> Finished {
        let (mut b, mut w) = (Computer::new(black, 1).unwrap(), Computer::new(white, 2).unwrap());
        play(config, opening, [&mut b, &mut w], MS).unwrap()
    }

    /// A player that plays the given moves in turn, then fails.
    struct Script(Vec<Move>);

    impl Player for Script {
        fn choose(
            &mut self,
            _pos: &Position,
            _time: Duration,
            _clock: Option<ClockLeft>,
        ) -> Result<Move, Failure> {
            if self.0.is_empty() {
                return Err(Failure::crash("out of moves"));
            }
            Ok(self.0.remove(0))
        }
    }

    fn points(moves: &str) -> Vec<Point> {
        moves.split_whitespace().map(|m| notation::parse_point(m, 15).unwrap()).collect()
    }

    fn script(moves: &str) -> Script {
        Script(points(moves).into_iter().map(Move::Place).collect())
    }

    #[test]
    fn a_gomoku_game_ends_as_the_session_says() {
        let opening = &super::super::openings::builtin_gomoku(15, Rule::Freestyle)[0];
        let (a, b) = (Level::Gomoku(GomokuLevel::Pattern), Level::Gomoku(GomokuLevel::FiveTuple));
        let done = between(gomoku(Rule::Freestyle), opening, a, b);
        let result = done.game.result().unwrap();
        assert!(matches!(result.reason, EndReason::Five | EndReason::BoardFull), "{result:?}");
        assert_eq!(done.forfeit, None);
        assert_eq!(done.placed(), done.game.history().len());
        assert_eq!(&done.game.history()[..3].iter().map(|r| r.ms).collect::<Vec<_>>(), &[0; 3]);
        // The record replays to the same result.
        let back = Game::open(&done.game.to_record(), &gomoku(Rule::Freestyle)).unwrap();
        assert_eq!(back.result(), Some(result));
    }

    #[test]
    fn a_reversi_game_counts_the_discs_and_leaves_passes_uncounted() {
        let opening = &super::super::openings::reversi_openings(4)[7];
        let (a, b) = (Level::Reversi(ReversiLevel::Classic), Level::Reversi(ReversiLevel::Greedy));
        let done = between(config(GameKind::Reversi), opening, a, b);
        let result = done.game.result().unwrap();
        assert_eq!(result.reason, EndReason::NoMoves);
        let (black, white) = result.discs.unwrap();
        assert_eq!(done.reason(), format!("{black}-{white}"));
        let passes = done.game.history().iter().filter(|r| r.mv == Move::Pass).count();
        assert_eq!(done.placed() + passes, done.game.history().len());
        assert_eq!(done.placed() as u32, black + white - 4);
    }

    #[test]
    fn an_illegal_move_loses_the_game_and_keeps_the_record() {
        // White answers h8, where the opening put black's stone: white loses at once.
        let mut black = Computer::new(Level::Gomoku(GomokuLevel::FiveTuple), 1).unwrap();
        let mut white = script("h8");
        let done =
            play(gomoku(Rule::Freestyle), &points("h8"), [&mut black, &mut white], MS).unwrap();
        assert_eq!(done.winner(), Some(Color::Black));
        let illegal = EndReason::Forfeit(ForfeitReason::IllegalMove);
        assert_eq!(done.game.result().unwrap().reason, illegal);
        assert!(
            done.reason().starts_with("white forfeits (illegal move): h8 is already taken"),
            "{}",
            done.reason()
        );
        assert_eq!(done.placed(), 1);
        // A pass is no Gomoku move either.
        let mut white = Script(vec![Move::Pass]);
        let done =
            play(gomoku(Rule::Freestyle), &points("h8"), [&mut black, &mut white], MS).unwrap();
        assert!(done.reason().starts_with("white forfeits (illegal move): Gomoku has no passes"));
    }

    #[test]
    fn a_failing_player_loses_the_game() {
        let mut black = script("a1");
        let mut white = script("");
        let done = play(gomoku(Rule::Freestyle), &[], [&mut black, &mut white], MS).unwrap();
        assert_eq!(done.winner(), Some(Color::Black));
        assert_eq!(done.reason(), "white forfeits (crash): out of moves");
        let crash = EndReason::Forfeit(ForfeitReason::Crash);
        assert_eq!(done.game.result().unwrap().reason, crash);
        assert_eq!(done.placed(), 1);
    }

    /// A player that takes `start` to get ready the first time (or cannot, if `None`),
    /// then plays its script.
    struct SlowStart {
        start: Option<Duration>,
        ready: bool,
        moves: Script,
    }

    impl Player for SlowStart {
        fn prepare(&mut self, _pos: &Position) -> Result<(), Failure> {
            if !self.ready {
                let start = self.start.ok_or_else(|| Failure::crash("cannot start"))?;
                std::thread::sleep(start);
                self.ready = true;
            }
            Ok(())
        }

        fn choose(
            &mut self,
            pos: &Position,
            time: Duration,
            clock: Option<ClockLeft>,
        ) -> Result<Move, Failure> {
            assert!(self.ready, "asked before it was ready");
            self.moves.choose(pos, time, clock)
        }
    }

    #[test]
    fn a_players_start_is_not_its_thinking_time_and_a_failed_start_loses() {
        let start = Duration::from_millis(400);
        let mut black = SlowStart { start: Some(start), ready: false, moves: script("a1 a2") };
        let mut white = script("o1");
        let done = play(gomoku(Rule::Freestyle), &[], [&mut black, &mut white], MS).unwrap();
        assert_eq!(done.reason(), "white forfeits (crash): out of moves");
        // The 400 ms start is neither the longest move nor in the record.
        assert!(done.max_ms < 200, "{} ms", done.max_ms);
        assert!(done.game.history().iter().all(|r| r.ms < 200), "{:?}", done.game.history());
        let mut black = SlowStart { start: None, ready: false, moves: script("a1") };
        let mut white = script("o1");
        let done = play(gomoku(Rule::Freestyle), &[], [&mut black, &mut white], MS).unwrap();
        assert_eq!(done.winner(), Some(Color::White));
        assert_eq!(done.reason(), "black forfeits (crash): cannot start");
        assert_eq!(done.placed(), 0);
    }

    #[test]
    fn a_forbidden_point_loses_for_black_under_renju_by_the_rules() {
        // h8 is a double three for black; the session ends the game, not the arena.
        let mut black = script("i8 j8 h9 h10 h8");
        let mut white = script("a1 a3 a5 a7 a9");
        let done = play(gomoku(Rule::Renju), &[], [&mut black, &mut white], MS).unwrap();
        assert_eq!(done.winner(), Some(Color::White));
        assert_eq!(done.forfeit, None);
        assert_eq!(done.reason(), "black played a forbidden point (double-three)");
        assert!(done.game.to_record().contains("\n8,8,0\n"), "{}", done.game.to_record());
        // Under Freestyle the game goes on after h8.
        let mut black = script("i8 j8 h9 h10 h8");
        let mut white = script("a1 a3 a5 a7 a9");
        let done = play(gomoku(Rule::Freestyle), &[], [&mut black, &mut white], MS).unwrap();
        assert_eq!(done.reason(), "black forfeits (crash): out of moves");
    }

    /// A player that plays `moves` in turn, each after `think`, noting the time left it is
    /// told.
    struct Timed {
        think: Duration,
        moves: Script,
        told: Vec<Option<ClockLeft>>,
    }

    impl Player for Timed {
        fn choose(
            &mut self,
            pos: &Position,
            time: Duration,
            clock: Option<ClockLeft>,
        ) -> Result<Move, Failure> {
            self.told.push(clock);
            std::thread::sleep(self.think);
            self.moves.choose(pos, time, clock)
        }
    }

    #[test]
    fn under_a_game_clock_each_side_is_told_its_time_left_and_loses_when_it_runs_out() {
        let clocked = GameConfig {
            time_control: TimeControl::SuddenDeath { base_ms: 10_000 },
            ..gomoku(Rule::Freestyle)
        };
        // Black has 10,000 - 9,700 = 300 ms left, white 10,000 - 9,950 = 50 ms.
        let mut game = Game::new(clocked).unwrap();
        game.play(Move::Place(points("h8")[0]), 9_700).unwrap();
        game.play(Move::Place(points("a1")[0]), 9_950).unwrap();
        let think = Duration::from_millis(100);
        let mut black = Timed { think, moves: script("h9 h10"), told: Vec::new() };
        let mut white = Timed { think, moves: script("a2 a3"), told: Vec::new() };
        let done = play_on(game, [&mut black, &mut white], Duration::from_secs(5)).unwrap();
        let told =
            |ms| Some(ClockLeft { left: Duration::from_millis(ms), increment: Duration::ZERO });
        assert_eq!(black.told, vec![told(300)]);
        assert_eq!(white.told, vec![told(50)]);
        // White's 100 ms move came after its flag fell: the move is not played.
        assert_eq!(done.winner(), Some(Color::Black));
        assert_eq!(done.game.result().unwrap().reason, EndReason::Time);
        assert_eq!(done.reason(), "time");
        assert_eq!(done.placed(), 3);
        assert!(done.max_ms >= 100, "{} ms", done.max_ms);
        // Without a clock nobody is told a time left, and nobody loses on time.
        let mut black = Timed { think: MS, moves: script("h8 h9"), told: Vec::new() };
        let mut white = Timed { think: MS, moves: script("a1"), told: Vec::new() };
        let done = play(gomoku(Rule::Freestyle), &[], [&mut black, &mut white], MS).unwrap();
        assert_eq!(done.reason(), "white forfeits (crash): out of moves");
        assert_eq!((black.told, white.told), (vec![None, None], vec![None, None]));
        // On a Fischer clock each side is told the increment too, and gets it back after
        // each move: black has 10,000 - 9,700 + 500 = 800 ms after h8, and 800 - 100 + 500 =
        // 1,200 ms after h9.
        let fischer = GameConfig {
            time_control: TimeControl::Fischer { base_ms: 10_000, increment_ms: 500 },
            ..gomoku(Rule::Freestyle)
        };
        let mut game = Game::new(fischer).unwrap();
        game.play(Move::Place(points("h8")[0]), 9_700).unwrap();
        game.play(Move::Place(points("a1")[0]), 100).unwrap();
        let mut black = Timed { think, moves: script("h9 h10"), told: Vec::new() };
        let mut white = Timed { think, moves: script("a2"), told: Vec::new() };
        play_on(game, [&mut black, &mut white], Duration::from_secs(5)).unwrap();
        let inc = Duration::from_millis(500);
        assert_eq!(
            black.told[0],
            Some(ClockLeft { left: Duration::from_millis(800), increment: inc })
        );
        let second = black.told[1].unwrap();
        assert_eq!(second.increment, inc);
        let left = second.left.as_millis();
        assert!((1_050..=1_200).contains(&left), "{left} ms");
    }

    #[test]
    fn a_bad_opening_is_an_error_not_a_game() {
        let mut a = script("");
        let mut b = script("");
        let r = play(gomoku(Rule::Freestyle), &points("h8 h8"), [&mut a, &mut b], MS);
        assert!(matches!(r, Err(ArenaError::Unsupported(m)) if m.starts_with("opening: ")));
    }
}
