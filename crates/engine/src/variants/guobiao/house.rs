//! The non-GB hands of `guobiao-house` (seed 003): 四方大发 168, 天和 168, 地和 158, 人和 108.

use super::fan::Fan;
use super::score::{McrHand, Scored};
use super::{MINIMUM, items};
use crate::ruleset::WinScore;
use crate::seat::Seat;
use crate::settle::{FanItem, Win};
use crate::tile::{Suit, Tile};

/// 四方大发: big four winds with a pair of 发.
const BIG_FOUR_WINDS_GREEN: (&str, i64) = ("四方大发", 168);
/// 天和: the dealer's dealt hand wins.
const HEAVENLY: (&str, i64) = ("天和", 168);
/// 地和: a non-dealer wins on its first self-drawn tile (the spec's decision).
const EARTHLY: (&str, i64) = ("地和", 158);
/// 人和: a win on a discard within the first go-around.
const HUMAN: (&str, i64) = ("人和", 108);

/// The house scoring of a win, when a house hand applies; `None` leaves the Guobiao score.
pub(super) fn score(mcr: &McrHand, scored: &Scored, win: &Win, dealer: Seat) -> Option<WinScore> {
    let flowers = i64::from(mcr.flowers);
    let first = win.flags.first_turn;
    let timing = match (first, win.is_self_draw(), win.seat == dealer) {
        (true, true, true) => Some(HEAVENLY),
        (true, true, false) => Some(EARTHLY),
        (true, false, _) => Some(HUMAN),
        _ => None,
    };
    let with_green = green_winds(mcr, scored);
    let own = match &with_green {
        Some(s) => s.clone(),
        None => WinScore {
            items: items(scored),
            value: scored.total,
        },
    };
    let own_legal = with_green.is_some() || scored.without_flowers() >= MINIMUM;
    match timing {
        // The hand's own fans count when they are worth more (the module's decision).
        Some((name, value)) if !own_legal || value + flowers >= own.value => {
            let mut items = vec![FanItem {
                name,
                value,
                count: 1,
            }];
            if flowers > 0 {
                items.push(FanItem {
                    name: Fan::FlowerTiles.zh(),
                    value: 1,
                    count: u32::from(mcr.flowers),
                });
            }
            Some(WinScore {
                items,
                value: value + flowers,
            })
        }
        _ => with_green,
    }
}

/// 四方大发 in place of 大四喜 (not counted with 碰碰和, 圈风刻, 门风刻, 三风刻, which 大四喜
/// already leaves out).
fn green_winds(mcr: &McrHand, scored: &Scored) -> Option<WinScore> {
    let big_four = scored.fans.iter().any(|&(f, _)| f == Fan::BigFourWinds);
    let green = Tile::new(Suit::Honor, 6)?;
    let mut pair = mcr.concealed;
    pair.add(mcr.win_tile);
    if !big_four || pair.get(green) != 2 {
        return None;
    }
    let mut lines = vec![FanItem {
        name: BIG_FOUR_WINDS_GREEN.0,
        value: BIG_FOUR_WINDS_GREEN.1,
        count: 1,
    }];
    lines.extend(
        items(scored)
            .into_iter()
            .filter(|i| i.name != Fan::BigFourWinds.zh()),
    );
    Some(WinScore {
        value: scored.total - Fan::BigFourWinds.value() + BIG_FOUR_WINDS_GREEN.1,
        items: lines,
    })
}
