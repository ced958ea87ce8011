//! Rule families, one folder each, and their registration. Each module's docs hold the
//! decisions of `docs/rules/<family>.md` and the choices made where the spec is silent.
//!
//! A family is added by writing its folder (a type implementing [`Rules`], its option specs,
//! its `FAMILY`) and one line per preset in the [`presets!`] list below: the preset id, its
//! names, its family. Everything else — validation of room options, the hand flow, the
//! referee, settling, records, `/api/rulesets` — reads the family through that line.

pub mod beijing;
pub mod guangdong;
pub mod guobiao;
pub mod ningbo;
pub(crate) mod rotation;
pub mod shanghai;
pub mod sichuan;
pub mod suzhou;
#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
pub(crate) mod toy;
pub mod two_player;
pub mod wuhu;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::ruleset::{OptionError, OptionSpec, RawOptions, Rules};

/// A preset's rules built from its validated options, or the family's refusal of them.
pub(crate) type Built = Result<Arc<dyn Rules>, OptionError>;

/// A rule family as the engine registers it: each preset's room options, and the family's
/// rules built from options already validated against them.
pub(crate) struct Family {
    /// The room options of a preset of the family.
    pub(crate) options: fn(RulesetId) -> &'static [OptionSpec],
    /// The rules of a preset, from its validated options (a family may still refuse a
    /// combination, as Guangdong refuses a 起胡 above its 爆胡).
    pub(crate) build: fn(RulesetId, &RawOptions) -> Built,
}

/// Declares the presets: the [`RulesetId`] enum (its stable id strings, the order lists show),
/// the presets' names, and [`family`], which finds a preset's family. Presets after `@test:`
/// exist only in the engine's own tests.
macro_rules! presets {
    (
        $( $(#[$doc:meta])* $v:ident = $id:literal, $zh:literal, $en:literal in $family:ident; )*
        @test: $( $(#[$tdoc:meta])* $tv:ident = $tid:literal, $tzh:literal, $ten:literal in $tfamily:ident; )*
    ) => {
        /// A room's ruleset preset. The string forms are stable: rooms, records and the store
        /// keep them.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
        pub enum RulesetId {
            $( $(#[$doc])* #[serde(rename = $id)] $v, )*
            $( #[cfg(test)] $(#[$tdoc])* #[serde(rename = $tid)] $tv, )*
        }

        impl RulesetId {
            /// Every implemented preset.
            #[cfg(not(test))]
            pub const ALL: [RulesetId; [$($id),*].len()] = [$(RulesetId::$v),*];
            /// Every implemented preset, and the test-only ones.
            #[cfg(test)]
            pub const ALL: [RulesetId; [$($id,)* $($tid),*].len()] =
                [$(RulesetId::$v,)* $(RulesetId::$tv),*];

            /// The stable id string.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( RulesetId::$v => $id, )*
                    $( #[cfg(test)] RulesetId::$tv => $tid, )*
                }
            }

            /// The preset's name for Chinese-speaking players.
            pub const fn name_zh(self) -> &'static str {
                match self {
                    $( RulesetId::$v => $zh, )*
                    $( #[cfg(test)] RulesetId::$tv => $tzh, )*
                }
            }

            /// The preset's name in English.
            pub const fn name_en(self) -> &'static str {
                match self {
                    $( RulesetId::$v => $en, )*
                    $( #[cfg(test)] RulesetId::$tv => $ten, )*
                }
            }
        }

        /// The family of each preset.
        pub(crate) fn family(id: RulesetId) -> &'static Family {
            match id {
                $( RulesetId::$v => &$family::FAMILY, )*
                $( #[cfg(test)] RulesetId::$tv => &$tfamily::FAMILY, )*
            }
        }
    };
}

// The registration: one line per preset (its id, names and family), the order lists show.
presets! {
    /// `beijing`: 北京麻将 with 惠牌 wilds, the reserve, 烧庄 and 互包.
    Beijing = "beijing", "北京麻将（惠牌）", "Beijing with wilds" in beijing;
    /// `beijing-2020`: 北京麻将 第4稿: no wilds, 上楼, kong money, 跟庄.
    Beijing2020 = "beijing-2020", "北京麻将（2020）", "Beijing, 2020 rules" in beijing;
    /// `shanghai`: 上海麻将, qualifying hand types, 勒子 caps, 开宝, 荒番, 承包.
    Shanghai = "shanghai", "上海麻将", "Shanghai" in shanghai;
    /// `sichuan`: 成都 standard, points, hand ends at the first win.
    Sichuan = "sichuan", "成都麻将", "Sichuan, Chengdu standard" in sichuan;
    /// `sichuan-xuezhan`: 血战到底, 3-fan cap.
    SichuanXuezhan = "sichuan-xuezhan", "血战到底", "Sichuan bloody battle (3-fan cap)" in sichuan;
    /// `sichuan-xuezhan-9`: 血战到底, 9-fan cap, 黄庄 and 连庄 multipliers.
    SichuanXuezhan9 = "sichuan-xuezhan-9", "血战到底（九番封顶）", "Sichuan bloody battle (9-fan cap)" in sichuan;
    /// `guobiao`: 国标麻将 (MCR), 81 fans, 8-fan minimum.
    Guobiao = "guobiao", "国标麻将", "Guobiao (MCR)" in guobiao;
    /// `guobiao-house`: `guobiao` with the non-GB hands 四方大发, 天和, 地和, 人和.
    GuobiaoHouse = "guobiao-house", "国标麻将（家规番）", "Guobiao with house hands" in guobiao;
    /// `guangdong`: 广东鸡平胡, single highest fan row plus additions, 爆胡 cap, 2^fan points.
    Guangdong = "guangdong", "广东鸡平胡", "Guangdong chicken hand" in guangdong;
    /// `suzhou`: 苏州麻将, shape fan plus suit fan, doubled by 门清, 自摸 and 和绝张.
    Suzhou = "suzhou", "苏州麻将", "Suzhou" in suzhou;
    /// `wuhu`: 芜湖麻将 2468, 八支起胡, 底番 + 支番 with 押当, 嘴子, everyone pays every win.
    Wuhu = "wuhu", "芜湖麻将（2468）", "Wuhu 2468" in wuhu;
    /// `ningbo`: 宁波麻将, flowers and a 财神 wild, 台 added up with a 4-台 minimum.
    Ningbo = "ningbo", "宁波麻将", "Ningbo" in ningbo;
    /// `two-player`: 二人麻将, 71 of 136 tiles, 报听, 海底捞月, 花牌, rows added up to a 13 cap.
    TwoPlayer = "two-player", "二人麻将", "Two-player" in two_player;
    @test:
    /// `toy`: the family the engine's tests add to show what adding a family takes.
    Toy = "toy", "玩具麻将", "Toy" in toy;
}
