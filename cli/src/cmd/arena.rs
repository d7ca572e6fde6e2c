//! `tengen arena`: engine-vs-engine matches with alternating colours, score and Elo.

mod elo;
mod openings;
mod player;
mod sprt;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use tengen_engine::ai::{AnyEngine, CancelFlag, Engine, Level, Limits};
use tengen_engine::gomocup::{Brain, BrainSettings};
use tengen_engine::gomoku::{self, psq, Position, Rule};
use tengen_engine::rng::Rng;
use tengen_engine::{reversi, Color, Move, Point};

use super::{outln, read_user_file, CmdResult};
pub use elo::Tally;
use player::{Contestant, External, Player};

/// Which game the arena plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GameArg {
    Gomoku,
    Reversi,
}

#[derive(clap::Args)]
pub struct Args {
    /// The game to play.
    #[arg(long, value_enum, default_value = "gomoku")]
    pub game: GameArg,
    /// Gomoku rule: freestyle, standard (exactly five) or renju.
    #[arg(long, default_value = "freestyle", value_parser = parse_rule)]
    pub rule: Rule,
    /// Gomoku board size.
    #[arg(long, default_value_t = 15)]
    pub size: u8,
    /// The level playing black in the first game of each pair (see `tengen levels`), or
    /// `ext:PATH` for a Gomocup brain (an executable run without arguments in its folder).
    #[arg(long)]
    pub black: String,
    /// The level playing white in the first game of each pair, or `ext:PATH`.
    #[arg(long)]
    pub white: String,
    /// Number of games (each opening is played twice, once with each colour); with --sprt
    /// the most games to play. Default: 2, or 2000 with --sprt.
    #[arg(long)]
    pub games: Option<u32>,
    /// Stop as soon as a sequential probability ratio test decides between Elo difference
    /// elo0 (H0) and elo1 (H1) of the first engine (--black) over the second: "0,10".
    /// Logistic Elo; the GSPRT over game pairs (pentanomial model), as fishtest.
    #[arg(long, value_parser = sprt::parse_bounds, allow_hyphen_values = true)]
    pub sprt: Option<(f64, f64)>,
    /// The SPRT's false positive rate (accepting H1 when H0 holds).
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// The SPRT's false negative rate (accepting H0 when H1 holds).
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Thinking time per move in milliseconds.
    #[arg(long, default_value_t = 200)]
    pub time_per_move: u64,
    /// A file of openings, one per line (Gomoku: "h8 h9 j10").
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Directory to write each game into (PSQ files for Gomoku).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Seed of the engines' random choices; each game gets its own seed derived from it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print only the summary, not a line per game.
    #[arg(long)]
    pub quiet: bool,
}

fn parse_rule(s: &str) -> Result<Rule, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "freestyle" => Ok(Rule::Freestyle),
        "standard" => Ok(Rule::Standard),
        "renju" => Ok(Rule::Renju),
        other => Err(format!("unknown rule \"{other}\" (use freestyle, standard or renju)")),
    }
}

/// Why the arena could not run.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    #[error(transparent)]
    Level(#[from] tengen_engine::ai::ParseLevelError),
    #[error(transparent)]
    Openings(#[from] openings::OpeningError),
    #[error(transparent)]
    Sprt(#[from] sprt::SprtError),
    #[error("the external brain {who}: {source}")]
    Brain { who: String, source: tengen_engine::gomocup::BrainError },
    #[error("the board size {0} is not supported (use 9 to 26)")]
    Size(u8),
    #[error("the level {0} is not available in this build")]
    Unavailable(Level),
    #[error("{0}")]
    Unsupported(String),
    #[error(transparent)]
    File(#[from] super::UserFileError),
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot print the results: {0}")]
    Output(#[source] std::io::Error),
}

/// How one game ended, seen from black.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Color, String),
    Draw(String),
}

/// One finished game.
pub struct GameRecord {
    pub outcome: Outcome,
    pub moves: Vec<(Point, u64)>,
    pub max_ms: u64,
}

/// A fresh engine of `level`, or an explanation if this build cannot make one.
fn make_engine(level: Level, seed: u64) -> Result<AnyEngine, ArenaError> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let made = std::panic::catch_unwind(|| AnyEngine::new(level, seed));
    std::panic::set_hook(hook);
    made.map_err(|_| ArenaError::Unavailable(level))
}

/// SplitMix-style seed of game `i`.
fn game_seed(seed: u64, i: u64, side: u64) -> u64 {
    let mut rng = Rng::new(seed ^ (i << 1 | side).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    rng.next_u64()
}

/// Plays one Gomoku game from `opening`.
pub fn play_gomoku(
    opening: &[Point],
    rule: Rule,
    size: u8,
    players: [&mut dyn Player<Position>; 2],
    ms: u64,
) -> Result<GameRecord, ArenaError> {
    let mut pos = Position::new(size, rule).map_err(|e| ArenaError::Unsupported(e.to_string()))?;
    let mut moves = Vec::new();
    for &p in opening {
        pos.play(p).map_err(|e| ArenaError::Unsupported(format!("opening: {e}")))?;
        moves.push((p, 0));
    }
    let limits = Limits { time: Some(Duration::from_millis(ms)), ..Limits::default() };
    let mut max_ms = 0;
    loop {
        if let Some(win) = pos.winner() {
            return Ok(GameRecord {
                outcome: Outcome::Win(win.color, "five".into()),
                moves,
                max_ms,
            });
        }
        if pos.is_full() {
            return Ok(GameRecord { outcome: Outcome::Draw("board full".into()), moves, max_ms });
        }
        let side = pos.side_to_move();
        let start = Instant::now();
        let chosen = players[side.index()].choose(&pos, &limits);
        let took = start.elapsed().as_millis() as u64;
        max_ms = max_ms.max(took);
        let played = match chosen {
            Ok(Move::Place(p)) => pos.play(p).map(|()| p).map_err(|e| e.to_string()),
            Ok(Move::Pass) => Err("a pass".to_string()),
            Err(why) => return Ok(lost(side, format!("{side} failed: {why}"), moves, max_ms)),
        };
        match played {
            Ok(p) => moves.push((p, took)),
            Err(why) => return Ok(forfeit(side, &why, moves, max_ms)),
        }
    }
}

/// Plays one Reversi game from `opening`; a record's moves leave passes implicit.
pub fn play_reversi(
    opening: &[Point],
    engines: [&mut dyn Engine<reversi::Position>; 2],
    ms: u64,
) -> Result<GameRecord, ArenaError> {
    let mut pos = reversi::Position::initial();
    let mut moves = Vec::new();
    for &p in opening {
        pos.play(p).map_err(|e| ArenaError::Unsupported(format!("opening: {e}")))?;
        moves.push((p, 0));
    }
    let limits = Limits { time: Some(Duration::from_millis(ms)), ..Limits::default() };
    let mut max_ms = 0;
    loop {
        if let Some(o) = pos.outcome() {
            let score = format!("{}-{}", o.black, o.white);
            let outcome = match o.winner {
                Some(c) => Outcome::Win(c, score),
                None => Outcome::Draw(score),
            };
            return Ok(GameRecord { outcome, moves, max_ms });
        }
        if pos.must_pass() {
            pos.pass().map_err(|e| ArenaError::Unsupported(e.to_string()))?;
            continue;
        }
        let side = pos.side_to_move();
        let (best, took) = timed_search(&mut *engines[side.index()], &pos, &limits);
        max_ms = max_ms.max(took);
        let played = match best {
            Move::Place(p) => pos.play(p).map(|_| p).map_err(|e| e.to_string()),
            Move::Pass => Err("a pass with legal moves".to_string()),
        };
        match played {
            Ok(p) => moves.push((p, took)),
            Err(why) => return Ok(forfeit(side, &why, moves, max_ms)),
        }
    }
}

/// The engine's move in `pos` and the milliseconds it took.
fn timed_search<P>(engine: &mut dyn Engine<P>, pos: &P, limits: &Limits) -> (Move, u64) {
    let start = Instant::now();
    let result = engine.search(pos, limits, &CancelFlag::new(), &mut |_| {});
    (result.best, start.elapsed().as_millis() as u64)
}

/// The record of a game that `side` lost by playing an illegal move.
fn forfeit(side: Color, why: &str, moves: Vec<(Point, u64)>, max_ms: u64) -> GameRecord {
    lost(side, format!("{side} played an illegal move ({why})"), moves, max_ms)
}

/// The record of a game that `side` lost for `reason`.
fn lost(side: Color, reason: String, moves: Vec<(Point, u64)>, max_ms: u64) -> GameRecord {
    GameRecord { outcome: Outcome::Win(side.opponent(), reason), moves, max_ms }
}

pub fn run(args: Args) -> CmdResult {
    Ok(run_match(&args)?)
}

/// What the openings file is called in errors.
const OPENINGS: &str = "the openings file";

/// Writes one game record.
fn write_record(path: &std::path::Path, text: &str) -> Result<(), ArenaError> {
    std::fs::write(path, text).map_err(|source| ArenaError::Write {
        path: format!("the game record {}", path.display()),
        source,
    })
}

fn run_match(args: &Args) -> Result<(), ArenaError> {
    let game = match args.game {
        GameArg::Gomoku => "gomoku",
        GameArg::Reversi => "reversi",
    };
    let first = Contestant::parse(game, &args.black)?;
    let second = Contestant::parse(game, &args.white)?;
    let reversi = args.game == GameArg::Reversi;
    let test = match args.sprt {
        Some((elo0, elo1)) => Some(sprt::Sprt::new(elo0, elo1, args.alpha, args.beta)?),
        None => None,
    };
    let games = args.games.unwrap_or(if test.is_some() { 2000 } else { 2 });
    if !reversi && !(9..=26).contains(&args.size) {
        return Err(ArenaError::Size(args.size));
    }
    let openings = match (&args.openings, reversi) {
        (Some(path), false) => {
            openings::parse_gomoku(&read_user_file(OPENINGS, path)?, args.size, args.rule)?
        }
        (Some(path), true) => openings::parse_reversi(&read_user_file(OPENINGS, path)?)?,
        (None, false) => openings::builtin_gomoku(args.size),
        (None, true) => {
            // All 4-ply openings, shuffled with the seed so that short matches vary.
            let mut all = openings::reversi_openings(4);
            let mut rng = Rng::new(args.seed);
            for i in (1..all.len()).rev() {
                all.swap(i, rng.below(i as u64 + 1) as usize);
            }
            all
        }
    };
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|source| ArenaError::Write {
            path: format!("the folder {}", dir.display()),
            source,
        })?;
    }
    // Fail early (before any game) when a level is missing from this build or a brain does
    // not answer ABOUT.
    let brain_settings = |path: &std::path::Path| {
        BrainSettings::new(path, Duration::from_millis(args.time_per_move))
    };
    for contestant in [&first, &second] {
        match contestant {
            Contestant::Level(level) => drop(make_engine(*level, 0)?),
            Contestant::External(_) if reversi => {
                return Err(ArenaError::Unsupported("external brains play Gomoku only".into()))
            }
            Contestant::External(path) => {
                let brain = Brain::start(&brain_settings(path))
                    .map_err(|source| ArenaError::Brain { who: contestant.to_string(), source })?;
                outln!("{}: {}", contestant.name(), brain.about()).map_err(ArenaError::Output)?;
            }
        }
    }
    let board = if reversi {
        "8x8".to_string()
    } else {
        format!("{} {}x{}", args.rule.name(), args.size, args.size)
    };
    outln!(
        "arena: {} vs {}, {}, {} games, {} ms per move, {} openings",
        first,
        second,
        board,
        games,
        args.time_per_move,
        openings.len()
    )
    .map_err(ArenaError::Output)?;
    let mut tally = Tally::default();
    let mut max_ms = 0;
    let mut total_moves = 0usize;
    let mut penta = sprt::Pentanomial::default();
    let mut pair_first = 0.0;
    for i in 0..games as u64 {
        let opening = &openings[(i / 2) as usize % openings.len()];
        // Game 2k: the first level plays black; game 2k+1: colours swapped.
        let first_is_black = i % 2 == 0;
        let (b_level, w_level) = if first_is_black { (&first, &second) } else { (&second, &first) };
        let record = if reversi {
            let (Contestant::Level(b_level), Contestant::Level(w_level)) = (b_level, w_level)
            else {
                return Err(ArenaError::Unsupported("external brains play Gomoku only".into()));
            };
            let mut b = make_engine(*b_level, game_seed(args.seed, i, 0))?;
            let mut w = make_engine(*w_level, game_seed(args.seed, i, 1))?;
            let (AnyEngine::Reversi(b), AnyEngine::Reversi(w)) = (&mut b, &mut w) else {
                return Err(ArenaError::Unsupported("levels of different games".into()));
            };
            play_reversi(opening, [&mut **b, &mut **w], args.time_per_move)?
        } else {
            let mut b = gomoku_player(b_level, game_seed(args.seed, i, 0), &brain_settings)?;
            let mut w = gomoku_player(w_level, game_seed(args.seed, i, 1), &brain_settings)?;
            play_gomoku(opening, args.rule, args.size, [&mut *b, &mut *w], args.time_per_move)?
        };
        max_ms = max_ms.max(record.max_ms);
        total_moves += record.moves.len();
        let first_color = if first_is_black { Color::Black } else { Color::White };
        let (verdict, points) = match &record.outcome {
            Outcome::Win(c, why) if *c == first_color => {
                tally.wins += 1;
                (format!("{} wins ({why})", first), 1.0)
            }
            Outcome::Win(_, why) => {
                tally.losses += 1;
                (format!("{} wins ({why})", second), 0.0)
            }
            Outcome::Draw(why) => {
                tally.draws += 1;
                (format!("draw ({why})"), 0.5)
            }
        };
        if !args.quiet {
            outln!(
                "game {:>3}: black {:<10} white {:<10} {:>3} moves  {}   [{}]",
                i + 1,
                b_level.name(),
                w_level.name(),
                record.moves.len(),
                verdict,
                if reversi {
                    reversi::notation::write_transcript(opening)
                } else {
                    gomoku::notation::format_moves(opening, args.size)
                }
            )
            .map_err(ArenaError::Output)?;
        }
        if let Some(dir) = &args.out {
            if reversi {
                let moves: Vec<Point> = record.moves.iter().map(|&(p, _)| p).collect();
                let text = reversi::notation::write_transcript(&moves) + "\n";
                write_record(&dir.join(format!("game-{:03}.txt", i + 1)), &text)?;
            } else {
                let record = psq::PsqRecord { size: args.size, moves: record.moves };
                let text = psq::write_psq_with_rule(&record, args.rule);
                write_record(&dir.join(format!("game-{:03}.psq", i + 1)), &text)?;
            }
        }
        if let Some(test) = &test {
            if i % 2 == 0 {
                pair_first = points;
                continue;
            }
            penta.add(pair_first, points);
            let decided = test.verdict(penta.llr(test.elo0, test.elo1)) != sprt::Verdict::Undecided;
            if !args.quiet && !decided {
                outln!("sprt: {}", test.status(&penta, &tally)).map_err(ArenaError::Output)?;
            }
            if decided {
                break;
            }
        }
    }
    let (elo, margin) = tally.elo();
    outln!(
        "result: {} vs {}: +{} -{} ={}  score {:.1}%  Elo {}  ({} games, {:.1} moves per game, longest move {} ms)",
        first,
        second,
        tally.wins,
        tally.losses,
        tally.draws,
        100.0 * tally.score(),
        elo::format_elo(elo, margin),
        tally.games(),
        total_moves as f64 / tally.games().max(1) as f64,
        max_ms
    )
    .map_err(ArenaError::Output)?;
    if let Some(test) = &test {
        outln!("sprt: {}", test.status(&penta, &tally)).map_err(ArenaError::Output)?;
    }
    Ok(())
}

/// A Gomoku player for `contestant`: a fresh engine, or an external brain that starts with
/// its first move.
fn gomoku_player(
    contestant: &Contestant,
    seed: u64,
    settings: &dyn Fn(&std::path::Path) -> BrainSettings,
) -> Result<Box<dyn Player<Position>>, ArenaError> {
    match contestant {
        Contestant::Level(level) => match make_engine(*level, seed)? {
            AnyEngine::Gomoku(engine) => Ok(Box::new(engine)),
            AnyEngine::Reversi(_) => {
                Err(ArenaError::Unsupported("levels of different games".into()))
            }
        },
        Contestant::External(path) => Ok(Box::new(External::new(settings(path)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_engine::ai::gomoku::new_engine;
    use tengen_engine::ai::GomokuLevel;

    #[test]
    fn a_game_ends_with_a_legal_record() {
        let mut a = new_engine(GomokuLevel::Pattern, 1);
        let mut b = new_engine(GomokuLevel::FiveTuple, 2);
        let opening = &openings::builtin_gomoku(15)[0];
        let r = play_gomoku(opening, Rule::Freestyle, 15, [&mut a, &mut b], 50).unwrap();
        let mut pos = Position::new(15, Rule::Freestyle).unwrap();
        for &(p, _) in &r.moves {
            pos.play(p).unwrap();
        }
        match r.outcome {
            Outcome::Win(c, _) => assert_eq!(pos.winner().map(|w| w.color), Some(c)),
            Outcome::Draw(_) => assert!(pos.is_full()),
        }
    }

    /// An engine that breaks the interface's promise: it always answers with the same point.
    struct Stubborn(Point);

    impl Engine<Position> for Stubborn {
        fn search(
            &mut self,
            _pos: &Position,
            _limits: &Limits,
            _cancel: &CancelFlag,
            _progress: &mut dyn FnMut(&tengen_engine::ai::SearchInfo),
        ) -> tengen_engine::ai::SearchResult {
            tengen_engine::ai::SearchResult {
                best: Move::Place(self.0),
                info: tengen_engine::ai::SearchInfo::default(),
            }
        }
    }

    #[test]
    fn an_illegal_move_loses_the_game_and_keeps_the_record() {
        // The opening puts black on h8; white answers h8 every time, so its first move is
        // illegal and white loses; the record keeps the legal moves only.
        let h8 = Point::new(7, 7);
        let mut black = new_engine(GomokuLevel::FiveTuple, 1);
        let mut white: Box<dyn Engine<Position>> = Box::new(Stubborn(h8));
        let r = play_gomoku(&[h8], Rule::Freestyle, 15, [&mut black, &mut white], 50).unwrap();
        let Outcome::Win(winner, reason) = r.outcome else { panic!("no winner") };
        assert_eq!(winner, Color::Black);
        assert!(reason.contains("white played an illegal move"), "{reason}");
        assert_eq!(r.moves, vec![(h8, 0)]);
    }

    #[test]
    fn game_seeds_differ() {
        let seeds: std::collections::HashSet<u64> =
            (0..50).flat_map(|i| [game_seed(1, i, 0), game_seed(1, i, 1)]).collect();
        assert_eq!(seeds.len(), 100);
    }

    #[test]
    fn rules_parse() {
        assert_eq!(parse_rule("Renju"), Ok(Rule::Renju));
        assert!(parse_rule("caro").is_err());
    }
}
