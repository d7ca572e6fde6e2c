//! The three rule sets.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::GomokuError;
use crate::Color;

/// Which runs win, and whether black has forbidden moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// Five or more in a row wins, for both sides.
    Freestyle,
    /// Exactly five wins; six or more wins for neither side.
    Standard,
    /// White wins with five or more, black only with exactly five; black's overline,
    /// double-four and double-three are forbidden.
    Renju,
}

impl Rule {
    /// Every rule, in the order of the list above.
    pub const ALL: [Rule; 3] = [Rule::Freestyle, Rule::Standard, Rule::Renju];

    /// The lowercase name used by the CLI and the save format.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
        }
    }

    /// Whether a run of `len` stones of `color` wins under this rule.
    #[inline]
    pub const fn run_wins(self, color: Color, len: u32) -> bool {
        match (self, color) {
            (Rule::Freestyle, _) | (Rule::Renju, Color::White) => len >= 5,
            (Rule::Standard, _) | (Rule::Renju, Color::Black) => len == 5,
        }
    }

    /// Whether a run of six or more wins for `color` (freestyle; white under Renju).
    #[inline]
    pub const fn overline_wins(self, color: Color) -> bool {
        self.run_wins(color, 6)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rule {
    type Err = GomokuError;

    /// Parses a rule name, ignoring case and surrounding spaces.
    fn from_str(s: &str) -> Result<Rule, GomokuError> {
        let t = s.trim();
        Rule::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(t))
            .ok_or_else(|| GomokuError::UnknownRule(t.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for r in Rule::ALL {
            assert_eq!(r.name().parse::<Rule>(), Ok(r));
            assert_eq!(r.name().to_uppercase().parse::<Rule>(), Ok(r));
            assert_eq!(serde_json::to_string(&r).unwrap(), format!("\"{}\"", r.name()));
        }
        assert!("gomoku".parse::<Rule>().is_err());
    }

    #[test]
    fn which_runs_win() {
        use Color::*;
        assert!(Rule::Freestyle.run_wins(Black, 6));
        assert!(!Rule::Freestyle.run_wins(White, 4));
        assert!(Rule::Standard.run_wins(White, 5));
        assert!(!Rule::Standard.run_wins(White, 6));
        assert!(Rule::Renju.run_wins(White, 6));
        assert!(!Rule::Renju.run_wins(Black, 6));
        assert!(Rule::Renju.run_wins(Black, 5));
        assert!(Rule::Renju.overline_wins(White) && !Rule::Renju.overline_wins(Black));
        assert!(Rule::Freestyle.overline_wins(Black) && !Rule::Standard.overline_wins(White));
    }
}
