//! Opening rules: who places the first stones and who then plays which colour.
//!
//! The stones always alternate black, white, black, ... and stay ordinary moves of the game
//! tree; an opening rule only says which PLAYER (the first or the second, as the game's
//! settings name them: `black` is the first player, `white` the second, until a choice of
//! colours) acts at each step, what the step is, and which colour each player has after the
//! choices. [`Opening`] keeps the rule and the choices made; [`Opening::phase`] replays them
//! over the stones of a line and says what comes next.
//!
//! * **Swap** (swap1): the first player places three stones (black, white, black); the second
//!   chooses a colour.
//! * **Swap2** (Gomocup's rule, the world championships' for Gomoku): the first player places
//!   three stones; the second chooses a colour or places two more (white, black) and lets the
//!   first choose.
//! * **Soosõrv-8** (Renju; the RIF's rule for its World Championships since 2017 — RIF
//!   General Assembly 2015 — and the one of the Team World Championship 2018 and the World
//!   Renju Open 2022): the first player places one of the 26 openings (the centre, then
//!   within the central 3x3, then within the central 5x5); the second may swap; the white
//!   player places the 4th stone anywhere and declares how many 5th moves black will offer
//!   (1 to 8); the black player may swap; the black player offers that many 5th moves, no two
//!   symmetric, none forbidden; the white player picks one of them and plays the 6th move.
//!   Chosen over Taraguchi-10 because it is the current World Championship rule and every
//!   one of the 26 openings stays playable.

pub mod computer;
mod names;

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use names::{opening_name, transform, RenjuOpening};

use crate::gomoku::{self, ForbiddenKind, GomokuError};
use crate::{Color, Point};

/// Soosõrv-8: the most 5th moves the white player may ask black to offer.
pub const MAX_OFFERS: u8 = 8;

/// The opening rule of a Gomoku game. Serialised as `none`, `swap`, `swap2` or `soosorv8`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpeningRule {
    /// Black plays first from an empty board, anywhere.
    #[default]
    None,
    Swap,
    Swap2,
    /// Soosõrv-8, for Renju.
    Soosorv8,
}

impl OpeningRule {
    pub const ALL: [OpeningRule; 4] =
        [OpeningRule::None, OpeningRule::Swap, OpeningRule::Swap2, OpeningRule::Soosorv8];

    /// The rule's stable code, as the save format spells it.
    pub const fn code(self) -> &'static str {
        match self {
            OpeningRule::None => "none",
            OpeningRule::Swap => "swap",
            OpeningRule::Swap2 => "swap2",
            OpeningRule::Soosorv8 => "soosorv8",
        }
    }

    pub fn is_none(&self) -> bool {
        *self == OpeningRule::None
    }

    /// Whether the rule belongs to Renju (and needs a board with a centre).
    pub const fn needs_renju(self) -> bool {
        matches!(self, OpeningRule::Soosorv8)
    }
}

/// The two players of an opening: the first is the game's `black` player until a choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    First,
    Second,
}

/// What the player who acts does now. Serialised with a `kind` tag
/// (`{"kind":"place","color":"black","within":1}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// Place the next stone (its colour is the board's next), within `within` lines of the
    /// centre (0: on the centre) when the rule restricts it.
    Place { color: Color, within: Option<u8> },
    /// Choose the colour to play.
    ChooseColor,
    /// Swap2: choose a colour, or place two more stones.
    ChooseColorOrPlaceTwo,
    /// Soosõrv: declare how many 5th moves black offers, from 1 to `max`.
    Declare { max: u8 },
    /// Soosõrv: offer a 5th move (`made` of `of` offered so far).
    Offer { made: u8, of: u8 },
    /// Soosõrv: pick one of the offered 5th moves; it is played.
    Pick,
}

/// Who acts now, and what they do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    pub role: Role,
    pub action: Action,
}

/// A decision of the opening (the stones are moves of the game). Serialised with a `kind`
/// tag: `{"kind":"take","color":"white"}`, `{"kind":"place_two"}`,
/// `{"kind":"declare","count":3}`, `{"kind":"offer","point":{"x":7,"y":5}}`,
/// `{"kind":"pick","point":{...}}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Choice {
    /// The player who chooses plays `color` from now on.
    Take {
        color: Color,
    },
    PlaceTwo,
    Declare {
        count: u8,
    },
    Offer {
        point: Point,
    },
    Pick {
        point: Point,
    },
}

/// Why an opening step was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum OpeningError {
    #[error("the opening is over")]
    Over,
    #[error("a stone is placed now, not a choice")]
    StoneExpected,
    #[error("a choice is made now, not a stone")]
    ChoiceExpected,
    #[error("this choice is not the one asked for now")]
    WrongChoice,
    #[error("this stone must stand within {within} lines of the centre")]
    OutsideArea { within: u8 },
    #[error("the number of 5th moves must be from 1 to {max}, not {count}")]
    BadCount { count: u8, max: u8 },
    #[error("that point is off the board or taken")]
    Taken,
    #[error("that point is forbidden to black ({0})")]
    Forbidden(ForbiddenKind),
    #[error("that 5th move is already offered")]
    AlreadyOffered,
    #[error("that 5th move is symmetric to one already offered")]
    Symmetric,
    #[error("that point is not one of the offered 5th moves")]
    NotOffered,
    #[error("the stones do not fit the opening's choices")]
    BadStones,
}

impl OpeningError {
    /// The stable snake_case code the UI puts in words.
    pub const fn code(self) -> &'static str {
        match self {
            OpeningError::Over => "opening_over",
            OpeningError::StoneExpected => "opening_stone_expected",
            OpeningError::ChoiceExpected => "opening_choice_expected",
            OpeningError::WrongChoice => "opening_wrong_choice",
            OpeningError::OutsideArea { .. } => "opening_outside_area",
            OpeningError::BadCount { .. } => "opening_bad_count",
            OpeningError::Taken => "opening_taken",
            OpeningError::Forbidden(_) => "opening_forbidden",
            OpeningError::AlreadyOffered => "opening_already_offered",
            OpeningError::Symmetric => "opening_symmetric",
            OpeningError::NotOffered => "opening_not_offered",
            OpeningError::BadStones => "opening_bad_stones",
        }
    }
}

/// Where an opening stands after some stones: the step now (`None`: the opening is over, or
/// was left — a line went on without a choice it needed), the first player's colour, and
/// Soosõrv's declared count and offers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Phase {
    pub step: Option<Step>,
    /// The colour the first player (the game's `black` player) plays.
    pub first: Color,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared: Option<u8>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub offers: Vec<Point>,
}

impl Phase {
    /// The colour a role plays (so far).
    pub fn color_of(&self, role: Role) -> Color {
        match role {
            Role::First => self.first,
            Role::Second => self.first.opponent(),
        }
    }

    /// The role that plays a colour (so far).
    pub fn role_of(&self, color: Color) -> Role {
        if color == self.first {
            Role::First
        } else {
            Role::Second
        }
    }
}

/// The rule and the choices made, each with the number of stones on the line when it was
/// made (a pick counts its own stone).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    rule: OpeningRule,
    made: Vec<(usize, Choice)>,
}

/// The walk of [`Opening::phase`]: what the choices so far decided.
struct Walk {
    took: u8,
    place_two: bool,
    phase: Phase,
    picked: bool,
}

impl Walk {
    fn role_of(&self, color: Color) -> Role {
        self.phase.role_of(color)
    }

    /// The rule's next step after `s` stones.
    fn script(&self, rule: OpeningRule, s: usize) -> Option<Step> {
        use Action::*;
        let step = |role, action| Some(Step { role, action });
        let place = |role, within| {
            let color = if s.is_multiple_of(2) { Color::Black } else { Color::White };
            step(role, Place { color, within })
        };
        match rule {
            OpeningRule::None => None,
            _ if s < 3 => {
                let within = rule.needs_renju().then_some(s as u8);
                place(Role::First, within)
            }
            OpeningRule::Swap if self.took == 0 => step(Role::Second, ChooseColor),
            OpeningRule::Swap => None,
            OpeningRule::Swap2 if self.took == 0 && !self.place_two => {
                step(Role::Second, ChooseColorOrPlaceTwo)
            }
            OpeningRule::Swap2 if self.place_two && s < 5 => place(Role::Second, None),
            OpeningRule::Swap2 if self.place_two && self.took == 0 => {
                step(Role::First, ChooseColor)
            }
            OpeningRule::Swap2 => None,
            OpeningRule::Soosorv8 => {
                let (white, black) = (self.role_of(Color::White), self.role_of(Color::Black));
                let offered = self.phase.offers.len() as u8;
                match self.phase.declared {
                    _ if self.took == 0 => step(Role::Second, ChooseColor),
                    _ if s < 4 => place(white, None),
                    None => step(white, Declare { max: MAX_OFFERS }),
                    Some(_) if self.took == 1 => step(black, ChooseColor),
                    Some(of) if offered < of => step(black, Offer { made: offered, of }),
                    Some(_) if !self.picked => step(white, Pick),
                    Some(_) => None,
                }
            }
        }
    }

    fn apply(&mut self, role: Role, choice: Choice) {
        match choice {
            Choice::Take { color } => {
                self.took += 1;
                self.phase.first = match role {
                    Role::First => color,
                    Role::Second => color.opponent(),
                };
            }
            Choice::PlaceTwo => self.place_two = true,
            Choice::Declare { count } => self.phase.declared = Some(count),
            Choice::Offer { point } => self.phase.offers.push(point),
            Choice::Pick { .. } => self.picked = true,
        }
    }
}

impl Opening {
    pub fn new(rule: OpeningRule) -> Opening {
        Opening { rule, made: Vec::new() }
    }

    pub fn rule(&self) -> OpeningRule {
        self.rule
    }

    /// The choices made, in order.
    pub fn choices(&self) -> Vec<Choice> {
        self.made.iter().map(|&(_, c)| c).collect()
    }

    /// Where the opening stands after `stones`, the stones of a line from the start, with
    /// how many choices it used and how many of the stones it placed.
    fn walk(&self, stones: &[Point]) -> (Phase, usize, usize) {
        let mut w = Walk {
            took: 0,
            place_two: false,
            picked: false,
            phase: Phase { step: None, first: Color::Black, declared: None, offers: Vec::new() },
        };
        let (mut s, mut used) = (0, 0);
        loop {
            let Some(step) = w.script(self.rule, s) else { return (w.phase, used, s) };
            if let Action::Place { .. } = step.action {
                if s < stones.len() {
                    s += 1;
                    continue;
                }
                w.phase.step = Some(step);
                return (w.phase, used, s);
            }
            let pick = step.action == Action::Pick;
            match self.made.get(used) {
                Some(&(at, choice)) if at == s + pick as usize && at <= stones.len() => {
                    if let Choice::Pick { point } = choice {
                        if stones[s] != point {
                            return (w.phase, used, s);
                        }
                        s += 1;
                    }
                    w.apply(step.role, choice);
                    used += 1;
                }
                // The line went on without the choice: the opening was left.
                _ if s < stones.len() => return (w.phase, used, s),
                _ => {
                    w.phase.step = Some(step);
                    return (w.phase, used, s);
                }
            }
        }
    }

    /// Where the opening stands after `stones` (the stones of the line shown, from the
    /// start).
    pub fn phase(&self, stones: &[Point]) -> Phase {
        self.walk(stones).0
    }

    /// How many of `stones` (a line from the start) the opening placed: they are placed off
    /// the clock (all of them while the opening goes on).
    pub fn opening_stones(&self, stones: &[Point]) -> usize {
        self.walk(stones).2
    }

    /// Whether the next stone may go on `p` after `stones`: the step is a stone (or the
    /// opening is over) and `p` lies in its area. The board's own rules (an empty point,
    /// Renju's forbidden points for every black stone) are the caller's check.
    pub fn check_stone(&self, stones: &[Point], size: u8, p: Point) -> Result<(), OpeningError> {
        let Some(step) = self.phase(stones).step else { return Ok(()) };
        let Action::Place { within, .. } = step.action else {
            return Err(OpeningError::ChoiceExpected);
        };
        match (within, names::centre(size)) {
            (Some(within), Some(c)) if c.x.abs_diff(p.x).max(c.y.abs_diff(p.y)) > within => {
                Err(OpeningError::OutsideArea { within })
            }
            _ => Ok(()),
        }
    }

    /// Checks `choice` as the step after `stones` (`position`: those stones on the board)
    /// and records it. Returns the stone to play now: a pick's.
    pub fn choose(
        &mut self,
        stones: &[Point],
        position: &gomoku::Position,
        choice: Choice,
    ) -> Result<Option<Point>, OpeningError> {
        let (phase, used, _) = self.walk(stones);
        let step = phase.step.ok_or(OpeningError::Over)?;
        match (step.action, choice) {
            (Action::Place { .. }, _) => return Err(OpeningError::StoneExpected),
            (Action::ChooseColor, Choice::Take { .. })
            | (Action::ChooseColorOrPlaceTwo, Choice::Take { .. } | Choice::PlaceTwo) => {}
            (Action::Declare { max }, Choice::Declare { count }) => {
                if !(1..=max).contains(&count) {
                    return Err(OpeningError::BadCount { count, max });
                }
            }
            (Action::Offer { .. }, Choice::Offer { point }) => {
                check_offer(position, &phase.offers, point)?;
            }
            (Action::Pick, Choice::Pick { point }) => {
                if !phase.offers.contains(&point) {
                    return Err(OpeningError::NotOffered);
                }
            }
            _ => return Err(OpeningError::WrongChoice),
        }
        self.made.truncate(used);
        let pick = match choice {
            Choice::Pick { point } => Some(point),
            _ => None,
        };
        self.made.push((stones.len() + pick.is_some() as usize, choice));
        Ok(pick)
    }

    /// Forgets the choices made after `stones` stones (a new stone there starts another
    /// line).
    pub fn forget_after(&mut self, stones: usize) {
        self.made.retain(|&(at, _)| at <= stones);
    }

    /// Checks `stones[from..]` against the steps while the steps are stones; returns where
    /// they stop.
    fn check_stones(&self, stones: &[Point], from: usize, size: u8) -> Result<usize, OpeningError> {
        let mut s = from;
        while s < stones.len() {
            match self.phase(&stones[..s]).step {
                Some(Step { action: Action::Place { .. }, .. }) => {
                    self.check_stone(&stones[..s], size, stones[s])?
                }
                _ => break,
            }
            s += 1;
        }
        Ok(s)
    }

    /// Rebuilds an opening from saved choices over the stones of a line, checking each step
    /// as [`Opening::choose`] does (an untrusted file).
    pub fn replay(
        rule: OpeningRule,
        size: u8,
        board_rule: gomoku::Rule,
        stones: &[Point],
        choices: &[Choice],
    ) -> Result<Opening, OpeningError> {
        let mut opening = Opening::new(rule);
        let mut s = 0;
        for &choice in choices {
            s = opening.check_stones(stones, s, size)?;
            let position = gomoku::Position::from_moves(size, board_rule, &stones[..s])
                .map_err(|_| OpeningError::BadStones)?;
            if let Some(point) = opening.choose(&stones[..s], &position, choice)? {
                if stones.get(s) != Some(&point) {
                    return Err(OpeningError::BadStones);
                }
                s += 1;
            }
        }
        // The stones after the last choice must fit their steps too.
        opening.check_stones(stones, s, size)?;
        Ok(opening)
    }
}

/// Soosõrv: whether black may offer `p` as a 5th move: a legal black move (so not forbidden),
/// not offered yet, and not symmetric to an offer under a symmetry of the stones.
fn check_offer(
    position: &gomoku::Position,
    offers: &[Point],
    p: Point,
) -> Result<(), OpeningError> {
    match position.is_legal(p) {
        Ok(()) => {}
        Err(GomokuError::Forbidden { kind, .. }) => return Err(OpeningError::Forbidden(kind)),
        Err(_) => return Err(OpeningError::Taken),
    }
    if offers.contains(&p) {
        return Err(OpeningError::AlreadyOffered);
    }
    let size = position.size();
    let keeps_stones = |s: usize| {
        position.moves().iter().all(|&m| {
            names::transform(s, m, size).is_some_and(|t| position.stone(t) == position.stone(m))
        })
    };
    let symmetric = (1..8)
        .filter(|&s| keeps_stones(s))
        .any(|s| names::transform(s, p, size).is_some_and(|t| offers.contains(&t)));
    if symmetric {
        return Err(OpeningError::Symmetric);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
