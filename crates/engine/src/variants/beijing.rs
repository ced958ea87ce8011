//! 北京麻将 with 惠牌 wilds: preset `beijing`, as decided in `shared/rules/beijing.md`.
//!
//! 136 tiles; after the deal the first tile of the replacement end is turned up as the 惠坯 and
//! the kind after it (惠牌) is wild. The last 7 stacks are a reserve that only feeds kongs (one
//! stack more per kong after the first). Only a concealed hand (门清) holding fewer than three
//! wilds may win on a discard or rob a kong; four wilds win at once (四惠牌). Hand fan from the
//! table of the rules file, times 底分; 烧庄 (the other three following the dealer's discard,
//! go-around after go-around) is paid by the dealer on top; 互包 pairs (three claims from one
//! player) move the whole hand fan onto the partner.
//!
//! Decisions taken here where the spec is silent:
//! - **Room option** `base` (底分, default 1).
//! - **A discarded 惠牌 is dead**: "wilds cannot be used to claim", so nobody may chow, pung,
//!   kong or win on it; a chow whose other tiles include the wild kind is not offered, nor a
//!   concealed kong of wilds (four wilds are 四惠牌, a win).
//! - **A self-drawn 惠牌** counts as a wild in the winning hand.
//! - **四惠牌** wins whatever the other tiles are; the seat that draws the fourth wild must win
//!   (it is the only action offered). Its fan adds the win's other rows that apply.
//! - **捉五魁** needs 5m to be the hand's only winning tile with a reading that completes 4m_6m
//!   by it; a hand holding wilds has more than one winning tile, so it never scores it.
//! - **大钓** is four declared melds (concealed kongs included) and a win on the pair's tile.
//! - **烧庄 go-arounds** start with the dealer's first discard; any claim or kong ends the run.
//! - **海底**: the drawer of the last drawable tile who does not win on it must throw that very
//!   tile (no kong).
//! - Not yet in play: the room option letting a hand completed by 一条龙 rob a concealed kong,
//!   and declining to draw the last tile (both need a new decision in the hand flow).

mod fan;

use crate::ruleset::{
    HandResult, NextHand, OptionError, OptionValue, RawOptions, Rules, RulesetId, WinCheck,
    WinScore, int_option,
};
use crate::seat::Seat;
use crate::settle::{
    ExtraLine, FinishedHand, SeatHand, SettleError, Settlement, WinnerFans, check_physical,
    describe,
};
use crate::shape::Forms;
use crate::table::TableState;
use crate::tile::Tile;
use crate::wall::{ReplacementEnd, TileSetKind, Wall, WildDraw, next_for_indicator};

/// Tiles of the reserve (保留牌) before any kong: seven stacks.
const RESERVE: usize = 14;

/// The Beijing family with validated room options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Beijing {
    /// 底分: points per fan.
    base: i64,
}

impl Beijing {
    /// Validates options.
    ///
    /// # Errors
    /// An unknown option or a value out of range.
    pub fn new(raw: &RawOptions) -> Result<Beijing, OptionError> {
        if let Some(name) = raw.keys().find(|k| k.as_str() != "base") {
            return Err(OptionError::Unknown {
                ruleset: RulesetId::Beijing,
                name: name.clone(),
                known: "base",
            });
        }
        Ok(Beijing {
            base: int_option(raw, "base", 1, 1..=1_000_000)?,
        })
    }

    /// The validated options, defaults filled in.
    pub fn options(&self) -> RawOptions {
        let mut o = RawOptions::new();
        o.insert("base".into(), OptionValue::Int(self.base));
        o
    }

    /// Pays one win: its hand fan to the usual payers, or all of it by each 互包 partner.
    fn pay(&self, hand: &FinishedHand, win: &crate::settle::Win, fan: i64, st: &mut Settlement) {
        let points = fan * self.base;
        let payers: Vec<Seat> = match win.from {
            Some(from) => vec![from],
            None => hand.seats_in_play().filter(|&s| s != win.seat).collect(),
        };
        let partners: Vec<Seat> = hand
            .seats_in_play()
            .filter(|&s| s != win.seat)
            .filter(|&s| hand.claims(win.seat, s) >= 3 || hand.claims(s, win.seat) >= 3)
            .collect();
        if partners.is_empty() {
            for p in payers {
                st.pay(p, win.seat, points);
            }
        } else {
            let whole = points * payers.len() as i64;
            for p in partners {
                st.pay(p, win.seat, whole);
            }
        }
    }

    /// 烧庄: in a hand won by anyone, the dealer pays each other seat 2^(rounds − 1) × 底分.
    fn shaozhuang(&self, hand: &FinishedHand, st: &mut Settlement) {
        let rounds = hand.carried.shaozhuang_rounds;
        if rounds == 0 || hand.wins.is_empty() {
            return;
        }
        let fan = 1i64 << (rounds - 1).min(40);
        let each = fan.saturating_mul(self.base);
        for s in hand.seats_in_play().filter(|&s| s != hand.dealer) {
            st.pay(hand.dealer, s, each);
        }
        st.extras.push(ExtraLine {
            name: "烧庄",
            value: fan,
        });
    }
}

impl Rules for Beijing {
    fn id(&self) -> RulesetId {
        RulesetId::Beijing
    }
    fn tile_set(&self) -> TileSetKind {
        TileSetKind::Honors136
    }
    fn replacement_end(&self) -> ReplacementEnd {
        ReplacementEnd::Tail
    }
    fn forms(&self) -> Forms {
        Forms::STANDARD.with(Forms::SEVEN_PAIRS)
    }
    fn allows_chow(&self) -> bool {
        true
    }
    fn multi_win(&self) -> bool {
        true
    }
    fn reserve(&self, kongs: u32) -> usize {
        RESERVE + 2 * kongs.saturating_sub(1) as usize
    }
    fn wild_tile(&self, wall: &mut Wall) -> Option<WildDraw> {
        let indicator = wall.set_aside_tail()?;
        Some(WildDraw {
            indicator,
            wild: next_for_indicator(indicator),
        })
    }
    fn could_win(&self, hand: &SeatHand, tile: Tile, wild: Option<Tile>) -> bool {
        if fan::wilds_with(hand, tile, wild) == 4 {
            return true;
        }
        let mut full = hand.concealed;
        full.add(tile);
        let melds = hand.melds.len() as u8;
        match wild {
            Some(w) if full.get(w) > 0 => {
                let wilds = full.get(w);
                full[w] = 0;
                crate::shape::is_complete_with_wilds(&full, wilds, melds, self.forms())
            }
            _ => !tile.is_flower() && crate::shape::is_complete(&full, melds, self.forms()),
        }
    }
    fn wins_at_once(&self, hand: &SeatHand, tile: Tile, wild: Option<Tile>) -> bool {
        fan::wilds_with(hand, tile, wild) == 4
    }
    fn follows_dealer(&self) -> bool {
        true
    }
    fn last_tile_thrown(&self) -> bool {
        true
    }
    fn evaluate_win(&self, check: &WinCheck<'_>) -> Result<WinScore, String> {
        let scored = fan::score(check.hand, check.win, check.dealer, check.wild)?;
        Ok(WinScore {
            value: scored.total,
            items: scored.items,
        })
    }
    fn payment_for(&self, value: i64) -> i64 {
        value * self.base
    }
    fn settle(&self, hand: &FinishedHand) -> Result<Settlement, SettleError> {
        check_physical(hand, TileSetKind::Honors136)?;
        if hand.players != 4 {
            return Err(SettleError::Inconsistent(
                "Beijing is played by four".into(),
            ));
        }
        let mut st = Settlement::default();
        for win in &hand.wins {
            let sh = &hand.seats[win.seat];
            let scored = fan::score(sh, win, hand.dealer, hand.wild).map_err(|reason| {
                SettleError::NotAWin {
                    seat: win.seat,
                    hand: describe(sh),
                    tile: win.tile,
                    reason,
                }
            })?;
            self.pay(hand, win, scored.total, &mut st);
            st.fans.push(WinnerFans {
                seat: win.seat,
                items: scored.items,
                total: scored.total,
            });
        }
        self.shaozhuang(hand, &mut st);
        Ok(st)
    }
    fn next_hand(&self, state: &TableState, result: &HandResult) -> NextHand {
        // 连庄 after a drawn hand or a win of the dealer's; otherwise the deal passes on.
        let keeps = result.wins.is_empty() || result.wins.iter().any(|w| w.seat == result.dealer);
        NextHand {
            dealer: if keeps {
                result.dealer
            } else {
                result.dealer.next(4)
            },
            round_wind: state.round_wind,
            draw_bonus: state.draw_bonus,
        }
    }
}

#[cfg(test)]
mod tests;
