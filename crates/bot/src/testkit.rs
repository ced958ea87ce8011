//! Fixtures for the planners' unit tests: tiles from text, and one seat's view built by hand
//! (tests then change the fields their case needs).

use engine::ruleset::Ruleset;
use engine::view::{PublicSeat, SeatView};
use engine::wall::SeededRng;
use engine::{Action, Seat, Tile, TileCounts, Wind};

/// One tile from its text (`5m`, `7z`).
pub(crate) fn t(s: &str) -> Tile {
    s.parse().expect("tile")
}

/// Concealed tiles from their text (`123m456p`).
pub(crate) fn counts(s: &str) -> TileCounts {
    TileCounts::parse(s).expect("hand")
}

/// South's view early in a hand of `ruleset`, East dealing, 80 live tiles: nobody has
/// discarded or claimed, `concealed` in hand, and `offered` on the table (a claim window in
/// which `claims` are legal) or not (South's own turn, every discard legal).
pub(crate) fn view(
    ruleset: Ruleset,
    concealed: &str,
    offered: Option<&str>,
    claims: &[Action],
) -> SeatView {
    let concealed = counts(concealed);
    let seat = |n: u32| PublicSeat {
        melds: Vec::new(),
        discards: Vec::new(),
        flowers: Vec::new(),
        concealed_count: n,
        void: None,
        won: None,
        ready: false,
    };
    let legal = match offered {
        Some(_) => claims.to_vec(),
        None => concealed
            .kinds()
            .iter()
            .map(|tile| Action::Discard { tile })
            .collect(),
    };
    SeatView {
        seat: Seat::ALL[1],
        tile_set: ruleset.rules().flow().tiles,
        ruleset,
        dealer: Seat::ALL[0],
        round_wind: Wind::East,
        dice: [2, 5],
        wall_drawable: 80,
        wild: None,
        bonus: Vec::new(),
        seabed: None,
        concealed,
        own_void: None,
        swap_marked: Vec::new(),
        seats: vec![seat(13), seat(concealed.total()), seat(13), seat(13)],
        legal,
        last_discard: offered.map(t),
        over: false,
        // In turn unless a tile is on offer, as in play.
        turn: offered.is_none().then_some(Seat::ALL[1]),
    }
}

/// What `decide` chooses in `view` over eight seeds (ties go to chance).
pub(crate) fn decisions(
    view: &SeatView,
    decide: impl Fn(&SeatView, &[Action], &mut SeededRng) -> Action,
) -> Vec<Action> {
    (0..8)
        .map(|seed| decide(view, &view.legal, &mut SeededRng::new(seed)))
        .collect()
}
