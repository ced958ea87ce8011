//! 宁波麻将: preset `ningbo`, as decided in `docs/rules/ningbo.md` (seed 004).
//!
//! 144 tiles with flowers, set aside and replaced from the tail as they come. Two dice: the sum
//! picks the wall's side and the larger die the stacks to the break; after the deal the
//! smaller die, counted in stacks from the break toward the tail, finds the 财神 indicator,
//! which is turned face up where it lies and skipped by every draw. Its kind is the 财神
//! (`caishen_rule` `same`: three live) or the kind after it (`next`: four live). A 财神 stands
//! for any tile in the concealed sets and the pair, is never claimed (a discarded one is dead,
//! and no chow is made with one) and may be discarded as itself. Chows by the 下家, pungs,
//! kongs, robbing an added kong; head bump (no 一炮多响). Winning shapes are four sets and a
//! pair. 台 add up (table in `ningbo/fan.rs`), at least 4 to win, the three-财神 bonus not
//! counting toward them; a share is 台 × `base`. The discarder pays two shares, a self-draw one
//! from each, a robbed kong five from the robbed player; claim relations (吃碰三摊) and the
//! feeder of a 杠上开花 kong move the payment (`ningbo/pay.rs`). The dealer keeps the deal after
//! his own win or a drawn hand; wind rounds advance when the deal returns to the first dealer.
//! Restrictions in play: no discarding the kind just chowed unless the chow was the fourth
//! meld (大吊); no kong of a pung on the turn it was claimed; three 财神 and a 财神 single wait
//! win only by self-draw.
//!
//! Decisions taken here where the spec is silent (sources: the seed's text, and the public
//! Ningbo game servers the spec's Decisions cite, which play 三百搭 this way):
//! - **Room options** are `base` (the points of one 台, default 1) and `caishen_rule` (`same`
//!   or `next`, default `same`).
//! - **The 财神 stack.** Stacks count two tiles from the tail end, the top tile of a stack being
//!   the one a replacement would take first; a flower there is passed over toward the tail.
//!   The indicator is out of every draw, so the wall is drawn to its end less that tile.
//! - **No seven pairs** and no other special shape: the 台 table has no row for one.
//! - **Flower replacements are not 杠上花**: 杠上花 is "杠后杠上开花", a kong's replacement; a
//!   flower is set aside by the engine as it comes, as in the other flower families.
//! - **Flower 台.** Each of the seat's own flowers 1 (East 春/梅 … North 冬/菊), each whole set
//!   of four 2 on top, and all eight 8 in place of all of those: "同时杠到此8张花算8台" names
//!   the holding's whole worth.
//! - **字一色** is every tile an honor (winds and dragons): 字 are the honors in every Chinese
//!   table, and the seed's "风牌" gloss would leave dragon hands with no row.
//! - **排胡** (0) is shown when the reading is neither 碰碰胡 nor 平胡; it adds nothing.
//! - **天胡 / 地胡** are self-draws in the first go-around before any claim (the dealer's dealt
//!   fourteen, a non-dealer's first draw); they add to the hand's other items like every row.
//! - **海底** is a self-draw of the last tile of the wall, as Guangdong decided for 海底捞月; a
//!   win on the discard after it scores nothing extra.
//! - **大吊** is four declared melds (a concealed kong included, as Beijing decided) and a win on
//!   the pair; it adds to 单吊, which the table lists apart.
//! - **财神单吊** is a hand of complete sets and one lone 财神, which waits for any tile as the
//!   pair; such a hand wins only by self-draw, whatever other reading the tile allows.
//! - **Three 财神** is holding three or more (four are possible under `next`); the bonus is 3 台
//!   either way, and any such hand wins only by self-draw.
//! - **Relations** (吃碰三摊) count each direction between the winner and another player in which
//!   three or more melds were claimed (an exposed kong is a claimed meld). On a self-draw every
//!   player a relation or the 杠上开花 feeder names pays five shares, doubled for each further
//!   reason naming the same player (two claims and the kong: ×5 ×2), and nobody else pays. On a
//!   discard win the discarder pays two shares and every related player two more per relation
//!   (×4 when the discarder is related). A robbed kong is paid like a discard with five shares
//!   instead of two, the relations adding theirs.
//! - **杠上开花 fed by a discard** is a win on the replacement of the last kong the winner
//!   declared, when that kong was exposed (claimed on a discard), as in Guangdong.
//! - **Wind rounds**: the table's first dealer opens the East round (the dealer is East, so
//!   "East deals first"); a round ends when the deal passes from its last dealer to the first
//!   dealer again, as in Guangdong.
//! - No 漏胡 or 过水: the text has no pass-then-win rule.

mod fan;
mod pay;

#[cfg(test)]
mod tests;

use crate::ruleset::{AfterClaim, DiscardWins, Flow, WallBreak};
use crate::ruleset::{
    HandResult, NextHand, OptionError, OptionSpec, RawOptions, Rules, RulesetId, WinCheck, WinScore,
};
use crate::settle::{FinishedHand, Settlement, Win};
use crate::shape::Forms;
use crate::table::TableState;
use crate::tile::Tile;
use crate::wall::{TileSetKind, Wall, WildDraw, indicator_for, next_for_indicator};

pub use fan::{MIN_TAI, THREE_CAISHEN_TAI};
pub use pay::{
    DISCARD_RELATION_SHARES, DISCARD_SHARES, RELATION_CLAIMS, ROBBED_SHARES,
    SELF_DRAW_RELATION_SHARES,
};

/// Which kind the turned-up tile makes the 财神.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaishenRule {
    /// The turned tile's own kind: its three other copies are live (三百搭).
    Same,
    /// The kind after it (as Beijing's 惠牌): four live.
    Next,
}

impl CaishenRule {
    /// The words of the room option.
    const WORDS: &'static [&'static str] = &["same", "next"];

    /// The 财神 kind an indicator names.
    pub fn wild_for(self, indicator: Tile) -> Tile {
        match self {
            CaishenRule::Same => indicator,
            CaishenRule::Next => next_for_indicator(indicator),
        }
    }
}

/// The Ningbo family with validated room options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ningbo {
    /// How its hands flow (some of it set by the room's options).
    flow: Flow,
    /// Points of one 台 (a share is 台 × base).
    base: i64,
    /// How the 财神 kind follows from the turned tile.
    caishen: CaishenRule,
}

/// Points of one 台.
pub const BASE: OptionSpec = OptionSpec::int("base", "底分", "Points per tai", 1..=1_000_000, 1);
/// How the 财神 kind follows from the turned tile.
pub const CAISHEN_RULE: OptionSpec = OptionSpec::choice(
    "caishen_rule",
    "财神",
    "Wild: the turned kind (same) or the next (next)",
    CaishenRule::WORDS,
    "same",
);

impl Ningbo {
    /// Validates options.
    ///
    /// # Errors
    /// An unknown option, a base out of range, or a `caishen_rule` other than `same` / `next`.
    pub fn new(raw: &RawOptions) -> Result<Ningbo, OptionError> {
        let caishen = match CAISHEN_RULE.word_in(raw) {
            "next" => CaishenRule::Next,
            _ => CaishenRule::Same,
        };
        Ok(Ningbo {
            flow: Flow {
                wall_break: WallBreak::LargerDie,
                wild: true,
                discard_wins: DiscardWins::FirstInTurn,
                after_claim: AfterClaim {
                    no_discard_of_chowed_kind: true,
                    no_kong_of_fresh_pung: true,
                },
                ..Flow::four_seats(TileSetKind::Flowers144, Forms::STANDARD)
            },
            base: BASE.int_in(raw),
            caishen,
        })
    }

    /// The rule turning the indicator into the 财神.
    pub fn caishen_rule(&self) -> CaishenRule {
        self.caishen
    }

    fn context(
        &self,
        dealer: crate::seat::Seat,
        round_wind: crate::seat::Wind,
        wild: Option<Tile>,
    ) -> fan::Context {
        fan::Context {
            dealer,
            round_wind,
            wild,
        }
    }

    /// Scores one win of a finished hand.
    fn judge(&self, hand: &FinishedHand, win: &Win) -> Result<fan::Scored, String> {
        let ctx = self.context(hand.dealer, hand.round_wind, hand.wild);
        fan::score(&ctx, &hand.seats[win.seat], win)
    }
}

impl Rules for Ningbo {
    fn id(&self) -> RulesetId {
        RulesetId::Ningbo
    }
    fn flow(&self) -> &Flow {
        &self.flow
    }
    fn wild_indicator(&self, wild: Tile) -> Option<Tile> {
        Some(match self.caishen {
            CaishenRule::Same => wild,
            CaishenRule::Next => indicator_for(wild),
        })
    }
    fn wild_tile(&self, wall: &mut Wall, dice: [u8; 2]) -> Option<WildDraw> {
        // The smaller die's stack from the tail end, its top tile; flowers are passed over.
        let stack = usize::from(dice[0].min(dice[1]).max(1));
        let indicator = wall.turn_up_inside(2 * (stack - 1), |t| !t.is_flower())?;
        Some(WildDraw {
            indicator,
            wild: self.caishen.wild_for(indicator),
        })
    }
    fn evaluate_win(&self, check: &WinCheck<'_>) -> Result<WinScore, String> {
        let ctx = self.context(check.dealer, check.round_wind, check.wild);
        let scored = fan::score(&ctx, check.hand, check.win)?;
        Ok(WinScore {
            value: scored.total,
            items: scored.items,
        })
    }
    fn payment_for(&self, value: i64) -> i64 {
        value * self.base
    }
    fn settle_win(
        &self,
        hand: &FinishedHand,
        _index: usize,
        win: &Win,
        st: &mut Settlement,
    ) -> Result<WinScore, String> {
        let scored = self.judge(hand, win)?;
        pay::pay(hand, win, scored.total * self.base, st);
        Ok(WinScore {
            items: scored.items,
            value: scored.total,
        })
    }
    fn next_hand(&self, state: &TableState, result: &HandResult) -> NextHand {
        // 连庄 after the dealer's own win or a drawn hand (黄牌算连庄).
        super::rotation::keep_or_pass(state, result)
    }
}

/// The room options of the preset.
pub(crate) fn option_specs(_id: RulesetId) -> &'static [OptionSpec] {
    &[BASE, CAISHEN_RULE]
}

/// The family as [`super::family`] registers it.
pub(crate) const FAMILY: super::Family = super::Family {
    options: option_specs,
    build: |_, options| Ok(std::sync::Arc::new(Ningbo::new(options)?)),
};
