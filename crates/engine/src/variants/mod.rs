//! Rule families, one file each. Each module's docs hold the decisions of
//! `docs/rules/<family>.md` and the choices made where the spec is silent.

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
pub mod two_player;
pub mod wuhu;

use std::sync::Arc;

use crate::ruleset::{OptionError, OptionSpec, RawOptions, Rules, RulesetId};

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

/// The family of each preset: the one place a family is registered.
pub(crate) fn family(id: RulesetId) -> &'static Family {
    match id {
        RulesetId::Sichuan | RulesetId::SichuanXuezhan | RulesetId::SichuanXuezhan9 => {
            &sichuan::FAMILY
        }
        RulesetId::Guobiao | RulesetId::GuobiaoHouse => &guobiao::FAMILY,
        RulesetId::Shanghai => &shanghai::FAMILY,
        RulesetId::Beijing | RulesetId::Beijing2020 => &beijing::FAMILY,
        RulesetId::Guangdong => &guangdong::FAMILY,
        RulesetId::Suzhou => &suzhou::FAMILY,
        RulesetId::Wuhu => &wuhu::FAMILY,
        RulesetId::Ningbo => &ningbo::FAMILY,
        RulesetId::TwoPlayer => &two_player::FAMILY,
    }
}
