//! Sichuan rules in play: 定缺 and forced discards, void claims, 过水, the forced win on the last
//! four tiles, 血战 play-on, and dealer succession, on hands set up tile by tile.

use super::*;
use crate::ruleset::RulesetId;
use crate::table::Table;

fn seat(i: usize) -> Seat {
    Seat::ALL[i]
}

fn tiles(s: &str) -> TileCounts {
    TileCounts::parse(s).expect("notation")
}

fn tile(s: &str) -> Tile {
    s.parse().expect("tile")
}

/// A 血战 hand past 定缺 with the given concealed tiles; `turn` holds `drawn` and must act.
fn xuezhan(hands: [&str; 4], voids: [Suit; 4], turn: usize, drawn: Option<&str>) -> Game {
    let rules = Ruleset::with_defaults(RulesetId::SichuanXuezhan).expect("defaults");
    let mut game = Game::new(rules, 11, seat(0), Wind::East, Carried::default());
    for i in 0..4 {
        game.seats[seat(i)].concealed = tiles(hands[i]);
        game.seats[seat(i)].void = Some(voids[i]);
        game.seats[seat(i)].has_discarded = true;
    }
    game.untouched = false;
    game.phase = Phase::Turn(Turn {
        seat: seat(turn),
        drawn: drawn.map(tile),
        after_kong: false,
        last_tile: false,
        forced_zone: false,
    });
    game.refresh_legal();
    game
}

const M: Suit = Suit::Man;
const P: Suit = Suit::Pin;
const S: Suit = Suit::Sou;

#[test]
fn void_tiles_are_discarded_first_and_never_claimed() {
    let game = xuezhan(["1m123456789p1155s", "", "", ""], [M, M, M, M], 0, None);
    assert_eq!(
        game.legal_actions(seat(0)),
        &[Action::Discard { tile: tile("1m") }]
    );
    // Seat 1 (void p) holds two 5p: no pung of its void suit is offered.
    let mut game = xuezhan(
        ["123m456m789m1122s5p", "55p123s456s789s11m", "", ""],
        [P, P, M, M],
        0,
        Some("5p"),
    );
    game.apply(seat(0), Action::Discard { tile: tile("5p") })
        .expect("legal");
    // No claim window opened: seat 1 simply drew and must shed its void suit.
    let legal = game.legal_actions(seat(1));
    assert!(!legal.contains(&Action::Pung), "{legal:?}");
    assert!(
        legal
            .iter()
            .all(|a| matches!(a, Action::Discard { tile } if tile.suit() == P))
    );
}

#[test]
fn declaring_voids_before_play() {
    let rules = Ruleset::with_defaults(RulesetId::SichuanXuezhan).expect("defaults");
    let mut game = Game::new(rules, 5, seat(2), Wind::East, Carried::default());
    assert!(
        game.legal_actions(seat(2))
            .iter()
            .all(|a| matches!(a, Action::DeclareVoid { .. }))
    );
    for i in 0..4 {
        let a = Action::DeclareVoid {
            suit: Suit::NUMBERED[i % 3],
        };
        game.apply(seat(i), a).expect("declares");
        assert!(game.legal_actions(seat(i)).is_empty(), "declares once");
    }
    // The dealer now plays; its void's tiles must go first.
    let legal = game.legal_actions(seat(2)).to_vec();
    let void = Suit::NUMBERED[2];
    if game.seats[seat(2)].concealed.suit_total(void) > 0 {
        assert!(legal.iter().all(|a| match a {
            Action::Discard { tile } => tile.suit() == void,
            _ => true,
        }));
    }
    assert!(legal.iter().any(|a| matches!(a, Action::Discard { .. })));
}

#[test]
fn pass_then_win_is_blocked_until_own_draw_unless_higher() {
    // Seat 2 waits on 1s/4s (平胡). It passes 1s from seat 0; seat 1's 4s (same value) is then
    // refused; the block lifts when seat 2 draws.
    let hands = [
        "1s123456789m11p2p",
        "4s123456789m11p2p",
        "23s567s123456p99p",
        "4s123456789m11p2p",
    ];
    let mut game = xuezhan(hands, [S, S, M, S], 0, Some("1s"));
    game.apply(seat(0), Action::Discard { tile: tile("1s") })
        .expect("legal");
    assert_eq!(game.legal_actions(seat(2)), &[Action::Win, Action::Pass]);
    game.apply(seat(2), Action::Pass).expect("passes");
    // Seat 1 draws; make its discard 4s by setting the turn by hand.
    game.seats[seat(1)].concealed.add(tile("4s"));
    game.phase = Phase::Turn(Turn {
        seat: seat(1),
        drawn: Some(tile("4s")),
        after_kong: false,
        last_tile: false,
        forced_zone: false,
    });
    game.refresh_legal();
    game.apply(seat(1), Action::Discard { tile: tile("4s") })
        .expect("legal");
    assert!(
        !game.legal_actions(seat(2)).contains(&Action::Win),
        "过水 blocks an equal win"
    );
    // After seat 2's own draw the block is gone.
    game.seats[seat(2)].passed_win = Some(0);
    game.draw_turn(seat(2));
    assert_eq!(game.seats[seat(2)].passed_win, None);
}

#[test]
fn last_four_tiles_force_the_win() {
    let hands = ["1s123456789m11p2p", "", "23s567s123456p99p", ""];
    let mut game = xuezhan(hands, [S, S, M, S], 0, Some("1s"));
    // Three tiles left: one of the last four has been drawn.
    while game.wall.drawable() > 3 {
        game.wall.draw();
    }
    game.apply(seat(0), Action::Discard { tile: tile("1s") })
        .expect("legal");
    assert_eq!(
        game.legal_actions(seat(2)),
        &[Action::Win],
        "passing is not offered"
    );
}

#[test]
fn xuezhan_plays_on_until_three_have_won() {
    let hands = [
        "123m456m789m1p",
        "123m456m789m22p",
        "123p456p789p33m",
        "123s456s789s4p",
    ];
    let mut game = xuezhan(hands, [S, S, S, M], 0, Some("1p"));
    // Seat 0 self-draws? 123m456m789m + 1p: single wait on 1p; holding 1p as drawn → no pair.
    game.seats[seat(0)].concealed = tiles("123m456m789m11p");
    game.refresh_legal();
    assert!(game.legal_actions(seat(0)).contains(&Action::SelfDrawWin));
    game.apply(seat(0), Action::SelfDrawWin).expect("wins");
    assert!(!game.is_over(), "血战 goes on");
    assert!(
        game.legal_actions(seat(0)).is_empty(),
        "a winner has left play"
    );
    assert!(game.in_play().len() == 3);
    let next = game
        .table_seats()
        .find(|&s| !game.legal_actions(s).is_empty());
    assert_eq!(
        next,
        Some(seat(1)),
        "play continues with the winner's next seat"
    );
}

#[test]
fn dealer_passes_to_the_first_winner_and_stays_after_a_draw() {
    let rules = Ruleset::with_defaults(RulesetId::SichuanXuezhan).expect("defaults");
    let mut table = Table::new(rules, 9);
    let first = table.state().dealer;
    for n in 0..20u64 {
        let mut game = table.deal(1000 + n);
        let mut rng = SeededRng::new(n);
        while !game.is_over() {
            let s = game
                .table_seats()
                .find(|&s| !game.legal_actions(s).is_empty())
                .expect("acts");
            let legal = game.legal_actions(s).to_vec();
            let a = legal
                .iter()
                .copied()
                .find(|a| matches!(a, Action::Win | Action::SelfDrawWin))
                .unwrap_or_else(|| legal[rng.below(legal.len() as u32) as usize]);
            game.apply(s, a).expect("legal");
        }
        let dealer = game.dealer();
        let first_winner = game.wins().first().map(|w| w.seat);
        let kept = table.state().dealer_streak;
        table.finish(&game).expect("finished");
        assert_eq!(table.state().dealer, first_winner.unwrap_or(dealer));
        if table.state().dealer == dealer {
            assert_eq!(table.state().dealer_streak, kept + 1);
        }
    }
    assert_eq!(table.state().hands_played, 20);
    let _ = first;
    // The table record rebuilds the whole table, scores and streaks included.
    use crate::stored::{Document, StoredTableRecord};
    let json = StoredTableRecord::from(table.record())
        .write_string()
        .expect("serializes");
    let stored = StoredTableRecord::read_str(&json).expect("parses");
    let record = crate::record::TableRecord::try_from(&stored).expect("converts");
    let again = record.replay().expect("replays");
    assert_eq!(again.state(), table.state());
    // A hand from another table is refused.
    let other = Table::new(
        Ruleset::with_defaults(RulesetId::Sichuan).expect("defaults"),
        1,
    );
    let mut game = other.deal(5);
    while !game.is_over() {
        let s = game
            .table_seats()
            .find(|&s| !game.legal_actions(s).is_empty())
            .expect("acts");
        let a = game.legal_actions(s)[0];
        game.apply(s, a).expect("legal");
    }
    assert_eq!(table.finish(&game), Err(GameError::NotThisTable));
}

#[test]
fn an_added_kong_becomes_the_last_listed_kong_and_its_replacement_lifts_pass_then_win() {
    let rules = Ruleset::with_defaults(RulesetId::Sichuan).expect("defaults");
    let mut game = Game::new(rules, 3, seat(0), Wind::East, Carried::default());
    let five = tile("5s");
    let seven = tile("7s");
    let pung = crate::Meld {
        kind: crate::MeldKind::Pung,
        tile: five,
        from: Some(seat(1)),
        claimed: Some(five),
    };
    let kong = crate::Meld {
        kind: crate::MeldKind::Kong(crate::KongKind::Exposed),
        tile: seven,
        from: Some(seat(2)),
        claimed: Some(seven),
    };
    let st = &mut game.seats[seat(0)];
    st.concealed = tiles("123m456m9m5s");
    st.melds = vec![
        PlacedMeld {
            meld: pung,
            in_play: SeatSet::all(4),
        },
        PlacedMeld {
            meld: kong,
            in_play: SeatSet::all(4),
        },
    ];
    st.passed_win = Some(3);
    game.untouched = false;
    game.phase = Phase::Turn(Turn {
        seat: seat(0),
        drawn: Some(five),
        after_kong: false,
        last_tile: false,
        forced_zone: false,
    });
    game.refresh_legal();
    game.apply(seat(0), Action::AddedKong { tile: five })
        .expect("legal");
    let melds = &game.seats[seat(0)].melds;
    assert_eq!(
        melds.last().map(|m| m.meld.kind),
        Some(crate::MeldKind::Kong(crate::KongKind::Added))
    );
    assert_eq!(melds.last().map(|m| m.meld.tile), Some(five));
    assert_eq!(
        game.seats[seat(0)].passed_win,
        None,
        "the replacement draw lifts 过水"
    );
}
