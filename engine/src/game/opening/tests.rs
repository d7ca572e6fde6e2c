use super::*;
use crate::gomoku::{notation, Rule};

/// An opening played out over a board: stones and choices, each checked.
struct Play {
    opening: Opening,
    position: gomoku::Position,
}

impl Play {
    fn new(rule: OpeningRule, board: Rule) -> Play {
        Play { opening: Opening::new(rule), position: gomoku::Position::new(15, board).unwrap() }
    }

    fn stones(&self) -> Vec<Point> {
        self.position.moves().to_vec()
    }

    fn step(&self) -> Option<Step> {
        self.opening.phase(&self.stones()).step
    }

    fn stone(&mut self, at: &str) -> Result<(), OpeningError> {
        let p = notation::parse_point(at, 15).unwrap();
        self.opening.check_stone(&self.stones(), 15, p)?;
        self.position.play(p).expect("a legal stone");
        Ok(())
    }

    fn choose(&mut self, choice: Choice) -> Result<(), OpeningError> {
        if let Some(p) = self.opening.choose(&self.stones(), &self.position, choice)? {
            self.position.play(p).expect("a picked stone is legal");
        }
        Ok(())
    }

    fn first(&self) -> Color {
        self.opening.phase(&self.stones()).first
    }
}

fn pt(at: &str) -> Point {
    notation::parse_point(at, 15).unwrap()
}

fn place(role: Role, color: Color, within: Option<u8>) -> Option<Step> {
    Some(Step { role, action: Action::Place { color, within } })
}

fn step(role: Role, action: Action) -> Option<Step> {
    Some(Step { role, action })
}

#[test]
fn no_rule_has_no_steps() {
    let play = Play::new(OpeningRule::None, Rule::Freestyle);
    assert_eq!(play.step(), None);
    assert_eq!(play.first(), Color::Black);
    assert_eq!(play.opening.check_stone(&[], 15, Point::new(0, 0)), Ok(()));
}

#[test]
fn swap_the_first_places_three_and_the_second_chooses() {
    for (taken, first) in [(Color::Black, Color::White), (Color::White, Color::Black)] {
        let mut play = Play::new(OpeningRule::Swap, Rule::Freestyle);
        assert_eq!(play.step(), place(Role::First, Color::Black, None));
        assert_eq!(play.choose(Choice::Take { color: taken }), Err(OpeningError::StoneExpected));
        play.stone("a1").unwrap(); // anywhere: swap has no area
        assert_eq!(play.step(), place(Role::First, Color::White, None));
        play.stone("h8").unwrap();
        assert_eq!(play.step(), place(Role::First, Color::Black, None));
        play.stone("h9").unwrap();
        assert_eq!(play.step(), step(Role::Second, Action::ChooseColor));
        assert_eq!(play.stone("h10"), Err(OpeningError::ChoiceExpected));
        assert_eq!(play.choose(Choice::PlaceTwo), Err(OpeningError::WrongChoice));
        play.choose(Choice::Take { color: taken }).unwrap();
        assert_eq!(play.step(), None);
        assert_eq!(play.first(), first, "the second took {taken}");
        assert_eq!(play.choose(Choice::Take { color: taken }), Err(OpeningError::Over));
        play.stone("h10").unwrap();
    }
}

#[test]
fn swap2_the_second_may_place_two_more_and_the_first_chooses() {
    let mut play = Play::new(OpeningRule::Swap2, Rule::Renju);
    for at in ["h8", "i9", "j8"] {
        assert_eq!(play.step().unwrap().role, Role::First);
        play.stone(at).unwrap();
    }
    assert_eq!(play.step(), step(Role::Second, Action::ChooseColorOrPlaceTwo));
    assert_eq!(play.choose(Choice::Declare { count: 2 }), Err(OpeningError::WrongChoice));
    play.choose(Choice::PlaceTwo).unwrap();
    assert_eq!(play.step(), place(Role::Second, Color::White, None));
    play.stone("g7").unwrap();
    assert_eq!(play.step(), place(Role::Second, Color::Black, None));
    play.stone("k7").unwrap();
    assert_eq!(play.step(), step(Role::First, Action::ChooseColor));
    play.choose(Choice::Take { color: Color::White }).unwrap();
    assert_eq!((play.step(), play.first()), (None, Color::White));

    // Or the second takes a colour at once.
    let mut play = Play::new(OpeningRule::Swap2, Rule::Freestyle);
    for at in ["h8", "i9", "j8"] {
        play.stone(at).unwrap();
    }
    play.choose(Choice::Take { color: Color::Black }).unwrap();
    assert_eq!((play.step(), play.first()), (None, Color::White));
}

/// Soosõrv-8 up to the offers: Kansei (h8 h9 h10), the second keeps white, white's 4th on
/// h12 (the position stays symmetric about the h file), `count` offers declared, black
/// keeps black.
fn soosorv_to_offers(count: u8) -> Play {
    let mut play = Play::new(OpeningRule::Soosorv8, Rule::Renju);
    assert_eq!(play.stone("h9"), Err(OpeningError::OutsideArea { within: 0 }));
    play.stone("h8").unwrap();
    assert_eq!(play.stone("h10"), Err(OpeningError::OutsideArea { within: 1 }));
    play.stone("h9").unwrap();
    assert_eq!(play.stone("k8"), Err(OpeningError::OutsideArea { within: 2 }));
    play.stone("h10").unwrap();
    assert_eq!(play.step(), step(Role::Second, Action::ChooseColor));
    play.choose(Choice::Take { color: Color::White }).unwrap();
    assert_eq!(play.step(), place(Role::Second, Color::White, None));
    play.stone("h12").unwrap();
    assert_eq!(play.step(), step(Role::Second, Action::Declare { max: MAX_OFFERS }));
    for bad in [0, MAX_OFFERS + 1] {
        let err = OpeningError::BadCount { count: bad, max: MAX_OFFERS };
        assert_eq!(play.choose(Choice::Declare { count: bad }), Err(err));
    }
    play.choose(Choice::Declare { count }).unwrap();
    assert_eq!(play.step(), step(Role::First, Action::ChooseColor));
    play.choose(Choice::Take { color: Color::Black }).unwrap();
    play
}

#[test]
fn soosorv_offers_are_legal_distinct_and_not_symmetric_and_white_picks_one() {
    let mut play = soosorv_to_offers(2);
    assert_eq!(play.step(), step(Role::First, Action::Offer { made: 0, of: 2 }));
    assert_eq!(play.stone("j9"), Err(OpeningError::ChoiceExpected));
    assert_eq!(play.choose(Choice::Offer { point: pt("h9") }), Err(OpeningError::Taken));
    play.choose(Choice::Offer { point: pt("j9") }).unwrap();
    assert_eq!(play.choose(Choice::Offer { point: pt("j9") }), Err(OpeningError::AlreadyOffered));
    // f9 mirrors j9 across the h file, which maps every stone onto itself.
    assert_eq!(play.choose(Choice::Offer { point: pt("f9") }), Err(OpeningError::Symmetric));
    assert_eq!(play.step(), step(Role::First, Action::Offer { made: 1, of: 2 }));
    play.choose(Choice::Offer { point: pt("f10") }).unwrap();
    assert_eq!(play.step(), step(Role::Second, Action::Pick));
    assert_eq!(play.choose(Choice::Pick { point: pt("j10") }), Err(OpeningError::NotOffered));
    play.choose(Choice::Pick { point: pt("f10") }).unwrap();
    assert_eq!(play.stones().len(), 5);
    assert_eq!(play.stones()[4], pt("f10"));
    assert_eq!((play.step(), play.first()), (None, Color::Black));

    // Stepping back before the picked stone asks for the pick again; the offers stay.
    let four = &play.stones()[..4];
    let phase = play.opening.phase(four);
    assert_eq!(phase.step, step(Role::Second, Action::Pick));
    assert_eq!(phase.offers, vec![pt("j9"), pt("f10")]);
    assert_eq!(phase.declared, Some(2));
}

#[test]
fn an_offer_forbidden_to_black_is_refused() {
    // No black stone of the first five can be forbidden (a forbidden shape needs four black
    // stones around it), so the check is shown on a later position: black g8 h8 (row 8) and
    // i10 i11 (column i), white far away; i8 makes two open threes.
    let mut position = gomoku::Position::new(15, Rule::Renju).unwrap();
    for at in ["g8", "a1", "h8", "a3", "i10", "a5", "i11", "a7"] {
        position.play(pt(at)).unwrap();
    }
    assert_eq!(position.is_forbidden(pt("i9")), None);
    let forbidden = position.is_forbidden(pt("i8")).expect("a double three");
    assert_eq!(check_offer(&position, &[], pt("i8")), Err(OpeningError::Forbidden(forbidden)));
    assert_eq!(check_offer(&position, &[], pt("i9")), Ok(()));
}

#[test]
fn a_line_that_went_on_without_a_choice_leaves_the_opening() {
    let opening = Opening::new(OpeningRule::Swap);
    let stones: Vec<Point> = ["h8", "h9", "h10", "h11"].map(pt).to_vec();
    let phase = opening.phase(&stones);
    assert_eq!((phase.step, phase.first), (None, Color::Black));
    assert_eq!(opening.phase(&stones[..3]).step, step(Role::Second, Action::ChooseColor));
}

#[test]
fn a_new_stone_forgets_the_choices_after_it() {
    let mut play = Play::new(OpeningRule::Swap, Rule::Freestyle);
    for at in ["h8", "h9", "h10"] {
        play.stone(at).unwrap();
    }
    play.choose(Choice::Take { color: Color::Black }).unwrap();
    assert_eq!(play.opening.choices().len(), 1);
    play.opening.forget_after(3);
    assert_eq!(play.opening.choices().len(), 1, "the choice at three stones stays");
    play.opening.forget_after(2);
    assert!(play.opening.choices().is_empty());
}

#[test]
fn replay_rebuilds_a_played_opening_and_rechecks_each_step() {
    let mut play = soosorv_to_offers(2);
    play.choose(Choice::Offer { point: pt("j9") }).unwrap();
    play.choose(Choice::Offer { point: pt("j7") }).unwrap();
    play.choose(Choice::Pick { point: pt("j7") }).unwrap();
    play.position.play(pt("c3")).unwrap();
    let (stones, choices) = (play.stones(), play.opening.choices());
    let again = Opening::replay(OpeningRule::Soosorv8, 15, Rule::Renju, &stones, &choices).unwrap();
    assert_eq!(again, play.opening);

    let replay = |stones: &[Point], choices: &[Choice]| {
        Opening::replay(OpeningRule::Soosorv8, 15, Rule::Renju, stones, choices)
    };
    // A symmetric offer, a pick that is not the fifth stone, a third stone outside 5x5.
    let mut bad = choices.clone();
    bad[4] = Choice::Offer { point: pt("f9") };
    bad[5] = Choice::Pick { point: pt("f9") };
    assert_eq!(replay(&stones, &bad), Err(OpeningError::Symmetric));
    let mut bad = choices.clone();
    bad[5] = Choice::Pick { point: pt("j9") };
    assert_eq!(replay(&stones, &bad), Err(OpeningError::BadStones));
    let mut far = stones.clone();
    far[2] = pt("h11");
    assert_eq!(replay(&far, &choices), Err(OpeningError::OutsideArea { within: 2 }));
    assert_eq!(replay(&stones, &choices[..1]).map(|o| o.choices().len()), Ok(1));
}

#[test]
fn the_stones_placed_in_the_opening_are_counted() {
    let mut play = soosorv_to_offers(1);
    assert_eq!(play.opening.opening_stones(&play.stones()), 4, "all four in the opening");
    play.choose(Choice::Offer { point: pt("j9") }).unwrap();
    play.choose(Choice::Pick { point: pt("j9") }).unwrap();
    assert_eq!(play.opening.opening_stones(&play.stones()), 5);
    let mut more = play.stones();
    more.push(pt("a1"));
    assert_eq!(play.opening.opening_stones(&more), 5, "the 6th move is on the clock");
}
