//! The sequential probability ratio test over game pairs (the pentanomial model).
//!
//! The arena plays each opening twice, once with each colour, so the two games of a pair are
//! not independent. As fishtest does, the test counts pairs by the first engine's points in
//! the pair (0, 1/2, 1, 3/2, 2: the five "pentanomial" outcomes), and treats the pair score
//! (halved, so it lies in 0..1) as the sample. Elo is logistic (the usual Elo: a score `s`
//! means `-400 log10(1/s - 1)`), as in cutechess-cli; fishtest's newer normalized Elo is not
//! used.
//!
//! The log-likelihood ratio is the GSPRT approximation of Van den Bergh ("A generalized SPRT
//! approximation", fishtest's `LLR_alt2`): for N pairs with scores `x_j`,
//! `LLR = N/2 ln(r0 / r1)` where `r_i` is the mean of `(x_j - s_i)^2` and `s0`, `s1` are the
//! expected scores at elo0 and elo1. Each of the five counts gets a prior of a quarter pair
//! first ([`PRIOR`]). Without one, a run of pairs that all scored exactly s0 (every pair 1-1
//! at elo0 0) makes `r0` zero and the LLR infinite after a single pair. Fishtest floors the
//! counts at 1e-3 instead; that was not enough here: under Renju, where black wins most games,
//! the first six pairs of a run all split 1-1, and with the floor their variance was almost
//! nil and their LLR −3.29, accepting H0 after 12 games. With the prior those six pairs give
//! −0.03; over hundreds of pairs it moves the LLR by under 1%. (The first-order form
//! `N (s1 - s0) (2 mu - s0 - s1) / (2 var)` is not used: it divides by the variance alone,
//! and a single 2-0 pair would accept H1 at elo0 0, elo1 10.) The test stops when the LLR
//! leaves `[ln(beta/(1-alpha)), ln((1-beta)/alpha)]`.

use super::elo::{elo_of, format_elo, Tally};

/// The pseudo-count added to each of the five pair counts before the LLR (module notes).
pub const PRIOR: f64 = 0.25;

/// The expected score at a logistic Elo difference.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Counts of game pairs by the first engine's points in the pair: index `k` is `k/2` points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Records one pair from the first engine's points in each game (0, 0.5 or 1).
    pub fn add(&mut self, first: f64, second: f64) {
        let k = ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[k] += 1;
    }

    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// The number of pairs and the mean and variance of the pair score, scaled to 0..1,
    /// with `prior` added to each count.
    fn stats(&self, prior: f64) -> (f64, f64, f64) {
        let counts = self.0.map(|c| f64::from(c) + prior);
        let n: f64 = counts.iter().sum();
        let value = |k: usize| k as f64 / 4.0;
        let mean = counts.iter().enumerate().map(|(k, c)| c * value(k)).sum::<f64>() / n;
        let var =
            counts.iter().enumerate().map(|(k, c)| c * (value(k) - mean).powi(2)).sum::<f64>() / n;
        (n, mean, var)
    }

    /// The log-likelihood ratio of elo1 against elo0 (see the module notes).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        let (n, mean, var) = self.stats(PRIOR);
        // The mean square deviation from s is the variance plus the squared bias; the prior
        // keeps the variance above zero.
        let r = |s: f64| var + (mean - s).powi(2);
        n / 2.0 * (r(score_of(elo0)) / r(score_of(elo1))).ln()
    }

    /// The Elo difference of the first engine and the half-width of its 95% confidence
    /// interval, from the mean and variance of the pair scores. The margin is infinite when
    /// the interval reaches a 0% or 100% score or there is no pair yet.
    pub fn elo(&self) -> (f64, f64) {
        if self.pairs() == 0 {
            return (0.0, f64::INFINITY);
        }
        let (n, mean, var) = self.stats(0.0);
        let se = (var / n).sqrt();
        let lo = elo_of(mean - 1.96 * se);
        let hi = elo_of(mean + 1.96 * se);
        (elo_of(mean), (hi - lo) / 2.0)
    }
}

/// The test's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The LLR crossed the upper bound: the first engine is at least elo1 stronger.
    H1,
    /// The LLR crossed the lower bound: it is at most elo0 stronger.
    H0,
    Undecided,
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Verdict::H1 => "H1 accepted",
            Verdict::H0 => "H0 accepted",
            Verdict::Undecided => "undecided",
        })
    }
}

/// Why `--sprt`, `--alpha` or `--beta` cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SprtError {
    #[error("--sprt needs two Elo bounds \"elo0,elo1\" with elo0 < elo1, not \"{0}\"")]
    Bounds(String),
    #[error("--alpha and --beta must lie strictly between 0 and 0.5")]
    Rates,
}

/// Parses "elo0,elo1".
pub fn parse_bounds(text: &str) -> Result<(f64, f64), SprtError> {
    let bad = || SprtError::Bounds(text.to_string());
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let elo0: f64 = a.trim().parse().map_err(|_| bad())?;
    let elo1: f64 = b.trim().parse().map_err(|_| bad())?;
    if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
        return Err(bad());
    }
    Ok((elo0, elo1))
}

impl Sprt {
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        let ok = |r: f64| r > 0.0 && r < 0.5;
        if !(ok(alpha) && ok(beta)) {
            return Err(SprtError::Rates);
        }
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError::Bounds(format!("{elo0},{elo1}")));
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// The LLR bounds: accept H0 at or below the first, H1 at or above the second.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Undecided
        }
    }

    /// One status line: the LLR and its bounds, the games' W/L/D, the pairs by points (0,
    /// 1/2, 1, 3/2, 2), the Elo estimate with its 95% error, and the verdict.
    pub fn status(&self, penta: &Pentanomial, tally: &Tally) -> String {
        let llr = penta.llr(self.elo0, self.elo1);
        let (lower, upper) = self.bounds();
        let [ll, ld, dd, wd, ww] = penta.0;
        let (elo, margin) = penta.elo();
        format!(
            "LLR {llr:.2} [{lower:.2}, {upper:.2}] (elo0 {}, elo1 {})  +{} -{} ={}  pairs {ll}-{ld}-{dd}-{wd}-{ww}  Elo {}  {}",
            self.elo0,
            self.elo1,
            tally.wins,
            tally.losses,
            tally.draws,
            format_elo(elo, margin),
            self.verdict(llr)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Reference values computed once, independently of this code, with python3:
    //
    //   import math
    //   def llr(c, e0, e1):
    //       c = [x + 0.25 for x in c]; n = sum(c); v = [k / 4 for k in range(5)]
    //       L = lambda e: 1 / (1 + 10 ** (-e / 400))
    //       r0, r1 = [sum(ci * (vi - s) ** 2 for ci, vi in zip(c, v)) / n
    //                 for s in (L(e0), L(e1))]
    //       return n / 2 * math.log(r0 / r1)
    //   llr([10, 40, 100, 60, 20], 0, 10)  -> 2.0118853227
    //   llr([30, 60, 100, 40, 10], 0, 10)  -> -3.4895887911
    //   llr([0, 3, 10, 5, 2], 0, 5)        -> 0.1899294067
    //   llr([0, 0, 1, 0, 5], 0, 10)        -> 0.1862712444
    //   llr([0, 0, 0, 0, 100], 0, 10)      -> 2.9366862478
    //   llr([0, 0, 0, 0, 101], 0, 10)      -> 2.9658838601
    //   llr([0, 0, 1, 0, 0], 0, 10)        -> -0.0033482677
    //   llr([0, 0, 6, 0, 0], 0, 10)        -> -0.0346497679
    //   llr([0, 0, 200, 0, 0], 0, 10)      -> -23.7816817748
    //   math.log(0.05 / 0.95), math.log(0.95 / 0.05) -> -2.9444389792, 2.9444389792
    #[test]
    fn llr_matches_an_independent_computation() {
        let cases: [([u32; 5], f64, f64, f64); 9] = [
            ([10, 40, 100, 60, 20], 0.0, 10.0, 2.0118853227),
            ([30, 60, 100, 40, 10], 0.0, 10.0, -3.4895887911),
            ([0, 3, 10, 5, 2], 0.0, 5.0, 0.1899294067),
            ([0, 0, 1, 0, 5], 0.0, 10.0, 0.1862712444),
            ([0, 0, 0, 0, 100], 0.0, 10.0, 2.9366862478),
            ([0, 0, 0, 0, 101], 0.0, 10.0, 2.9658838601),
            ([0, 0, 1, 0, 0], 0.0, 10.0, -0.0033482677),
            ([0, 0, 6, 0, 0], 0.0, 10.0, -0.0346497679),
            ([0, 0, 200, 0, 0], 0.0, 10.0, -23.7816817748),
        ];
        for (counts, e0, e1, want) in cases {
            let got = Pentanomial(counts).llr(e0, e1);
            assert!((got - want).abs() < 1e-6, "{counts:?}: {got} != {want}");
        }
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let (lo, hi) = s.bounds();
        assert!((lo + 2.9444389792).abs() < 1e-9 && (hi - 2.9444389792).abs() < 1e-9);
    }

    #[test]
    fn verdicts_follow_the_bounds() {
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        assert_eq!(s.verdict(0.0), Verdict::Undecided);
        assert_eq!(s.verdict(2.95), Verdict::H1);
        assert_eq!(s.verdict(-2.95), Verdict::H0);
        assert_eq!(s.verdict(Pentanomial([30, 60, 100, 40, 10]).llr(0.0, 10.0)), Verdict::H0);
        assert_eq!(Pentanomial::default().llr(0.0, 10.0), 0.0);
        // Winning every pair: the LLR grows slowly and H1 is accepted in the end
        // (after 101 pairs at 0,10), never after one pair.
        assert_eq!(s.verdict(Pentanomial([0, 0, 0, 0, 1]).llr(0.0, 10.0)), Verdict::Undecided);
        assert_eq!(s.verdict(Pentanomial([0, 0, 0, 0, 101]).llr(0.0, 10.0)), Verdict::H1);
        // Pairs that all score exactly s0 (1-1 at elo0 0) decide nothing at once (an LLR of
        // -inf after one pair without the prior, -3.29 after six with fishtest's floor), but
        // do in the end.
        assert_eq!(s.verdict(Pentanomial([0, 0, 1, 0, 0]).llr(0.0, 10.0)), Verdict::Undecided);
        assert_eq!(s.verdict(Pentanomial([0, 0, 6, 0, 0]).llr(0.0, 10.0)), Verdict::Undecided);
        assert_eq!(s.verdict(Pentanomial([0, 0, 200, 0, 0]).llr(0.0, 10.0)), Verdict::H0);
        let tally = Tally { wins: 22, losses: 8, draws: 0 };
        let line = s.status(&Pentanomial([1, 2, 3, 4, 5]), &tally);
        assert!(line.contains("pairs 1-2-3-4-5") && line.contains("+22 -8 =0"), "{line}");
    }

    #[test]
    fn pairs_are_counted_by_points() {
        let mut p = Pentanomial::default();
        p.add(1.0, 1.0);
        p.add(1.0, 0.0);
        p.add(0.5, 0.5);
        p.add(0.0, 0.5);
        assert_eq!(p.0, [0, 1, 2, 0, 1]);
        assert_eq!(p.pairs(), 4);
    }

    #[test]
    fn elo_estimate_of_an_even_and_a_winning_match() {
        let (elo, margin) = Pentanomial([5, 10, 20, 10, 5]).elo();
        assert!(elo.abs() < 1e-6 && margin > 0.0 && margin.is_finite());
        // Mean pair score 0.75 is +190.8 Elo (the logistic curve).
        let (elo, _) = Pentanomial([0, 0, 10, 0, 10]).elo();
        assert!((elo - 190.85).abs() < 0.1, "{elo}");
        assert!((score_of(190.848) - 0.75).abs() < 1e-4);
        let (elo, margin) = Pentanomial([0, 0, 0, 0, 3]).elo();
        assert_eq!((elo, format_elo(elo, margin).as_str()), (f64::INFINITY, "+inf"));
    }

    #[test]
    fn bad_parameters_are_refused() {
        assert_eq!(parse_bounds("0,10"), Ok((0.0, 10.0)));
        assert_eq!(parse_bounds(" -5 , 5 "), Ok((-5.0, 5.0)));
        for bad in ["10,0", "5", "a,b", "0,inf", "3,3"] {
            assert!(parse_bounds(bad).is_err(), "{bad}");
        }
        assert_eq!(Sprt::new(0.0, 10.0, 0.0, 0.05), Err(SprtError::Rates));
        assert_eq!(Sprt::new(0.0, 10.0, 0.05, 0.7), Err(SprtError::Rates));
    }
}
