//! English names of settlement lines.
//!
//! Every family names its fan items ([`crate::settle::FanItem`]) and extra lines
//! ([`crate::settle::ExtraLine`]: 查叫, 刮风, 承包, 黄庄 …) in Chinese: the name is the key the
//! rules files use and the one that travels on the wire and in stored hands, so it stays as it is.
//! Clients show an English name beside it, and this table is where that name comes from, for
//! every line any family emits.
//!
//! ```
//! assert_eq!(engine::english("清一色"), Some("Full Flush"));
//! assert_eq!(engine::english("查叫"), Some("Not Ready Check"));
//! assert_eq!(engine::english("no such line"), None);
//! ```
//!
//! Three sources, looked up in this order:
//! - Guobiao's official table ([`Fan::en`]): the MCR English, also for the other families' lines
//!   of the same Chinese name.
//! - [`OWN`]: names of their own for the regional lines.
//! - [`SAME_AS`]: regional names of a concept that already has a name (碰碰胡 and 对对胡 are
//!   MCR's 碰碰和 All Pungs; 杠上花 and 杠开 are 杠上开花). They borrow that English name, so a
//!   concept reads the same in every family, while two different concepts never share one.
//!
//! A Chinese name is one key, whichever family emits it. Where families give one name different
//! rules, the English follows Guobiao: 海底捞月 is MCR's Last Tile Claim (a win on the last
//! discard), though Beijing, Guangdong and two-player use it for a self-draw on the last tile;
//! Sichuan's 清幺九 (one suit, a 1 or 9 in every set) reads as MCR's All Terminals; two-player's
//! 花牌 bonus kinds read as Flower Tiles. The family's rules say what such a line means there;
//! the English name is a label, not a definition.

use crate::variants::guobiao::Fan;

/// The English name of a settlement line (fan item, extra line or multiplier) from its Chinese
/// name, as the families emit it; `None` for a name no family emits.
pub fn english(name_zh: &str) -> Option<&'static str> {
    if let Some(fan) = Fan::ALL.into_iter().find(|f| f.zh() == name_zh) {
        return Some(fan.en());
    }
    if let Some(&(_, en)) = OWN.iter().find(|&&(zh, _)| zh == name_zh) {
        return Some(en);
    }
    let &(_, canonical) = SAME_AS.iter().find(|&&(zh, _)| zh == name_zh)?;
    // A borrowed name is never itself borrowed (a test holds this): one step finds it.
    Fan::ALL
        .into_iter()
        .find(|f| f.zh() == canonical)
        .map(Fan::en)
        .or_else(|| OWN.iter().find(|&&(zh, _)| zh == canonical).map(|e| e.1))
}

/// Every entry of the glossary, (Chinese, English): Guobiao's table, then [`OWN`], then
/// [`SAME_AS`] with the English it borrows.
pub fn entries() -> impl Iterator<Item = (&'static str, &'static str)> {
    Fan::ALL
        .into_iter()
        .map(|f| (f.zh(), f.en()))
        .chain(OWN.iter().copied())
        .chain(
            SAME_AS
                .iter()
                .filter_map(|&(zh, _)| english(zh).map(|en| (zh, en))),
        )
}

/// Regional lines with an English name of their own, by the family that introduced them (a
/// later family emitting the same name is noted). Short, Title Case, and no name of Guobiao's
/// table or of another entry: a different concept gets a different name.
pub const OWN: &[(&str, &str)] = &[
    // Several families. 平胡 is the base row (Sichuan, Suzhou, Wuhu) or all chows (Guangdong,
    // Ningbo); 推倒和 a win with no other row (Beijing); 抢杠 the bonus for robbing a kong beside
    // the hand's row (Sichuan, Guangdong, Ningbo) and Ningbo's line for what the robbed pays.
    ("平胡", "Common Hand"),
    ("推倒和", "Plain Win"),
    ("天和", "Heavenly Hand"),
    ("地和", "Earthly Hand"),
    ("人和", "Human Hand"),
    ("抢杠", "Robbed Kong"),
    // Sichuan.
    ("清对", "Full Flush All Pungs"),
    ("将对", "All 2-5-8 Pungs"),
    ("清七对", "Full Flush Seven Pairs"),
    ("龙七对", "Dragon Seven Pairs"), // also two-player
    ("清龙七对", "Full Flush Dragon Seven Pairs"),
    ("杠", "Kong"),
    ("根", "Root (Four of a Kind)"),
    ("杠上炮", "Win on a Discard After a Kong"),
    ("查叫", "Not Ready Check"),
    ("查大叫", "Not Ready Check (Highest Fan)"),
    ("花猪", "Flower Pig"),
    ("查花猪", "Flower Pig Check"),
    ("刮风", "Wind (Exposed Kong Money)"),
    ("下雨", "Rain (Concealed Kong Money)"),
    ("退税", "Kong Money Refund"),
    ("黄庄", "Draw Streak Multiplier"),
    ("连庄", "Dealer Streak Multiplier"),
    // Shanghai.
    ("混碰", "Half Flush All Pungs"), // also Guangdong
    ("风碰", "All Honor Pungs"),
    ("八花齐", "All Eight Flowers"),
    ("大吊车", "Big Single Wait"),
    ("风刻", "Wind Pung"),
    ("风明杠", "Melded Wind Kong"),
    ("风暗杠", "Concealed Wind Kong"),
    ("箭明杠", "Melded Dragon Kong"),
    ("箭暗杠", "Concealed Dragon Kong"),
    ("开宝", "Lucky Dice Doubling"),
    ("荒番", "Draw Bonus Doubling"),
    ("承包", "Liability Payment"),
    // Beijing.
    ("捉五魁", "Closed Wait on Five Characters"),
    ("豪华七对子", "Luxury Seven Pairs"),
    ("四惠牌", "Four Wilds"),
    ("庄", "Dealer Bonus"),
    ("门清无惠", "Concealed Hand Without Wilds"),
    ("烧庄", "Burning the Dealer"),
    ("跟庄", "Following the Dealer"),
    // Guangdong.
    ("一炮三响", "Three Winners on One Discard"),
    ("抢杠包三家", "Robbed Kong Pays All"),
    ("杠上开花包杠", "Kong Feeder Pays All"),
    // Wuhu.
    ("押当", "Closed Wait Bonus"),
    ("自摸押当", "Self-Drawn Closed Wait Bonus"),
    ("支番", "Suit Tile Count"),
    ("四核", "Hidden Four of a Kind"),
    // Ningbo.
    ("三财神", "Three Wilds"),
    ("排胡", "Mixed Chows and Pungs"),
    ("对倒", "Dual Pung Wait"),
    ("硬胡", "Hard Hand (No Wilds)"),
    ("正花", "Seat Flower"),
    ("春夏秋冬", "All Four Seasons"),
    ("梅兰竹菊", "All Four Plants"),
    ("放冲", "Dealt-in Discard"),
    ("吃碰三摊", "Three-Claim Liability"),
    ("杠上开花包", "Kong Feeder Liability"),
    // Two-player.
    ("大车轮", "Big Wheels"),
    ("百万石", "Million Stones"),
    ("红孔雀", "Red Peacock"),
    ("东北新干线", "Northeast Express"),
    ("天听", "Heavenly Ready"),
    ("门清报听", "Concealed Ready Declaration"),
    ("两杯口", "Twice Pure Double Chow"),
    ("混全带幺", "Mixed Outside Hand"),
    ("纯全带幺", "Pure Outside Hand"),
    // Guobiao house hands.
    ("四方大发", "Big Four Winds with Green Pair"),
];

/// Regional names of a concept that already has a name: (name, the name whose English it
/// borrows), the latter from Guobiao's table or [`OWN`]. The rules are the same; what differs is
/// the spelling (和 or 胡), the region's word, or the Japanese-style name two-player uses.
pub const SAME_AS: &[(&str, &str)] = &[
    // All pungs: 碰碰和 (MCR).
    ("碰碰胡", "碰碰和"),
    ("对对胡", "碰碰和"),
    ("对对和", "碰碰和"),
    ("大对子", "碰碰和"),
    // Seven pairs: 七对 (MCR).
    ("七对子", "七对"),
    // 门清: concealed (MCR 门前清); 门清自摸: concealed and self-drawn (MCR 不求人).
    ("门清", "门前清"),
    ("门清自摸", "不求人"),
    // 鸡胡: a hand with no fan row (MCR 无番和).
    ("鸡胡", "无番和"),
    // 推倒胡: two-player's spelling of Beijing's 推倒和.
    ("推倒胡", "推倒和"),
    // 天胡 / 地胡: the 胡 spelling of 天和 / 地和.
    ("天胡", "天和"),
    ("地胡", "地和"),
    // A win on a kong's replacement tile (MCR 杠上开花).
    ("杠上花", "杠上开花"),
    ("杠开", "杠上开花"),
    ("杠后开花", "杠上开花"),
    // 抢杠胡: the 胡 spelling of MCR's 抢杠和.
    ("抢杠胡", "抢杠和"),
    // A 1 or 9 in every set and the pair (MCR 全带幺; Sichuan has no honors).
    ("幺九", "全带幺"),
    ("带幺九", "全带幺"),
    // One suit, all pungs: Sichuan's 清对 under its other names.
    ("清大对", "清对"),
    ("清碰", "清对"),
    // Honors only (MCR 字一色).
    ("风一色", "字一色"),
    // All eight flowers: Ningbo's count of Shanghai's 八花齐.
    ("八花", "八花齐"),
    // Four melds exposed, waiting on the pair: Shanghai's 大吊车.
    ("大钓", "大吊车"),
    ("大吊", "大吊车"),
    // Waiting on the pair (MCR 单钓将).
    ("单吊", "单钓将"),
    // 123 456 789 of one suit (MCR 清龙).
    ("一条龙", "清龙"),
    ("一气通贯", "清龙"),
    ("通天", "清龙"),
    // Seven pairs with a four of a kind: Beijing-2020's spelling of 豪华七对子.
    ("豪华七对", "豪华七对子"),
    // A self-draw on the last tile (MCR 妙手回春).
    ("海底", "妙手回春"),
    ("河底捞月", "妙手回春"),
    // A win on the last discard (MCR 海底捞月).
    ("河底捞鱼", "海底捞月"),
    // Two-player's Japanese-style names of MCR fans.
    ("四杠子", "四杠"),
    ("四连刻", "一色四节高"),
    ("三连刻", "一色三节高"),
    ("清老头", "清幺九"),
    ("混老头", "混幺九"),
    ("断幺九", "断幺"),
    ("一杯口", "一般高"),
    ("三色同顺", "三色三同顺"),
    ("三色同刻", "三同刻"),
];

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use super::*;

    /// The longest English name a client has to make room for.
    const MAX_LEN: usize = 40;

    /// Words Title Case leaves in lower case.
    const MINOR: [&str; 10] = [
        "a", "an", "and", "of", "or", "the", "on", "with", "in", "by",
    ];

    #[test]
    fn every_name_is_short_ascii_title_case() {
        let mut bad = Vec::new();
        for (zh, en) in entries() {
            let title = en.split(' ').enumerate().all(|(i, word)| {
                let word = word.trim_start_matches('(');
                let first = word.chars().next();
                first.is_some_and(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
                    || (i > 0 && MINOR.contains(&word))
            });
            if en.is_empty() || !en.is_ascii() || en.len() > MAX_LEN || !title {
                bad.push(format!("{zh} → {en:?}"));
            }
        }
        assert!(bad.is_empty(), "names not short ASCII Title Case: {bad:#?}");
    }

    #[test]
    fn each_chinese_name_has_one_entry() {
        let mut seen = BTreeSet::new();
        let keys = Fan::ALL
            .into_iter()
            .map(Fan::zh)
            .chain(OWN.iter().map(|e| e.0))
            .chain(SAME_AS.iter().map(|e| e.0));
        let twice: Vec<&str> = keys.filter(|zh| !seen.insert(*zh)).collect();
        assert!(twice.is_empty(), "listed twice: {twice:?}");
    }

    /// Two different concepts never read the same in English: the names of their own (Guobiao's
    /// and [`OWN`]) are distinct, and a shared name is only ever borrowed through [`SAME_AS`].
    #[test]
    fn different_concepts_have_different_english_names() {
        let mut by_en: BTreeMap<String, Vec<&str>> = BTreeMap::new();
        let own = Fan::ALL
            .into_iter()
            .map(|f| (f.zh(), f.en()))
            .chain(OWN.iter().copied());
        for (zh, en) in own {
            by_en.entry(en.to_ascii_lowercase()).or_default().push(zh);
        }
        let shared: Vec<_> = by_en.iter().filter(|(_, zh)| zh.len() > 1).collect();
        assert!(
            shared.is_empty(),
            "one English name for different lines (borrow it through SAME_AS if they are one \
             concept): {shared:#?}"
        );
    }

    #[test]
    fn every_borrowed_name_resolves_to_a_name_of_its_own() {
        for &(zh, canonical) in SAME_AS {
            assert!(
                !SAME_AS.iter().any(|e| e.0 == canonical),
                "{zh} borrows from {canonical}, itself borrowed"
            );
            let own = Fan::ALL.into_iter().any(|f| f.zh() == canonical)
                || OWN.iter().any(|e| e.0 == canonical);
            assert!(own, "{zh} borrows from {canonical}, which has no name");
            assert_eq!(english(zh), english(canonical));
        }
    }

    #[test]
    fn guobiao_names_are_the_official_table() {
        for f in Fan::ALL {
            assert_eq!(english(f.zh()), Some(f.en()));
        }
        assert_eq!(english("杠上花"), Some("Out with Replacement Tile"));
        assert_eq!(english(""), None);
    }
}
