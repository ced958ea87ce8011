//! The rulesets a room may play, described for a client's create-room form. Everything here is
//! read from the engine: the presets (`RulesetId::ALL`), their names, each family's option
//! specs, the validated defaults, and the room's default match length.

use axum::Json;
use engine::RulesetId;
use engine::ruleset::{
    AfterWin, BeforePlay, DiscardWins, Flow, FollowDealer, MissedWin, OptionKind, OptionSpec,
    Ruleset, WallBreak,
};
use engine::shape::Forms;
use engine::wall::ReplacementEnd;
use serde::Serialize;
use utoipa::ToSchema;

use crate::room;

/// A preset a room may play.
#[derive(Serialize, ToSchema)]
pub(super) struct RulesetInfo {
    /// The stable preset id (`ruleset` of `POST /api/rooms`).
    id: &'static str,
    /// Its name for Chinese-speaking players.
    name_zh: &'static str,
    /// Its name in English.
    name_en: &'static str,
    /// Seats at the table.
    players: u8,
    /// Hands in a room whose creator does not say (the ruleset's full match where it has
    /// one, else 8).
    default_hands: u64,
    /// Points an escaper loses on top of the hand it escaped from (逃跑罚分), under its
    /// default options; 0 where the rules set none. It counts in leaderboards and histories,
    /// not in the hand's deltas.
    escape_penalty: i64,
    /// The room options (`options` of `POST /api/rooms`); none may be left out of a form, as
    /// each has a default.
    options: Vec<OptionInfo>,
    /// How a hand flows under the default options (an option may change it: two-player's
    /// `swap` turns `before_play` into `swap_dealt`).
    flow: FlowInfo,
}

/// How a hand of a ruleset flows: the engine's own description of the family, which the
/// server plays by.
#[derive(Serialize, ToSchema)]
pub(super) struct FlowInfo {
    /// Tiles in the set: 108 (suits), 136 (with honours) or 144 (with eight flowers).
    tiles: usize,
    /// Tiles of the shuffled set that make the wall, the rest set aside for the hand
    /// (two-player: 71); null: the whole set.
    wall_tiles: Option<usize>,
    /// How many stacks into its side the wall is broken.
    wall_break: WallBreakInfo,
    /// Where kong and flower replacements are drawn.
    replacement_end: ReplacementInfo,
    /// Tiles kept back from turn draws at the tail, and how many more for each kong after the
    /// first (Beijing 保留牌).
    reserve: ReserveInfo,
    /// Whether a wild kind is turned up each hand (惠牌, 财神).
    wild: bool,
    /// Bonus kinds turned up after the deal (two-player 花牌).
    bonus_indicators: usize,
    /// What happens between the deal and the dealer's first discard.
    before_play: BeforePlayInfo,
    /// The winning shapes.
    forms: Vec<FormInfo>,
    /// Whether the next seat may chow.
    chow: bool,
    /// Who wins when several seats may win on one discard.
    discard_wins: DiscardWinsInfo,
    /// What a win does to the hand.
    after_win: AfterWinInfo,
    /// What passing on a winning tile forbids afterwards.
    missed_win: MissedWinInfo,
    /// From this many live tiles on, a ready player must take a win (null: never).
    forced_win_wall: Option<usize>,
    /// Whether a concealed kong may be robbed.
    concealed_kong_robbable: bool,
    /// No discard of the chowed kind on the chow's own turn (吃张打张 barred).
    no_discard_of_chowed_kind: bool,
    /// No kong of a pung on the turn it was claimed.
    no_kong_of_fresh_pung: bool,
    /// Go-arounds following the dealer's discard (烧庄, 跟庄).
    follow_dealer: FollowDealerInfo,
    /// When this many different seats have made a kong the hand is drawn (null: never).
    kongers_draw: Option<usize>,
    /// Whoever draws the last drawable tile and does not win must throw it.
    last_tile_thrown: bool,
    /// The seat due to draw the last drawable tile may decline it.
    last_tile_declinable: bool,
    /// Whether a seat may declare ready (报听), locking its hand.
    declares_ready: bool,
    /// 海底捞月 draws the first ready seat gets when the wall runs out.
    seabed_draws: u8,
    /// Hands in the family's full match (null: as many as the room says).
    match_hands: Option<u32>,
    /// Whether a player leaving the table resets its 荒番 counter.
    leave_resets_draw_bonus: bool,
}

/// How many stacks into its side the wall is broken.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum WallBreakInfo {
    /// The dice's sum.
    DiceSum,
    /// The larger die.
    LargerDie,
}

/// Where replacements are drawn.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum ReplacementInfo {
    /// The tail of the wall.
    Tail,
    /// The live end, in turn order.
    Live,
}

/// Tiles kept back from turn draws.
#[derive(Serialize, ToSchema)]
struct ReserveInfo {
    /// From the start.
    tiles: usize,
    /// More for each kong after the first.
    per_kong: usize,
}

/// Between the deal and the dealer's first discard.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum BeforePlayInfo {
    /// Play begins at once.
    Nothing,
    /// 定缺: every seat declares the suit it will not keep.
    DeclareVoid,
    /// 开始时换牌: each seat may exchange dealt tiles for set-aside ones.
    SwapDealt,
}

/// A winning shape.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum FormInfo {
    /// Four sets and a pair.
    Standard,
    /// Seven pairs.
    SevenPairs,
    /// Thirteen orphans.
    ThirteenOrphans,
    /// 全不靠 and 组合龙.
    Knitted,
}

/// Who wins when several seats may win on one discard.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum DiscardWinsInfo {
    /// 一炮多响: all of them.
    Every,
    /// Head bump: the first in turn after the discarder.
    FirstInTurn,
}

/// What a win does to the hand.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum AfterWinInfo {
    /// The hand ends.
    HandEnds,
    /// 血战到底: the others play on.
    PlayOn,
}

/// What passing on a winning tile forbids.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum MissedWinInfo {
    /// Nothing.
    None,
    /// 过水: no discard win until one's own draw, unless it scores more.
    UntilDrawUnlessHigher,
    /// 漏胡: no discard win on that kind until one's own next move.
    SameKindUntilOwnMove,
}

/// Go-arounds following the dealer's discard.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum FollowDealerInfo {
    /// Not counted.
    Ignored,
    /// Counted for the settlement (跟庄).
    Counted,
    /// Counted, and the dealer's first wind must be followed (烧庄).
    Forced,
}

/// One room option.
#[derive(Serialize, ToSchema)]
pub(super) struct OptionInfo {
    /// Its name in `options`.
    name: &'static str,
    /// What players call it, in Chinese.
    name_zh: &'static str,
    /// Its name in English.
    name_en: &'static str,
    /// `bool`, `int` or `choice` (one word of `values`).
    #[serde(rename = "type")]
    kind: &'static str,
    /// The value when it is not given.
    default: serde_json::Value,
    /// The smallest value accepted (`int`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    min: Option<i64>,
    /// The largest value accepted (`int`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    max: Option<i64>,
    /// The words accepted (`choice`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    values: Option<Vec<&'static str>>,
}

/// Every ruleset a room may play, with its room options and default match length.
#[utoipa::path(
    get,
    path = "/api/rulesets",
    responses((status = 200, description = "every preset, in the engine's order", body = Vec<RulesetInfo>))
)]
pub(super) async fn rulesets() -> Json<Vec<RulesetInfo>> {
    Json(RulesetId::ALL.into_iter().filter_map(describe).collect())
}

/// A preset as the form shows it (`None` if its defaults did not validate, which the engine's
/// tests rule out).
fn describe(id: RulesetId) -> Option<RulesetInfo> {
    let ruleset = Ruleset::with_defaults(id).ok()?;
    let defaults = ruleset.options();
    let options = ruleset
        .option_specs()
        .into_iter()
        .map(|spec| option(spec, defaults.get(spec.name)))
        .collect();
    Some(RulesetInfo {
        id: id.as_str(),
        name_zh: id.name_zh(),
        name_en: id.name_en(),
        players: ruleset.flow().players,
        default_hands: room::default_hands(&ruleset),
        escape_penalty: ruleset.flow().escape_penalty.unwrap_or(0),
        options,
        flow: flow_info(ruleset.flow()),
    })
}

fn flow_info(f: &Flow) -> FlowInfo {
    FlowInfo {
        tiles: f.tiles.len(),
        wall_tiles: f.wall_tiles,
        wall_break: match f.wall_break {
            WallBreak::DiceSum => WallBreakInfo::DiceSum,
            WallBreak::LargerDie => WallBreakInfo::LargerDie,
        },
        replacement_end: match f.replacement_end {
            ReplacementEnd::Tail => ReplacementInfo::Tail,
            ReplacementEnd::Live => ReplacementInfo::Live,
        },
        reserve: ReserveInfo {
            tiles: f.reserve.tiles,
            per_kong: f.reserve.per_kong,
        },
        wild: f.wild,
        bonus_indicators: f.bonus_indicators,
        before_play: match f.before_play {
            BeforePlay::Nothing => BeforePlayInfo::Nothing,
            BeforePlay::DeclareVoid => BeforePlayInfo::DeclareVoid,
            BeforePlay::SwapDealt => BeforePlayInfo::SwapDealt,
        },
        forms: forms(f.forms),
        chow: f.chow,
        discard_wins: match f.discard_wins {
            DiscardWins::Every => DiscardWinsInfo::Every,
            DiscardWins::FirstInTurn => DiscardWinsInfo::FirstInTurn,
        },
        after_win: match f.after_win {
            AfterWin::HandEnds => AfterWinInfo::HandEnds,
            AfterWin::PlayOn => AfterWinInfo::PlayOn,
        },
        missed_win: match f.missed_win {
            MissedWin::None => MissedWinInfo::None,
            MissedWin::UntilDrawUnlessHigher => MissedWinInfo::UntilDrawUnlessHigher,
            MissedWin::SameKindUntilOwnMove => MissedWinInfo::SameKindUntilOwnMove,
        },
        forced_win_wall: f.forced_win_wall,
        concealed_kong_robbable: f.concealed_kong_robbable,
        no_discard_of_chowed_kind: f.after_claim.no_discard_of_chowed_kind,
        no_kong_of_fresh_pung: f.after_claim.no_kong_of_fresh_pung,
        follow_dealer: match f.follow_dealer {
            FollowDealer::Ignored => FollowDealerInfo::Ignored,
            FollowDealer::Counted => FollowDealerInfo::Counted,
            FollowDealer::Forced => FollowDealerInfo::Forced,
        },
        kongers_draw: f.kongers_draw,
        last_tile_thrown: f.last_tile.thrown,
        last_tile_declinable: f.last_tile.declinable,
        declares_ready: f.declares_ready,
        seabed_draws: f.seabed_draws,
        match_hands: f.match_hands,
        leave_resets_draw_bonus: f.leave_resets_draw_bonus,
    }
}

/// The shapes of `forms`, in a fixed order.
fn forms(forms: Forms) -> Vec<FormInfo> {
    [
        (Forms::STANDARD, FormInfo::Standard),
        (Forms::SEVEN_PAIRS, FormInfo::SevenPairs),
        (Forms::THIRTEEN_ORPHANS, FormInfo::ThirteenOrphans),
        (Forms::KNITTED, FormInfo::Knitted),
    ]
    .into_iter()
    .filter(|(f, _)| forms.contains(*f))
    .map(|(_, info)| info)
    .collect()
}

fn option(spec: OptionSpec, default: Option<&engine::ruleset::OptionValue>) -> OptionInfo {
    let (kind, min, max, values) = match spec.kind {
        OptionKind::Bool { .. } => ("bool", None, None, None),
        OptionKind::Int { min, max, .. } => ("int", Some(min), Some(max), None),
        OptionKind::Choice { values, .. } => ("choice", None, None, Some(values.to_vec())),
    };
    OptionInfo {
        name: spec.name,
        name_zh: spec.name_zh,
        name_en: spec.name_en,
        kind,
        default: serde_json::to_value(default).unwrap_or_default(),
        min,
        max,
        values,
    }
}
