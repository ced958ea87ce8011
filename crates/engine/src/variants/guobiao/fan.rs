//! The official Guobiao (MCR, 1998) fan table: 80 fans and Flower Tiles, their values, names,
//! and the fans each one implies (不计): an implied fan is never scored beside it.
//!
//! The order of [`Fan::ALL`] is the official table's (higher values first); it is the order
//! fans are listed in, and the tie-break between equal totals (`docs/rules/guobiao.md`).

/// One element of the official fan table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Fan {
    /// 大四喜 Big Four Winds (88).
    BigFourWinds,
    /// 大三元 Big Three Dragons (88).
    BigThreeDragons,
    /// 绿一色 All Green (88).
    AllGreen,
    /// 九莲宝灯 Nine Gates (88).
    NineGates,
    /// 四杠 Four Kongs (88).
    FourKongs,
    /// 连七对 Seven Shifted Pairs (88).
    SevenShiftedPairs,
    /// 十三幺 Thirteen Orphans (88).
    ThirteenOrphans,
    /// 清幺九 All Terminals (64).
    AllTerminals,
    /// 小四喜 Little Four Winds (64).
    LittleFourWinds,
    /// 小三元 Little Three Dragons (64).
    LittleThreeDragons,
    /// 字一色 All Honors (64).
    AllHonors,
    /// 四暗刻 Four Concealed Pungs (64).
    FourConcealedPungs,
    /// 一色双龙会 Pure Terminal Chows (64).
    PureTerminalChows,
    /// 一色四同顺 Quadruple Chow (48).
    QuadrupleChow,
    /// 一色四节高 Four Pure Shifted Pungs (48).
    FourPureShiftedPungs,
    /// 一色四步高 Four Pure Shifted Chows (32).
    FourPureShiftedChows,
    /// 三杠 Three Kongs (32).
    ThreeKongs,
    /// 混幺九 All Terminals and Honors (32).
    AllTerminalsAndHonors,
    /// 七对 Seven Pairs (24).
    SevenPairs,
    /// 七星不靠 Greater Honors and Knitted Tiles (24).
    GreaterHonorsAndKnittedTiles,
    /// 全双刻 All Even Pungs (24).
    AllEvenPungs,
    /// 清一色 Full Flush (24).
    FullFlush,
    /// 一色三同顺 Pure Triple Chow (24).
    PureTripleChow,
    /// 一色三节高 Pure Shifted Pungs (24).
    PureShiftedPungs,
    /// 全大 Upper Tiles (24).
    UpperTiles,
    /// 全中 Middle Tiles (24).
    MiddleTiles,
    /// 全小 Lower Tiles (24).
    LowerTiles,
    /// 清龙 Pure Straight (16).
    PureStraight,
    /// 三色双龙会 Three-Suited Terminal Chows (16).
    ThreeSuitedTerminalChows,
    /// 一色三步高 Pure Shifted Chows (16).
    PureShiftedChows,
    /// 全带五 All Fives (16).
    AllFives,
    /// 三同刻 Triple Pung (16).
    TriplePung,
    /// 三暗刻 Three Concealed Pungs (16).
    ThreeConcealedPungs,
    /// 全不靠 Lesser Honors and Knitted Tiles (12).
    LesserHonorsAndKnittedTiles,
    /// 组合龙 Knitted Straight (12).
    KnittedStraight,
    /// 大于五 Upper Four (12).
    UpperFour,
    /// 小于五 Lower Four (12).
    LowerFour,
    /// 三风刻 Big Three Winds (12).
    BigThreeWinds,
    /// 花龙 Mixed Straight (8).
    MixedStraight,
    /// 推不倒 Reversible Tiles (8).
    ReversibleTiles,
    /// 三色三同顺 Mixed Triple Chow (8).
    MixedTripleChow,
    /// 三色三节高 Mixed Shifted Pungs (8).
    MixedShiftedPungs,
    /// 无番和 Chicken Hand (8).
    ChickenHand,
    /// 妙手回春 Last Tile Draw (8).
    LastTileDraw,
    /// 海底捞月 Last Tile Claim (8).
    LastTileClaim,
    /// 杠上开花 Out with Replacement Tile (8).
    OutWithReplacementTile,
    /// 抢杠和 Robbing the Kong (8).
    RobbingTheKong,
    /// 碰碰和 All Pungs (6).
    AllPungs,
    /// 混一色 Half Flush (6).
    HalfFlush,
    /// 三色三步高 Mixed Shifted Chows (6).
    MixedShiftedChows,
    /// 五门齐 All Types (6).
    AllTypes,
    /// 全求人 Melded Hand (6).
    MeldedHand,
    /// 双暗杠 Two Concealed Kongs (6).
    TwoConcealedKongs,
    /// 双箭刻 Two Dragon Pungs (6).
    TwoDragonPungs,
    /// 全带幺 Outside Hand (4).
    OutsideHand,
    /// 不求人 Fully Concealed Hand (4).
    FullyConcealedHand,
    /// 双明杠 Two Melded Kongs (4).
    TwoMeldedKongs,
    /// 和绝张 Last Tile (4).
    LastTile,
    /// 箭刻 Dragon Pung (2).
    DragonPung,
    /// 圈风刻 Prevalent Wind (2).
    PrevalentWind,
    /// 门风刻 Seat Wind (2).
    SeatWind,
    /// 门前清 Concealed Hand (2).
    ConcealedHand,
    /// 平和 All Chows (2).
    AllChows,
    /// 四归一 Tile Hog (2).
    TileHog,
    /// 双同刻 Double Pung (2).
    DoublePung,
    /// 双暗刻 Two Concealed Pungs (2).
    TwoConcealedPungs,
    /// 暗杠 Concealed Kong (2).
    ConcealedKong,
    /// 断幺 All Simples (2).
    AllSimples,
    /// 一般高 Pure Double Chow (1).
    PureDoubleChow,
    /// 喜相逢 Mixed Double Chow (1).
    MixedDoubleChow,
    /// 连六 Short Straight (1).
    ShortStraight,
    /// 老少副 Two Terminal Chows (1).
    TwoTerminalChows,
    /// 幺九刻 Pung of Terminals or Honors (1).
    PungOfTerminalsOrHonors,
    /// 明杠 Melded Kong (1).
    MeldedKong,
    /// 缺一门 One Voided Suit (1).
    OneVoidedSuit,
    /// 无字 No Honors (1).
    NoHonors,
    /// 边张 Edge Wait (1).
    EdgeWait,
    /// 嵌张 Closed Wait (1).
    ClosedWait,
    /// 单钓将 Single Wait (1).
    SingleWait,
    /// 自摸 Self-Drawn (1).
    SelfDrawn,
    /// 花牌 Flower Tiles (1).
    FlowerTiles,
}

/// Number of elements in the table.
pub const FANS: usize = 81;

impl Fan {
    /// Every element, in the official table's order.
    pub const ALL: [Fan; FANS] = [
        Fan::BigFourWinds,
        Fan::BigThreeDragons,
        Fan::AllGreen,
        Fan::NineGates,
        Fan::FourKongs,
        Fan::SevenShiftedPairs,
        Fan::ThirteenOrphans,
        Fan::AllTerminals,
        Fan::LittleFourWinds,
        Fan::LittleThreeDragons,
        Fan::AllHonors,
        Fan::FourConcealedPungs,
        Fan::PureTerminalChows,
        Fan::QuadrupleChow,
        Fan::FourPureShiftedPungs,
        Fan::FourPureShiftedChows,
        Fan::ThreeKongs,
        Fan::AllTerminalsAndHonors,
        Fan::SevenPairs,
        Fan::GreaterHonorsAndKnittedTiles,
        Fan::AllEvenPungs,
        Fan::FullFlush,
        Fan::PureTripleChow,
        Fan::PureShiftedPungs,
        Fan::UpperTiles,
        Fan::MiddleTiles,
        Fan::LowerTiles,
        Fan::PureStraight,
        Fan::ThreeSuitedTerminalChows,
        Fan::PureShiftedChows,
        Fan::AllFives,
        Fan::TriplePung,
        Fan::ThreeConcealedPungs,
        Fan::LesserHonorsAndKnittedTiles,
        Fan::KnittedStraight,
        Fan::UpperFour,
        Fan::LowerFour,
        Fan::BigThreeWinds,
        Fan::MixedStraight,
        Fan::ReversibleTiles,
        Fan::MixedTripleChow,
        Fan::MixedShiftedPungs,
        Fan::ChickenHand,
        Fan::LastTileDraw,
        Fan::LastTileClaim,
        Fan::OutWithReplacementTile,
        Fan::RobbingTheKong,
        Fan::AllPungs,
        Fan::HalfFlush,
        Fan::MixedShiftedChows,
        Fan::AllTypes,
        Fan::MeldedHand,
        Fan::TwoConcealedKongs,
        Fan::TwoDragonPungs,
        Fan::OutsideHand,
        Fan::FullyConcealedHand,
        Fan::TwoMeldedKongs,
        Fan::LastTile,
        Fan::DragonPung,
        Fan::PrevalentWind,
        Fan::SeatWind,
        Fan::ConcealedHand,
        Fan::AllChows,
        Fan::TileHog,
        Fan::DoublePung,
        Fan::TwoConcealedPungs,
        Fan::ConcealedKong,
        Fan::AllSimples,
        Fan::PureDoubleChow,
        Fan::MixedDoubleChow,
        Fan::ShortStraight,
        Fan::TwoTerminalChows,
        Fan::PungOfTerminalsOrHonors,
        Fan::MeldedKong,
        Fan::OneVoidedSuit,
        Fan::NoHonors,
        Fan::EdgeWait,
        Fan::ClosedWait,
        Fan::SingleWait,
        Fan::SelfDrawn,
        Fan::FlowerTiles,
    ];

    /// The value of one occurrence.
    pub const fn value(self) -> i64 {
        INFO[self as usize].0
    }

    /// The Chinese name of the official table.
    pub const fn zh(self) -> &'static str {
        INFO[self as usize].1
    }

    /// The standard English name of the MCR translations.
    pub const fn en(self) -> &'static str {
        INFO[self as usize].2
    }

    /// The fans this one implies, directly (不计). Shapes concealed by definition (七对, 十三幺,
    /// 四暗刻 …) never score 门前清 or 不求人 at all, and keep 自摸, so they do not list 不求人
    /// here (its own implication of 自摸 would take that away).
    pub const fn implies(self) -> &'static [Fan] {
        use Fan::*;
        match self {
            BigFourWinds => &[
                BigThreeWinds,
                AllPungs,
                PrevalentWind,
                SeatWind,
                LittleFourWinds,
            ],
            BigThreeDragons => &[TwoDragonPungs, DragonPung, LittleThreeDragons],
            AllGreen => &[HalfFlush],
            NineGates => &[FullFlush, ConcealedHand, NoHonors, OneVoidedSuit],
            FourKongs => &[
                ThreeKongs,
                TwoMeldedKongs,
                MeldedKong,
                TwoConcealedKongs,
                ConcealedKong,
                SingleWait,
                AllPungs,
            ],
            SevenShiftedPairs => &[SevenPairs, FullFlush, ConcealedHand, SingleWait, NoHonors],
            ThirteenOrphans => &[AllTypes, ConcealedHand, SingleWait, AllTerminalsAndHonors],
            AllTerminals => &[
                AllPungs,
                PungOfTerminalsOrHonors,
                OutsideHand,
                NoHonors,
                AllTerminalsAndHonors,
                DoublePung,
            ],
            LittleFourWinds => &[BigThreeWinds],
            LittleThreeDragons => &[TwoDragonPungs, DragonPung],
            AllHonors => &[
                AllPungs,
                PungOfTerminalsOrHonors,
                OutsideHand,
                AllTerminalsAndHonors,
            ],
            FourConcealedPungs => &[
                ConcealedHand,
                AllPungs,
                ThreeConcealedPungs,
                TwoConcealedPungs,
            ],
            PureTerminalChows => &[
                FullFlush,
                AllChows,
                PureDoubleChow,
                TwoTerminalChows,
                NoHonors,
            ],
            QuadrupleChow => &[PureTripleChow, PureDoubleChow, TileHog],
            FourPureShiftedPungs => &[PureShiftedPungs, AllPungs],
            FourPureShiftedChows => &[PureShiftedChows, ShortStraight, TwoTerminalChows],
            ThreeKongs => &[TwoMeldedKongs, MeldedKong, TwoConcealedKongs, ConcealedKong],
            AllTerminalsAndHonors => &[AllPungs, PungOfTerminalsOrHonors, OutsideHand],
            SevenPairs => &[ConcealedHand, SingleWait],
            GreaterHonorsAndKnittedTiles => &[
                LesserHonorsAndKnittedTiles,
                AllTypes,
                ConcealedHand,
                SingleWait,
            ],
            AllEvenPungs => &[AllPungs, AllSimples, NoHonors],
            FullFlush => &[NoHonors, OneVoidedSuit],
            PureTripleChow => &[PureDoubleChow],
            UpperTiles => &[UpperFour, NoHonors],
            MiddleTiles => &[AllSimples, NoHonors],
            LowerTiles => &[LowerFour, NoHonors],
            PureStraight => &[ShortStraight, TwoTerminalChows],
            ThreeSuitedTerminalChows => &[MixedDoubleChow, TwoTerminalChows, NoHonors, AllChows],
            AllFives => &[AllSimples, NoHonors],
            TriplePung => &[DoublePung],
            ThreeConcealedPungs => &[TwoConcealedPungs],
            LesserHonorsAndKnittedTiles => &[AllTypes, ConcealedHand, SingleWait],
            UpperFour => &[NoHonors],
            LowerFour => &[NoHonors],
            ReversibleTiles => &[OneVoidedSuit],
            LastTileDraw => &[SelfDrawn],
            OutWithReplacementTile => &[SelfDrawn],
            RobbingTheKong => &[LastTile],
            MeldedHand => &[SingleWait],
            TwoConcealedKongs => &[ConcealedKong, TwoConcealedPungs],
            TwoDragonPungs => &[DragonPung],
            FullyConcealedHand => &[SelfDrawn, ConcealedHand],
            TwoMeldedKongs => &[MeldedKong],
            AllChows => &[NoHonors],
            AllSimples => &[NoHonors],
            _ => &[],
        }
    }

    /// The fans this one excludes, a bit per fan. Not transitive: a fan excluded by an
    /// excluded fan is still scored unless listed itself (三杠 drops 双暗杠 but not the 双暗刻
    /// that 双暗杠 alone would drop), so each list above is complete as written.
    pub const fn implied(self) -> u128 {
        IMPLIED[self as usize]
    }
}

/// [`Fan::implied`] of every fan, by table position: built once, when compiling.
const IMPLIED: [u128; FANS] = {
    let mut out = [0u128; FANS];
    let mut f = 0;
    while f < FANS {
        let implies = Fan::ALL[f].implies();
        let mut g = 0;
        while g < implies.len() {
            out[f] |= 1u128 << (implies[g] as usize);
            g += 1;
        }
        f += 1;
    }
    out
};

/// Value, Chinese and English name, in table order.
const INFO: [(i64, &str, &str); FANS] = [
    (88, "大四喜", "Big Four Winds"),
    (88, "大三元", "Big Three Dragons"),
    (88, "绿一色", "All Green"),
    (88, "九莲宝灯", "Nine Gates"),
    (88, "四杠", "Four Kongs"),
    (88, "连七对", "Seven Shifted Pairs"),
    (88, "十三幺", "Thirteen Orphans"),
    (64, "清幺九", "All Terminals"),
    (64, "小四喜", "Little Four Winds"),
    (64, "小三元", "Little Three Dragons"),
    (64, "字一色", "All Honors"),
    (64, "四暗刻", "Four Concealed Pungs"),
    (64, "一色双龙会", "Pure Terminal Chows"),
    (48, "一色四同顺", "Quadruple Chow"),
    (48, "一色四节高", "Four Pure Shifted Pungs"),
    (32, "一色四步高", "Four Pure Shifted Chows"),
    (32, "三杠", "Three Kongs"),
    (32, "混幺九", "All Terminals and Honors"),
    (24, "七对", "Seven Pairs"),
    (24, "七星不靠", "Greater Honors and Knitted Tiles"),
    (24, "全双刻", "All Even Pungs"),
    (24, "清一色", "Full Flush"),
    (24, "一色三同顺", "Pure Triple Chow"),
    (24, "一色三节高", "Pure Shifted Pungs"),
    (24, "全大", "Upper Tiles"),
    (24, "全中", "Middle Tiles"),
    (24, "全小", "Lower Tiles"),
    (16, "清龙", "Pure Straight"),
    (16, "三色双龙会", "Three-Suited Terminal Chows"),
    (16, "一色三步高", "Pure Shifted Chows"),
    (16, "全带五", "All Fives"),
    (16, "三同刻", "Triple Pung"),
    (16, "三暗刻", "Three Concealed Pungs"),
    (12, "全不靠", "Lesser Honors and Knitted Tiles"),
    (12, "组合龙", "Knitted Straight"),
    (12, "大于五", "Upper Four"),
    (12, "小于五", "Lower Four"),
    (12, "三风刻", "Big Three Winds"),
    (8, "花龙", "Mixed Straight"),
    (8, "推不倒", "Reversible Tiles"),
    (8, "三色三同顺", "Mixed Triple Chow"),
    (8, "三色三节高", "Mixed Shifted Pungs"),
    (8, "无番和", "Chicken Hand"),
    (8, "妙手回春", "Last Tile Draw"),
    (8, "海底捞月", "Last Tile Claim"),
    (8, "杠上开花", "Out with Replacement Tile"),
    (8, "抢杠和", "Robbing the Kong"),
    (6, "碰碰和", "All Pungs"),
    (6, "混一色", "Half Flush"),
    (6, "三色三步高", "Mixed Shifted Chows"),
    (6, "五门齐", "All Types"),
    (6, "全求人", "Melded Hand"),
    (6, "双暗杠", "Two Concealed Kongs"),
    (6, "双箭刻", "Two Dragon Pungs"),
    (4, "全带幺", "Outside Hand"),
    (4, "不求人", "Fully Concealed Hand"),
    (4, "双明杠", "Two Melded Kongs"),
    (4, "和绝张", "Last Tile"),
    (2, "箭刻", "Dragon Pung"),
    (2, "圈风刻", "Prevalent Wind"),
    (2, "门风刻", "Seat Wind"),
    (2, "门前清", "Concealed Hand"),
    (2, "平和", "All Chows"),
    (2, "四归一", "Tile Hog"),
    (2, "双同刻", "Double Pung"),
    (2, "双暗刻", "Two Concealed Pungs"),
    (2, "暗杠", "Concealed Kong"),
    (2, "断幺", "All Simples"),
    (1, "一般高", "Pure Double Chow"),
    (1, "喜相逢", "Mixed Double Chow"),
    (1, "连六", "Short Straight"),
    (1, "老少副", "Two Terminal Chows"),
    (1, "幺九刻", "Pung of Terminals or Honors"),
    (1, "明杠", "Melded Kong"),
    (1, "缺一门", "One Voided Suit"),
    (1, "无字", "No Honors"),
    (1, "边张", "Edge Wait"),
    (1, "嵌张", "Closed Wait"),
    (1, "单钓将", "Single Wait"),
    (1, "自摸", "Self-Drawn"),
    (1, "花牌", "Flower Tiles"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_order_of_value_and_no_fan_implies_itself() {
        for w in Fan::ALL.windows(2) {
            assert!(w[0].value() >= w[1].value(), "{:?} before {:?}", w[0], w[1]);
            assert!((w[0] as usize) < (w[1] as usize));
        }
        for f in Fan::ALL {
            assert_eq!(f.implied() & (1 << f as usize), 0, "{f:?}");
            for &g in f.implies() {
                assert_eq!(g.implied() & (1 << f as usize), 0, "{f:?} and {g:?}");
            }
            for &g in f.implies() {
                assert!(g.value() <= f.value(), "{f:?} implies the larger {g:?}");
            }
        }
        assert_eq!(Fan::ALL.iter().filter(|f| f.value() == 88).count(), 7);
    }
}
