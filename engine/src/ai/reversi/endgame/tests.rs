//! Cross-checks of the solver against a plain alpha-beta with square-by-square move
//! generation, on random endgames.

use super::bits::{bit, parity_of};
use super::probcut::CONFIDENCE;
use super::search::Search;
use super::tt::{Table, EXACT};
use super::*;
use crate::rng::Rng;

/// Flips by walking each direction square by square (independent of `bits.rs`).
fn flips_walk(p: u64, o: u64, sq: usize) -> u64 {
    crate::reversi::bitboard::flips_slow(p, o, sq as u8)
}

fn moves_walk(p: u64, o: u64) -> Vec<(usize, u64)> {
    (0..64)
        .filter(|&sq| (p | o) & (1u64 << sq) == 0)
        .map(|sq| (sq, flips_walk(p, o, sq)))
        .filter(|&(_, f)| f != 0)
        .collect()
}

/// Final score by the rules: disc difference, empties to the winner.
fn final_walk(p: u64, o: u64) -> i32 {
    let (np, no) = (p.count_ones() as i32, o.count_ones() as i32);
    let e = 64 - np - no;
    match np.cmp(&no) {
        std::cmp::Ordering::Greater => np - no + e,
        std::cmp::Ordering::Less => np - no - e,
        std::cmp::Ordering::Equal => 0,
    }
}

/// Plain fail-hard alpha-beta over every legal move, passes included.
pub(super) fn reference(p: u64, o: u64, mut alpha: i32, beta: i32) -> i32 {
    let ms = moves_walk(p, o);
    if ms.is_empty() {
        if moves_walk(o, p).is_empty() {
            return final_walk(p, o).clamp(alpha, beta);
        }
        return -reference(o, p, -beta, -alpha);
    }
    for (sq, f) in ms {
        let v = -reference(o & !f, p | f | (1u64 << sq), -beta, -alpha);
        if v >= beta {
            return beta;
        }
        alpha = alpha.max(v);
    }
    alpha
}

pub(super) fn exact(p: u64, o: u64) -> i32 {
    reference(p, o, -65, 65)
}

/// A position reached by random play from the start with exactly `empties` empty squares
/// (side to move: whoever's turn it is, possibly one that must pass).
pub(super) fn random_endgame(rng: &mut Rng, empties: u32) -> (u64, u64) {
    loop {
        let (mut p, mut o) = (bit(28) | bit(35), bit(27) | bit(36));
        loop {
            if (!(p | o)).count_ones() == empties {
                return (p, o);
            }
            let ms = moves_walk(p, o);
            if ms.is_empty() {
                if moves_walk(o, p).is_empty() {
                    break; // game over too early: start again
                }
                std::mem::swap(&mut p, &mut o);
                continue;
            }
            let (sq, f) = ms[rng.below(ms.len() as u64) as usize];
            let (np, no) = (o & !f, p | f | (1u64 << sq));
            p = np;
            o = no;
        }
    }
}

/// Fail-soft null-window contract: `v > alpha` iff the true score is above alpha, and `v` is
/// a bound on the correct side.
/// A fail-soft score of a search within (`alpha`, `beta`) of a position worth `truth`:
/// exact inside the window, a bound on the right side outside it.
fn check_window(truth: i32, alpha: i32, beta: i32, score: i32) {
    if truth <= alpha {
        assert!(score <= alpha && score >= truth, "{score} for {truth} in ({alpha}, {beta})");
    } else if truth >= beta {
        assert!(score >= beta && score <= truth, "{score} for {truth} in ({alpha}, {beta})");
    } else {
        assert_eq!(score, truth, "in ({alpha}, {beta})");
    }
}

fn check_nws(truth: i32, alpha: i32, v: i32, what: &str) {
    if truth > alpha {
        assert!(v > alpha && v <= truth, "{what}: truth {truth}, alpha {alpha}, got {v}");
    } else {
        assert!(v <= alpha && v >= truth, "{what}: truth {truth}, alpha {alpha}, got {v}");
    }
}

#[test]
fn last_four_empties_match_plain_alpha_beta() {
    let mut rng = Rng::new(1);
    let cancel = CancelFlag::new();
    let mut tt = Table::new(10);
    for empties in 0..=4u32 {
        for _ in 0..600 {
            let (p, o) = random_endgame(&mut rng, empties);
            let truth = exact(p, o);
            let parity = parity_of(!(p | o));
            let mut s = Search::new(&mut tt, &cancel);
            for alpha in [-65, -20, -3, -1, 0, 1, 2, truth - 1, truth, 30] {
                let v = s.nws(p, o, alpha, empties, parity);
                check_nws(truth, alpha, v, &format!("{empties} empties p={p:#x} o={o:#x}"));
            }
        }
    }
}

#[test]
fn shallow_and_deep_null_window_searches_match_plain_alpha_beta() {
    let mut rng = Rng::new(2);
    let cancel = CancelFlag::new();
    let mut tt = Table::new(12);
    for empties in 5..=10u32 {
        let count = if empties <= 8 { 100 } else { 20 };
        for _ in 0..count {
            let (p, o) = random_endgame(&mut rng, empties);
            let truth = exact(p, o);
            let parity = parity_of(!(p | o));
            let mut s = Search::new(&mut tt, &cancel);
            for alpha in [-65, -9, -1, 0, truth - 1, truth, truth + 1, 12] {
                let v = s.nws(p, o, alpha, empties, parity);
                check_nws(truth, alpha, v, &format!("{empties} empties p={p:#x} o={o:#x}"));
            }
        }
    }
}

#[test]
fn deep_searches_sharing_a_crowded_table_stay_exact() {
    // A 16-entry table: constant replacement, enhanced transposition cutoffs on entries
    // left by other windows and other positions, prefetches of evicted buckets.
    let mut rng = Rng::new(5);
    let cancel = CancelFlag::new();
    let mut tt = Table::new(4);
    for empties in [11u32, 12, 13] {
        for _ in 0..4 {
            let (p, o) = random_endgame(&mut rng, empties);
            let truth = exact(p, o);
            let parity = parity_of(!(p | o));
            let mut s = Search::new(&mut tt, &cancel);
            for alpha in [truth, truth - 1, -65, 0, truth + 1, truth - 2, 20] {
                let v = s.nws(p, o, alpha, empties, parity);
                check_nws(truth, alpha, v, &format!("{empties} empties p={p:#x} o={o:#x}"));
            }
        }
    }
}

#[test]
fn solver_finds_exact_scores_and_a_best_move() {
    let mut rng = Rng::new(3);
    let cancel = CancelFlag::new();
    let mut solver = Solver::with_tt_bits(14);
    for empties in [6u32, 9, 11] {
        for _ in 0..10 {
            let (p, o) = random_endgame(&mut rng, empties);
            let truth = exact(p, o);
            let r = solver.solve_bits(p, o, -64, 64, &cancel).expect("not cancelled");
            assert_eq!(r.score, truth, "p={p:#x} o={o:#x}");
            assert!(r.nodes > 0);
            let ms = moves_walk(p, o);
            match r.best {
                None => assert!(ms.is_empty()),
                Some(sq) => {
                    // The best move must reach the score.
                    let (_, f) = *ms.iter().find(|m| m.0 == sq as usize).expect("legal");
                    let sq = sq as usize;
                    assert_eq!(-exact(o & !f, p | f | (1u64 << sq)), truth);
                }
            }
            // The principal variation is legal and ends with the score.
            let (mut a, mut b) = (p, o);
            let mut sign = 1;
            for &sq in &r.pv {
                if sq == search::PASS {
                    assert!(moves_walk(a, b).is_empty());
                } else {
                    let f = flips_walk(a, b, sq as usize);
                    assert_ne!(f, 0, "illegal pv move");
                    let na = b & !f;
                    b = a | f | (1u64 << sq);
                    a = na;
                    sign = -sign;
                    continue;
                }
                std::mem::swap(&mut a, &mut b);
                sign = -sign;
            }
            assert!(
                moves_walk(a, b).is_empty() && moves_walk(b, a).is_empty(),
                "pv ends early: p={p:#x} o={o:#x} pv={:?}",
                r.pv
            );
            assert_eq!(sign * final_walk(a, b), truth);
        }
    }
}

#[test]
fn windows_give_bounds_and_cancel_stops() {
    let mut rng = Rng::new(4);
    let cancel = CancelFlag::new();
    let mut solver = Solver::with_tt_bits(12);
    for _ in 0..20 {
        let (p, o) = random_endgame(&mut rng, 10);
        let truth = exact(p, o);
        for (alpha, beta) in [(-1, 1), (truth, truth + 2), (truth - 3, truth - 1), (-64, 64)] {
            solver.clear();
            let r = solver.solve_bits(p, o, alpha, beta, &cancel).expect("not cancelled");
            check_window(truth, alpha, beta, r.score);
        }
    }
    let cancelled = CancelFlag::new();
    cancelled.cancel();
    let (p, o) = random_endgame(&mut rng, 16);
    assert_eq!(solver.solve_bits(p, o, -64, 64, &cancelled), None);
}

#[test]
fn solve_wld_agrees_with_the_sign_of_solve() {
    let mut rng = Rng::new(6);
    let cancel = CancelFlag::new();
    let mut exact_solver = Solver::with_tt_bits(14);
    let mut wld_solver = Solver::with_tt_bits(14);
    let mut seen = [false; 3];
    for _ in 0..60 {
        let (p, o) = random_endgame(&mut rng, 12);
        let pos = Position::from_player_opponent(p, o, crate::Color::Black);
        let exact = exact_solver.solve(&pos, &cancel).expect("not cancelled");
        let wld = wld_solver.solve_wld(&pos, &cancel).expect("not cancelled");
        assert_eq!(wld.score, exact.score.signum(), "p={p:#x} o={o:#x}");
        seen[(wld.score + 1) as usize] = true;
        // The WLD move keeps the result.
        if let Some(best) = wld.best {
            let mut after = pos;
            after.play(best).expect("legal");
            let reply = exact_solver.solve(&after, &cancel).expect("not cancelled");
            assert_eq!((-reply.score).signum(), wld.score);
        }
    }
    assert!(seen[0] && seen[2], "the sample should hold wins and losses");
}

#[test]
fn selective_passes_leave_the_exact_search_exact() {
    // ProbCut passes store likely bounds and moves; the exact search afterwards must use
    // only their moves (a table entry's level gates its bounds).
    let mut rng = Rng::new(8);
    let cancel = CancelFlag::new();
    let mut tt = Table::new(12);
    let mut differed = 0;
    for empties in [12u32, 13] {
        for _ in 0..6 {
            let (p, o) = random_endgame(&mut rng, empties);
            let truth = exact(p, o);
            let mut s = Search::new(&mut tt, &cancel);
            let mut pv = Vec::new();
            for level in 0..CONFIDENCE.len() as u8 {
                s.level = level;
                let guess = s.pvs(p, o, -64, 64, &mut pv);
                differed += (guess != truth) as u32;
                for alpha in [truth - 1, truth, guess - 1, guess] {
                    s.nws(p, o, alpha, empties, parity_of(!(p | o)));
                }
            }
            s.level = EXACT;
            let parity = parity_of(!(p | o));
            for alpha in [truth - 1, truth, truth + 1, truth - 3, 0] {
                let v = s.nws(p, o, alpha, empties, parity);
                check_nws(truth, alpha, v, &format!("{empties} empties p={p:#x} o={o:#x}"));
            }
            assert_eq!(s.pvs(p, o, -64, 64, &mut pv), truth, "p={p:#x} o={o:#x}");
        }
    }
    // The passes are really selective (else this test would prove nothing).
    assert!(differed > 0, "no selective pass ever missed the exact score");
}

#[test]
fn presearched_solves_match_exact_only_searches() {
    // From PRESEARCH_MIN empties `solve_bits` runs the selective passes first.
    let mut rng = Rng::new(9);
    let cancel = CancelFlag::new();
    let mut solver = Solver::with_tt_bits(16);
    for _ in 0..3 {
        let (p, o) = random_endgame(&mut rng, PRESEARCH_MIN);
        let mut tt = Table::new(16);
        let mut pv = Vec::new();
        let truth = Search::new(&mut tt, &cancel).pvs(p, o, -64, 64, &mut pv);
        solver.clear();
        let r = solver.solve_bits(p, o, -64, 64, &cancel).expect("not cancelled");
        assert_eq!(r.score, truth, "p={p:#x} o={o:#x}");
        for (alpha, beta) in [(-1, 1), (truth - 2, truth), (truth, truth + 2)] {
            let r = solver.solve_bits(p, o, alpha, beta, &cancel).expect("not cancelled");
            check_window(truth, alpha, beta, r.score);
        }
    }
}

/// Solves split among threads give what one thread gives: the exact score, bounds on the
/// right side of any window, a best move that reaches the score; and a cancel stops them.
#[test]
fn split_solves_match_one_thread() {
    let mut rng = Rng::new(11);
    let cancel = CancelFlag::new();
    let mut one = Solver::with_tt_bits(16);
    let mut split = Solver::with_tt_bits(16);
    split.set_threads(3);
    for empties in [parallel::SPLIT_MIN, PRESEARCH_MIN] {
        for _ in 0..3 {
            let (p, o) = random_endgame(&mut rng, empties);
            one.clear();
            let truth = one.solve_bits(p, o, -64, 64, &cancel).expect("not cancelled").score;
            for (alpha, beta) in [(-64, 64), (-1, 1), (truth - 2, truth), (truth, truth + 2)] {
                split.clear();
                let r = split.solve_bits(p, o, alpha, beta, &cancel).expect("not cancelled");
                check_window(truth, alpha, beta, r.score);
                if alpha < truth && truth < beta {
                    if let Some(sq) = r.best {
                        let f = flips_walk(p, o, sq as usize);
                        let (np, no) = (o & !f, p | f | bit(sq as usize));
                        let child = one.solve_bits(np, no, -64, 64, &cancel).unwrap();
                        assert_eq!(-child.score, truth, "the best move reaches the score");
                    }
                }
                assert!(r.nodes > 0);
            }
        }
    }
    let cancelled = CancelFlag::new();
    cancelled.cancel();
    let (p, o) = random_endgame(&mut rng, 20);
    assert_eq!(split.solve_bits(p, o, -64, 64, &cancelled), None);
}

/// The deeper split (the principal variation split at every node, null-window nodes from
/// `parallel::NWS_SPLIT_MIN` empties starting helpers after their eldest brother): exact
/// scores and bounds on 20–22 empties with 2 and 4 threads, a best move that reaches the
/// score, and splits below the root.
#[test]
fn deeper_splits_stay_exact() {
    let mut rng = Rng::new(23);
    let cancel = CancelFlag::new();
    let mut one = Solver::with_tt_bits(18);
    let mut splits = 0;
    let mut runs = 0;
    for empties in [20, 22] {
        let (p, o) = loop {
            let (p, o) = random_endgame(&mut rng, empties);
            if parallel::worth_splitting(p, o) {
                break (p, o);
            }
        };
        one.clear();
        let truth = one.solve_bits(p, o, -64, 64, &cancel).expect("not cancelled").score;
        let mut solver = Solver::with_tt_bits(18);
        solver.set_threads(2);
        let r = solver.solve_bits(p, o, -64, 64, &cancel).expect("not cancelled");
        assert_eq!(r.score, truth);
        assert!(solver.splits() > 0);
        for threads in [2, 4] {
            let windows =
                [(-64, 64), (truth - 1, truth + 1), (truth, truth + 3), (truth - 3, truth)];
            for (alpha, beta) in windows {
                let mut tt = Table::new(18);
                let mut pv = Vec::new();
                let r = parallel::pvs(&mut tt, &cancel, EXACT, p, o, alpha, beta, &mut pv, threads);
                assert!(!r.stopped);
                check_window(truth, alpha, beta, r.score);
                if alpha < truth && truth < beta {
                    let sq = pv[0] as usize;
                    let f = flips_walk(p, o, sq);
                    let (np, no) = (o & !f, p | f | bit(sq));
                    let child = one.solve_bits(np, no, -64, 64, &cancel).unwrap();
                    assert_eq!(-child.score, truth, "the best move reaches the score");
                }
                splits += r.splits;
                runs += 1;
            }
        }
    }
    assert!(splits > 2 * runs, "{splits} splits in {runs} searches: the split goes deeper");
}

/// A cancel stops a split solve on any number of threads soon: the engine's promise is
/// 50 ms (the assertion leaves room for a loaded machine; the time is printed).
#[test]
fn split_solves_stop_soon_after_a_cancel() {
    use std::time::{Duration, Instant};
    let mut rng = Rng::new(5);
    let (p, o) = loop {
        let (p, o) = random_endgame(&mut rng, 26);
        if parallel::worth_splitting(p, o) {
            break (p, o);
        }
    };
    for threads in [2, 3, 4] {
        let mut solver = Solver::with_tt_bits(18);
        solver.set_threads(threads);
        let cancel = CancelFlag::new();
        let raise = cancel.clone();
        let raiser = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            raise.cancel();
            Instant::now()
        });
        let r = solver.solve_bits(p, o, -64, 64, &cancel);
        let done = Instant::now();
        let raised = raiser.join().unwrap();
        assert_eq!(r, None, "{threads} threads: cancelled");
        let late = done.saturating_duration_since(raised);
        eprintln!("{threads} threads: stopped {late:?} after the cancel");
        assert!(late < Duration::from_millis(500), "{threads} threads: {late:?} after the cancel");
    }
}

/// A helper thread that panics stops the solve (reported as stopped), without a hang.
#[test]
fn a_panicking_helper_stops_the_split_solve() {
    let mut rng = Rng::new(8);
    let cancel = CancelFlag::new();
    let (p, o) = loop {
        let (p, o) = random_endgame(&mut rng, 20);
        if parallel::worth_splitting(p, o) {
            break (p, o);
        }
    };
    let mut tt = Table::new(16);
    let mut pv = Vec::new();
    let r =
        parallel::pvs_with_panicking_helpers(&mut tt, &cancel, EXACT, p, o, -64, 64, &mut pv, 2);
    assert!(r.splits > 0);
    assert!(r.stopped, "a helper's panic stops the search");
}
