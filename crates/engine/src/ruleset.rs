//! Rulesets: the stable preset ids rooms and the store use, validated room options, and the
//! [`Rules`] trait every rule family implements.

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};

use thiserror::Error;

use crate::Wind;
use crate::seat::Seat;
use crate::settle::{FanItem, FinishedHand, SeatHand, SettleError, Settlement, Win, WinnerFans};
use crate::shape::Forms;
use crate::tile::Tile;

mod flow;
mod options;

pub use crate::variants::RulesetId;
pub use flow::{
    AfterClaim, AfterWin, BeforePlay, DiscardWins, Flow, FollowDealer, LastTile, MissedWin,
    Reserve, WallBreak,
};
pub use options::{OptionError, OptionKind, OptionSpec, OptionValue, RawOptions, validate};

/// Presets named in the rules spec whose families are not built yet (none today; the list
/// stays so a newly specified preset can be named before it plays).
const PLANNED: [&str; 0] = [];

impl fmt::Display for RulesetId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a ruleset id was refused.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum RulesetIdError {
    /// Not a preset of the rules spec.
    #[error("unknown ruleset `{0}` (known: {known})", known = RulesetId::ALL.map(RulesetId::as_str).join(", "))]
    Unknown(String),
    /// A preset of the spec that this build does not play yet.
    #[error("ruleset `{0}` is specified but not implemented in this version")]
    NotImplemented(String),
}

impl FromStr for RulesetId {
    type Err = RulesetIdError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some(id) = RulesetId::ALL.into_iter().find(|id| id.as_str() == s) {
            return Ok(id);
        }
        if PLANNED.contains(&s) {
            return Err(RulesetIdError::NotImplemented(s.to_owned()));
        }
        Err(RulesetIdError::Unknown(s.to_owned()))
    }
}

/// Everything a family needs to judge one candidate win.
#[derive(Clone, Copy, Debug)]
pub struct WinCheck<'a> {
    /// The candidate winner's tiles (concealed without the winning tile).
    pub hand: &'a SeatHand,
    /// The win.
    pub win: &'a Win,
    /// The dealer.
    pub dealer: Seat,
    /// The prevalent wind.
    pub round_wind: Wind,
    /// Seats at the table.
    pub players: u8,
    /// Wild kind, if any.
    pub wild: Option<Tile>,
    /// Face-up bonus kinds (two-player 花牌); empty in other families.
    pub bonus: &'a [Tile],
}

/// A legal win's scoring: its items and one comparable value (fan, points, 台…).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct WinScore {
    /// The items, as shown to players.
    pub items: Vec<FanItem>,
    /// The total in the family's unit, after its caps; larger is better.
    pub value: i64,
}

/// The hooks of a rule family. The shared hand flow lives once in [`crate::game`] and reads the
/// family's [`Flow`]; a family answers through hooks only what data cannot say: how a win
/// scores, how a hand pays, who deals next.
pub trait Rules: Send + Sync {
    /// The preset.
    fn id(&self) -> RulesetId;
    /// How a hand flows.
    fn flow(&self) -> &Flow;
    /// Whether this is a legal win and what it scores; `Err` says why not.
    ///
    /// # Errors
    /// A sentence naming the rule that forbids the win.
    fn evaluate_win(&self, check: &WinCheck<'_>) -> Result<WinScore, String>;
    /// Scores win `index` (`win`) of a finished hand and pays it into `st`; the score is the
    /// winner's fan line. The hand has passed the [`crate::settle::referee`], so a family
    /// answers what its scoring needs and never repeats (or forgets) a check of what a hand may
    /// be; [`settle_checked`] calls it for each win in order.
    ///
    /// # Errors
    /// A sentence naming the rule of the family's scoring that makes it no win.
    fn settle_win(
        &self,
        hand: &FinishedHand,
        index: usize,
        win: &Win,
        st: &mut Settlement,
    ) -> Result<WinScore, String>;
    /// The dealer and streak counters of the next hand.
    fn next_hand(&self, state: &crate::table::TableState, result: &HandResult) -> NextHand;

    /// A cheap first test of a candidate win, before [`Rules::evaluate_win`]: does the hand
    /// plus `tile` have a winning shape at all? Families with wins that are not shapes (八花齐,
    /// 四惠牌) or wild tiles extend it.
    fn could_win(&self, hand: &SeatHand, tile: Tile, wild: Option<Tile>) -> bool {
        completes_shape(hand, tile, wild, self.flow().forms)
    }
    /// Whether a seat that can win on its own draw must win at once, with no other action
    /// offered (四惠牌).
    fn wins_at_once(&self, _hand: &SeatHand, _tile: Tile, _wild: Option<Tile>) -> bool {
        false
    }
    /// Turns up an indicator after the deal and names the wild kind (惠牌, 财神), for families
    /// whose [`Flow::wild`] says so; the indicator is taken out of the wall. `dice` are the
    /// hand's dice (Ningbo counts the smaller one to find the 财神).
    fn wild_tile(
        &self,
        _wall: &mut crate::wall::Wall,
        _dice: [u8; 2],
    ) -> Option<crate::wall::WildDraw> {
        None
    }
    /// The kind of the indicator that names `wild` as the wild kind: that copy is turned up
    /// and out of play for the hand, so a finished hand holds at most three of its kind.
    fn wild_indicator(&self, _wild: Tile) -> Option<Tile> {
        None
    }
    /// What one payer pays for a win of `value` (the family's unit: points, or fan turned into
    /// points), before who-pays rules; bots weigh waits with it.
    fn payment_for(&self, value: i64) -> i64 {
        value
    }
    /// Lines settled once every win is paid (查叫, 花猪, kong money, 烧庄, streaks): none by
    /// default.
    fn settle_after_wins(&self, _hand: &FinishedHand, _st: &mut Settlement) {}
}

/// Settles a hand the [`crate::settle::referee`] has found legal, the same way for every
/// family: each win scored and paid in order ([`Rules::settle_win`]) and its fan line added,
/// then the lines after the wins ([`Rules::settle_after_wins`]). Only [`Ruleset::settle`] (and
/// the families' tests of rules no reachable hand shows) call it.
///
/// # Errors
/// [`SettleError::NotAWin`] naming the first win the family's scoring refuses.
pub fn settle_checked(rules: &dyn Rules, hand: &FinishedHand) -> Result<Settlement, SettleError> {
    let mut st = Settlement::default();
    for (index, win) in hand.wins.iter().enumerate() {
        let score = rules
            .settle_win(hand, index, win, &mut st)
            .map_err(|reason| SettleError::NotAWin {
                seat: win.seat,
                hand: crate::settle::describe(&hand.seats[win.seat]),
                tile: win.tile,
                reason,
            })?;
        st.fans.push(WinnerFans {
            seat: win.seat,
            items: score.items,
            total: score.value,
        });
    }
    rules.settle_after_wins(hand, &mut st);
    Ok(st)
}

/// Whether `hand` plus `tile` makes a winning shape of `forms`, the copies of `wild` standing
/// for any tile: the shared part of [`Rules::could_win`].
pub fn completes_shape(hand: &SeatHand, tile: Tile, wild: Option<Tile>, forms: Forms) -> bool {
    // Shapes ignore flowers, so a flower would "complete" a hand that is already whole.
    if tile.is_flower() {
        return false;
    }
    let mut full = hand.concealed;
    full.add(tile);
    let melds = hand.melds.len() as u8;
    match wild {
        Some(w) if full.get(w) > 0 => {
            let wilds = full.get(w);
            full[w] = 0;
            crate::shape::is_complete_with_wilds(&full, wilds, melds, forms)
        }
        _ => crate::shape::is_complete(&full, melds, forms),
    }
}

/// What one hand's end tells the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandResult {
    /// The hand's dealer.
    pub dealer: Seat,
    /// The wins, in order.
    pub wins: Vec<Win>,
}

/// Who deals the next hand, and in which prevalent wind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NextHand {
    /// The next dealer.
    pub dealer: Seat,
    /// The next hand's prevalent wind (圈风).
    pub round_wind: Wind,
    /// The table's 荒番 counter for the next hand (Shanghai; others carry it unchanged).
    pub draw_bonus: u32,
}

/// A preset with validated options: what a room plays.
#[derive(Clone)]
pub struct Ruleset {
    /// The room's options, validated against `specs`, every one filled in. Shared: every
    /// hand's game holds the ruleset, and a map of a dozen strings copied per deal was a
    /// kilobyte a table.
    options: Arc<RawOptions>,
    /// The preset's room options.
    specs: &'static [OptionSpec],
    /// The family's rules, built from `options`.
    rules: Arc<dyn Rules>,
}

impl Ruleset {
    /// Validates `raw` options for preset `id`.
    ///
    /// # Errors
    /// [`OptionError`] for an unknown option or a bad value.
    pub fn new(id: RulesetId, raw: &RawOptions) -> Result<Ruleset, OptionError> {
        let family = crate::variants::family(id);
        let specs = (family.options)(id);
        let options = options::validate(id, specs, raw)?;
        if let Some(defaults) = defaults(id)
            && *defaults.options == options
        {
            return Ok(defaults.clone());
        }
        Ruleset::build(id, specs, options)
    }

    /// The family's rules built from validated options: no sharing.
    fn build(
        id: RulesetId,
        specs: &'static [OptionSpec],
        options: RawOptions,
    ) -> Result<Ruleset, OptionError> {
        let rules = (crate::variants::family(id).build)(id, &options)?;
        Ok(Ruleset {
            options: Arc::new(options),
            specs,
            rules,
        })
    }

    /// The preset with default options.
    pub fn with_defaults(id: RulesetId) -> Result<Ruleset, OptionError> {
        Ruleset::new(id, &RawOptions::new())
    }

    /// The family's hooks.
    pub fn rules(&self) -> &dyn Rules {
        self.rules.as_ref()
    }

    /// The plain test family (flowers, chows, reserve), for the shared flow's own tests.
    #[cfg(test)]
    pub(crate) fn plain(plain: crate::variants::testing::Plain) -> Ruleset {
        Ruleset {
            options: Arc::default(),
            specs: &[],
            rules: Arc::new(plain),
        }
    }

    /// Settles a finished hand: the [`crate::settle::referee`] checks that play could have
    /// reached it, then the family scores it. The one way a hand is settled, in play and from
    /// `settle` lines alike.
    ///
    /// # Errors
    /// [`SettleError`] naming the first thing that makes the hand impossible or not a win.
    pub fn settle(&self, hand: &FinishedHand) -> Result<Settlement, SettleError> {
        crate::settle::referee::check(self.rules(), hand)?;
        settle_checked(self.rules(), hand)
    }

    /// The preset id.
    pub fn id(&self) -> RulesetId {
        self.rules().id()
    }

    /// How a hand of this ruleset flows.
    pub fn flow(&self) -> &Flow {
        self.rules().flow()
    }

    /// The options as given back in records (validated values, defaults filled in).
    pub fn options(&self) -> RawOptions {
        RawOptions::clone(&self.options)
    }

    /// The same options, shared rather than copied (a table's record holds them as long as
    /// the table plays).
    pub fn shared_options(&self) -> Arc<RawOptions> {
        Arc::clone(&self.options)
    }

    /// The validated option values, every option of the preset filled in: read one through
    /// its spec ([`OptionSpec::int_in`] …) for a typed value.
    pub fn values(&self) -> &RawOptions {
        &self.options
    }
}

/// Each preset on its default options, built the first time it is asked for and shared from
/// then on: most rooms play the defaults, and a room's own copy of the options map and of the
/// family's rules was about 1.2 KiB a table. None for a preset whose defaults do not build
/// (then every room builds, and is refused, as before). The rules are a function of the preset
/// and its options, so a shared ruleset plays exactly as a fresh one.
fn defaults(id: RulesetId) -> Option<&'static Ruleset> {
    static DEFAULTS: [OnceLock<Option<Ruleset>>; RulesetId::ALL.len()] =
        [const { OnceLock::new() }; RulesetId::ALL.len()];
    let index = RulesetId::ALL.iter().position(|&known| known == id)?;
    DEFAULTS[index]
        .get_or_init(|| {
            let specs = (crate::variants::family(id).options)(id);
            let options = options::validate(id, specs, &RawOptions::new()).ok()?;
            Ruleset::build(id, specs, options).ok()
        })
        .as_ref()
}

/// Rulesets are equal when they play alike: the same preset with the same options (and flow).
impl PartialEq for Ruleset {
    fn eq(&self, other: &Ruleset) -> bool {
        self.id() == other.id() && self.options == other.options && self.flow() == other.flow()
    }
}

impl Eq for Ruleset {}

impl fmt::Debug for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ruleset")
            .field("id", &self.id())
            .field("options", &self.options)
            .finish()
    }
}

impl Ruleset {
    /// The room options of this preset: what a room's creator may set and the values each
    /// accepts (the same names as [`Ruleset::options`]).
    pub fn option_specs(&self) -> Vec<OptionSpec> {
        self.specs.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The data address of a ruleset's rules (a `dyn` pointer's metadata aside).
    fn rules_at(ruleset: &Ruleset) -> *const () {
        Arc::as_ptr(&ruleset.rules).cast()
    }

    #[test]
    fn rooms_on_the_defaults_share_one_ruleset() {
        let id = RulesetId::TwoPlayer;
        let a = Ruleset::with_defaults(id).expect("defaults build");
        // The defaults spelled out are the defaults.
        let b = Ruleset::new(id, &a.options()).expect("defaults build");
        assert!(Arc::ptr_eq(&a.options, &b.options));
        assert_eq!(rules_at(&a), rules_at(&b));

        let mut raw = RawOptions::new();
        raw.insert("swap".into(), OptionValue::Bool(true));
        let swapping = Ruleset::new(id, &raw).expect("swap is an option");
        assert!(!Arc::ptr_eq(&a.options, &swapping.options));
        assert_ne!(rules_at(&a), rules_at(&swapping));
        assert!(swapping.rules().flow().swaps_dealt());
        assert!(!a.rules().flow().swaps_dealt());
    }

    #[test]
    fn a_table_record_shares_its_rulesets_options() {
        let ruleset = Ruleset::with_defaults(RulesetId::TwoPlayer).expect("defaults build");
        let table = crate::table::Table::new(ruleset.clone(), 7);
        assert!(Arc::ptr_eq(
            &table.record().options,
            &ruleset.shared_options()
        ));
    }
}
