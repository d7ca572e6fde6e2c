//! Match statistics: score, Elo difference and its 95% error margin.

/// Wins, losses and draws of the first engine of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// The score as a fraction: a win is 1, a draw 1/2.
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games() as f64
    }

    /// The Elo difference implied by the score, and the half-width of its 95% confidence
    /// interval (from the standard error of the per-game score). Infinite when the score is
    /// 0% or 100%.
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games() as f64;
        let p = self.score();
        if n == 0.0 {
            return (0.0, f64::INFINITY);
        }
        let var = (self.wins as f64 * (1.0 - p).powi(2)
            + self.losses as f64 * p.powi(2)
            + self.draws as f64 * (0.5 - p).powi(2))
            / n;
        let margin = 1.96 * (var / n).sqrt();
        let elo = elo_of(p);
        let lo = elo_of(p - margin);
        let hi = elo_of(p + margin);
        (elo, (hi - lo) / 2.0)
    }
}

/// The Elo difference for an expected score `p`.
pub fn elo_of(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// "+123 ± 45", "+inf", "-inf".
pub fn format_elo(elo: f64, margin: f64) -> String {
    let num = |v: f64| {
        if v.is_infinite() {
            if v > 0.0 {
                "+inf".to_string()
            } else {
                "-inf".to_string()
            }
        } else {
            format!("{v:+.0}")
        }
    };
    if elo.is_infinite() || margin.is_infinite() || margin.is_nan() {
        num(elo)
    } else {
        format!("{} ± {:.0}", num(elo), margin)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_score_is_zero_elo() {
        let t = Tally { wins: 10, losses: 10, draws: 0 };
        let (elo, margin) = t.elo();
        assert!(elo.abs() < 1e-9);
        assert!(margin > 100.0 && margin < 200.0, "{margin}");
    }

    #[test]
    fn seventy_five_percent_is_about_191_elo() {
        let t = Tally { wins: 30, losses: 10, draws: 0 };
        assert!((t.score() - 0.75).abs() < 1e-12);
        let (elo, _) = t.elo();
        assert!((elo - 190.8).abs() < 0.5, "{elo}");
        let d = Tally { wins: 0, losses: 0, draws: 4 };
        assert_eq!(d.score(), 0.5);
    }

    #[test]
    fn perfect_scores_are_infinite() {
        let t = Tally { wins: 40, losses: 0, draws: 0 };
        assert_eq!(t.elo().0, f64::INFINITY);
        assert_eq!(format_elo(t.elo().0, t.elo().1), "+inf");
        assert_eq!(format_elo(100.4, 20.2), "+100 ± 20");
    }
}
