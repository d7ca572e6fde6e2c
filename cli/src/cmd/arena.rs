//! `tengen arena`: engine-vs-engine matches with alternating colours, score and Elo.

mod elo;
mod openings;
mod play;
mod player;
mod sprt;

use std::path::PathBuf;
use std::time::Duration;

use tengen_engine::ai::Level;
use tengen_engine::game::{
    GameConfig, GameError, GameKind, TimeControl, MAX_TIME_PER_MOVE_MS, MIN_TIME_PER_MOVE_MS,
};
use tengen_engine::gomocup::{Brain, BrainSettings};
use tengen_engine::gomoku::{self, Rule};
use tengen_engine::nboard::{NboardEngine, NboardSettings};
use tengen_engine::rng::Rng;
use tengen_engine::{reversi, Color};

use super::{outln, read_user_file, CmdResult};
pub use elo::Tally;
use player::{Computer, Contestant, External, Player};

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
    /// `ext:PATH` for an external engine (an executable run without arguments in its folder):
    /// a Gomocup brain in Gomoku, an NBoard engine in Reversi.
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
    /// Each side's time for the whole game in milliseconds (sudden death, 10 s to 3 h), as
    /// Gomocup's `timeout_match`: a side is told its time left before each move and loses
    /// on time when a move takes longer. The time per move still limits each move (an
    /// NBoard engine gets the smaller of the two as its clock). Default: no game clock.
    #[arg(long)]
    pub match_time: Option<u64>,
    /// Time given back after each move in milliseconds (up to 60 s), making the game clock
    /// a Fischer clock; needs --match-time. An NBoard engine is told it in the record's
    /// clock; a Gomocup brain, whose protocol has no increment, is not.
    #[arg(long, requires = "match_time")]
    pub increment: Option<u64>,
    /// A file of openings, one per line (Gomoku: "h8 h9 j10"), played in the file's order.
    /// Default: in Gomoku 24 built-in three-stone openings balanced for freestyle, under
    /// Renju 22 of their own, in rounds that play each once, in an order drawn from the
    /// seed, and over 8 rounds each in its 8 orientations; in Reversi every 4-ply opening,
    /// in an order drawn from the seed.
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
    /// Search threads of both levels (those that use them: Master); default: all cores but
    /// one.
    #[arg(long, value_parser = super::threads_arg)]
    pub threads: Option<usize>,
    /// Search threads of the first level (--black) only, in both colours.
    #[arg(long, value_parser = super::threads_arg)]
    pub threads_black: Option<usize>,
    /// Search threads of the second level (--white) only, in both colours.
    #[arg(long, value_parser = super::threads_arg)]
    pub threads_white: Option<usize>,
}

impl Args {
    /// The search threads of the first (`first`) or the second level.
    fn threads_of(&self, first: bool) -> usize {
        let own = if first { self.threads_black } else { self.threads_white };
        own.or(self.threads).unwrap_or_else(tengen_engine::ai::control::default_threads)
    }
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
    #[error("the external engine {who}: {source}")]
    Nboard { who: String, source: tengen_engine::nboard::NboardError },
    #[error("the board size {0} is not supported (use {MIN_SIZE} to {max})", max = gomoku::MAX_SIZE)]
    Size(u8),
    #[error("the level {0} is not available in this build")]
    Unavailable(Level),
    #[error("{0}")]
    Unsupported(String),
    #[error(transparent)]
    Game(#[from] GameError),
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

/// The smallest board the arena plays on: the built-in openings need nine lines.
const MIN_SIZE: u8 = 9;

/// A fresh engine of `level`, or an explanation if this build cannot make one.
fn computer(level: Level, seed: u64, threads: usize) -> Result<Computer, ArenaError> {
    Computer::new(level, seed)
        .map(|c| c.with_threads(threads))
        .ok_or(ArenaError::Unavailable(level))
}

/// SplitMix-style seed of game `i`.
fn game_seed(seed: u64, i: u64, side: u64) -> u64 {
    let mut rng = Rng::new(seed ^ (i << 1 | side).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    rng.next_u64()
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

/// The game and its variant that `args` ask for.
fn game_kind(args: &Args) -> GameKind {
    match args.game {
        GameArg::Gomoku => GameKind::Gomoku { rule: args.rule, size: args.size },
        GameArg::Reversi => GameKind::Reversi,
    }
}

/// The session's settings for one game of the match, `black` against `white`, with the
/// match's game clock (`--match-time`). The players think `--time-per-move` each, which may
/// lie outside the app's range (the evaluation fit's self-play runs at 30 ms); the session
/// runs no player itself, so it is given the nearest time in its range.
fn session_config(args: &Args, black: &Contestant, white: &Contestant) -> GameConfig {
    let kind = game_kind(args);
    let time_per_move_ms = args.time_per_move.clamp(MIN_TIME_PER_MOVE_MS, MAX_TIME_PER_MOVE_MS);
    GameConfig {
        kind,
        black: black.kind(),
        white: white.kind(),
        time_per_move_ms,
        time_control: match (args.match_time, args.increment) {
            (Some(base_ms), Some(increment_ms)) => TimeControl::Fischer { base_ms, increment_ms },
            (Some(base_ms), None) => TimeControl::SuddenDeath { base_ms },
            (None, _) => TimeControl::None,
        },
        opening: Default::default(),
    }
}

fn run_match(args: &Args) -> Result<(), ArenaError> {
    let reversi = args.game == GameArg::Reversi;
    if !reversi && !(MIN_SIZE..=gomoku::MAX_SIZE).contains(&args.size) {
        return Err(ArenaError::Size(args.size));
    }
    let game = game_kind(args).name();
    let first = Contestant::parse(game, &args.black)?;
    let second = Contestant::parse(game, &args.white)?;
    session_config(args, &first, &second).validate()?;
    let test = match args.sprt {
        Some((elo0, elo1)) => Some(sprt::Sprt::new(elo0, elo1, args.alpha, args.beta)?),
        None => None,
    };
    let games = args.games.unwrap_or(if test.is_some() { 2000 } else { 2 });
    let openings = match (&args.openings, reversi) {
        (Some(path), false) => {
            openings::parse_gomoku(&read_user_file(OPENINGS, path)?, args.size, args.rule)?
        }
        (Some(path), true) => openings::parse_reversi(&read_user_file(OPENINGS, path)?)?,
        (None, false) => openings::seeded_gomoku(args.size, args.rule, args.seed),
        (None, true) => openings::seeded_reversi(args.seed),
    };
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|source| ArenaError::Write {
            path: format!("the folder {}", dir.display()),
            source,
        })?;
    }
    // Fail early (before any game) when a level is missing from this build or an engine
    // does not answer (a brain ABOUT, an NBoard engine ping).
    let external = |path: &std::path::Path| {
        if reversi {
            External::nboard(NboardSettings::new(path))
        } else {
            let turn = Duration::from_millis(args.time_per_move);
            let timeout_match = Duration::from_millis(args.match_time.unwrap_or(0));
            External::gomocup(BrainSettings { timeout_match, ..BrainSettings::new(path, turn) })
        }
    };
    for contestant in [&first, &second] {
        let path = match contestant {
            Contestant::Level(level) => {
                drop(computer(*level, 0, 1)?);
                continue;
            }
            Contestant::External(path) => path,
        };
        let who = contestant.to_string();
        let about = if reversi {
            let engine = NboardEngine::start(&NboardSettings::new(path))
                .map_err(|source| ArenaError::Nboard { who, source })?;
            format!("NBoard engine {:?}", engine.name().unwrap_or("(no name)"))
        } else {
            let brain = Brain::start(&BrainSettings::new(path, Duration::ZERO))
                .map_err(|source| ArenaError::Brain { who, source })?;
            brain.about().to_string()
        };
        outln!("{}: {about}", contestant.name()).map_err(ArenaError::Output)?;
    }
    let board = if reversi {
        "8x8".to_string()
    } else {
        format!("{} {}x{}", args.rule.name(), args.size, args.size)
    };
    let clock = match (args.match_time, args.increment) {
        (Some(ms), Some(inc)) => format!(" and {ms} ms a game each, plus {inc} ms a move"),
        (Some(ms), None) => format!(" and {ms} ms a game each"),
        (None, _) => String::new(),
    };
    outln!(
        "arena: {} vs {}, {}, {} games, {} ms per move{}, {} openings",
        first,
        second,
        board,
        games,
        args.time_per_move,
        clock,
        openings.len()
    )
    .map_err(ArenaError::Output)?;
    let time = Duration::from_millis(args.time_per_move);
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
        let (b_threads, w_threads) =
            (args.threads_of(first_is_black), args.threads_of(!first_is_black));
        let mut b = player(b_level, game_seed(args.seed, i, 0), b_threads, &external)?;
        let mut w = player(w_level, game_seed(args.seed, i, 1), w_threads, &external)?;
        let config = session_config(args, b_level, w_level);
        let done = play::play(config, opening, [&mut *b, &mut *w], time)?;
        max_ms = max_ms.max(done.max_ms);
        total_moves += done.placed();
        let first_color = if first_is_black { Color::Black } else { Color::White };
        let (verdict, points) = match done.winner() {
            Some(c) if c == first_color => {
                tally.wins += 1;
                (format!("{} wins ({})", first, done.reason()), 1.0)
            }
            Some(_) => {
                tally.losses += 1;
                (format!("{} wins ({})", second, done.reason()), 0.0)
            }
            None => {
                tally.draws += 1;
                (format!("draw ({})", done.reason()), 0.5)
            }
        };
        if !args.quiet {
            outln!(
                "game {:>3}: black {:<10} white {:<10} {:>3} moves  {}   [{}]",
                i + 1,
                b_level.name(),
                w_level.name(),
                done.placed(),
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
            let mut text = done.game.to_record();
            if !text.ends_with('\n') {
                text.push('\n');
            }
            let name = format!("game-{:03}.{}", i + 1, done.game.record_extension());
            write_record(&dir.join(name), &text)?;
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

/// A player for `contestant`: a fresh engine, or an external engine that starts with its
/// first move.
fn player(
    contestant: &Contestant,
    seed: u64,
    threads: usize,
    external: &dyn Fn(&std::path::Path) -> External,
) -> Result<Box<dyn Player>, ArenaError> {
    match contestant {
        Contestant::Level(level) => Ok(Box::new(computer(*level, seed, threads)?)),
        Contestant::External(path) => Ok(Box::new(external(path))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// `tengen arena LINE`'s arguments, parsed as the program parses them.
    fn args(line: &[&str]) -> Args {
        let cli = crate::Cli::try_parse_from([&["tengen", "arena"], line].concat()).unwrap();
        let crate::Command::Arena(args) = cli.command else { unreachable!("an arena line") };
        args
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

    #[test]
    fn the_session_gets_the_players_and_a_time_in_its_range() {
        let a =
            args(&["--black", "master", "--white", "ext:/b", "--rule", "renju", "--size", "19"]);
        let (black, white) = (
            Contestant::parse("gomoku", "master").unwrap(),
            Contestant::parse("gomoku", "ext:/b").unwrap(),
        );
        let config = session_config(&a, &black, &white);
        assert_eq!(config.kind, GameKind::Gomoku { rule: Rule::Renju, size: 19 });
        assert_eq!((config.black, config.white), (black.kind(), white.kind()));
        assert_eq!(config.time_per_move_ms, 200);
        assert!(config.validate().is_ok());
        for (ms, kept) in [("30", MIN_TIME_PER_MOVE_MS), ("9999999", MAX_TIME_PER_MOVE_MS)] {
            let a =
                args(&["--game", "reversi", "--black", "a", "--white", "b", "--time-per-move", ms]);
            let config = session_config(&a, &black, &white);
            assert_eq!((config.kind, config.time_per_move_ms), (GameKind::Reversi, kept));
        }
        // No game clock unless asked for; --match-time is each side's time for the game.
        assert_eq!(config.time_control, TimeControl::None);
        let a = args(&["--black", "master", "--white", "ext:/b", "--match-time", "60000"]);
        let config = session_config(&a, &black, &white);
        assert_eq!(config.time_control, TimeControl::SuddenDeath { base_ms: 60_000 });
        // --increment makes it a Fischer clock; alone it is refused.
        let a = args(&[
            "--black",
            "master",
            "--white",
            "b",
            "--match-time",
            "60000",
            "--increment",
            "500",
        ]);
        let config = session_config(&a, &black, &white);
        let fischer = TimeControl::Fischer { base_ms: 60_000, increment_ms: 500 };
        assert_eq!(config.time_control, fischer);
        let alone = ["tengen", "arena", "--black", "master", "--white", "b", "--increment", "500"];
        assert!(crate::Cli::try_parse_from(alone).is_err());
    }

    #[test]
    fn bad_settings_are_refused_before_any_game() {
        let refused = |line: &[&str]| run_match(&args(line)).unwrap_err().to_string();
        let e = refused(&["--black", "pattern", "--white", "fivetuple", "--size", "8"]);
        assert_eq!(e, "the board size 8 is not supported (use 9 to 26)");
        let e = refused(&["--black", "pattern", "--white", "greedy"]);
        assert!(e.contains("greedy"), "{e}");
        let e =
            refused(&["--game", "reversi", "--black", "ext:/nonexistent/b", "--white", "greedy"]);
        assert!(e.starts_with("the external engine ext:/nonexistent/b: cannot start"), "{e}");
        let e = refused(&["--black", "pattern", "--white", "fivetuple", "--match-time", "5000"]);
        assert!(e.contains("the base time must be from 10000 to 10800000 ms, not 5000"), "{e}");
        let e = refused(&[
            "--black",
            "pattern",
            "--white",
            "fivetuple",
            "--match-time",
            "60000",
            "--increment",
            "60001",
        ]);
        assert!(e.contains("the increment must be at most 60000 ms, not 60001"), "{e}");
    }
}
