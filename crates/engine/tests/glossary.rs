//! Every settlement line name the engine emits has an English name ([`engine::english`]), found
//! three ways, each reporting all the names it misses at once:
//! - by playing seeded random hands of every preset (and the room options that change which
//!   lines appear) and reading each settlement's fan items and extra lines;
//! - by settling every conformance vector (`conformance/`, and `MAHJONG_EXTRA_VECTORS` when set);
//! - by reading the families' sources for the names they can emit, which finds the lines random
//!   play almost never reaches (大车轮, 四惠牌, 八花齐 …).
//!
//! `GLOSSARY_HANDS` sets the hands per preset (default 2,000; 200 in the quick loop).

mod knobs;
mod policy;
mod vector_files;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use engine::format::{ScoreOutput, SettleOutput, score_text, settle_text};
use engine::ruleset::{OptionValue, RawOptions, Ruleset, RulesetId};
use engine::settle::{Carried, Settlement};
use engine::wall::SeededRng;
use engine::{Game, Seat, Wind, english};

/// Names seen, each with the first place it was seen (a preset and seed, or a file and line).
#[derive(Default)]
struct Seen(BTreeMap<String, String>);

impl Seen {
    fn add(&mut self, name: &str, place: impl FnOnce() -> String) {
        if !self.0.contains_key(name) {
            self.0.insert(name.to_owned(), place());
        }
    }

    fn settlement(&mut self, st: &Settlement, place: impl Fn() -> String) {
        let items = st.fans.iter().flat_map(|f| f.items.iter().map(|i| i.name));
        for name in items.chain(st.extras.iter().map(|e| e.name)) {
            self.add(name, &place);
        }
    }

    /// Fails naming every name without an English entry, and where it was seen.
    fn assert_all_named(&self, source: &str) {
        let missing: Vec<String> = self
            .0
            .iter()
            .filter(|(name, _)| english(name).is_none())
            .map(|(name, place)| format!("{name} (first seen in {place})"))
            .collect();
        assert!(
            missing.is_empty(),
            "{} line names from {source} have no English name in engine::glossary:\n{}",
            missing.len(),
            missing.join("\n")
        );
    }
}

// ----- random play ---------------------------------------------------------------------------

fn hands_per_preset() -> u64 {
    knobs::count("GLOSSARY_HANDS", 2_000, 200)
}

/// Every preset with its defaults, and the room options that change which lines a hand can
/// show (a robbed concealed kong, more 花牌 kinds, the swap, the next 财神, the discarder paying
/// all, a fan minimum).
fn rulesets() -> Vec<Ruleset> {
    let with = |id: RulesetId, options: &[(&str, OptionValue)]| {
        let raw: RawOptions = options
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect();
        Ruleset::new(id, &raw).unwrap_or_else(|e| panic!("{id}: {e}"))
    };
    let mut out: Vec<Ruleset> = RulesetId::ALL.into_iter().map(|id| with(id, &[])).collect();
    out.extend([
        with(
            RulesetId::Beijing,
            &[("dragon_robs_concealed_kong", OptionValue::Bool(true))],
        ),
        with(RulesetId::TwoPlayer, &[("huapai", OptionValue::Int(3))]),
        with(RulesetId::TwoPlayer, &[("swap", OptionValue::Bool(true))]),
        with(
            RulesetId::Ningbo,
            &[("caishen_rule", OptionValue::Text("next".into()))],
        ),
        with(
            RulesetId::Wuhu,
            &[("discarder_pays_all", OptionValue::Bool(true))],
        ),
        with(RulesetId::Guangdong, &[("min_fan", OptionValue::Int(2))]),
    ]);
    out
}

/// Plays one hand to its end with the property suites' policy. The carried state varies with
/// the seed, so that streak multipliers (黄庄, 连庄), 上楼 and 荒番 show up.
fn play(ruleset: &Ruleset, seed: u64) -> Game {
    let mut rng = SeededRng::new(seed.wrapping_mul(0x9e37_79b9).wrapping_add(11));
    let players = u64::from(ruleset.rules().flow().players);
    let dealer = Seat::new((seed % players) as u8).expect("a seat at the table");
    let round_wind = (0..seed % 4).fold(Wind::East, |w, _| w.next());
    let carried = Carried {
        dealer_streak: (seed % 4) as u32,
        draw_streak: (seed % 3) as u32,
        draw_bonus: (seed % 2) as u32,
        ..Carried::default()
    };
    let mut game = Game::new(ruleset.clone(), seed, dealer, round_wind, carried);
    for _ in 0..2_000 {
        if game.is_over() {
            return game;
        }
        let acting: Vec<Seat> = game
            .table_seats()
            .filter(|&s| !game.legal_actions(s).is_empty())
            .collect();
        assert!(!acting.is_empty(), "seed {seed}: nobody can act");
        let seat = acting[rng.below(acting.len() as u32) as usize];
        let legal = game.legal_actions(seat).to_vec();
        let action = policy::choose(&game, seat, &legal, &mut rng);
        game.apply(seat, action)
            .unwrap_or_else(|e| panic!("seed {seed}: listed {action} refused: {e}"));
    }
    panic!("{} seed {seed}: the hand does not end", ruleset.id());
}

#[test]
fn every_line_of_random_hands_has_an_english_name() {
    let hands = hands_per_preset();
    let mut seen = Seen::default();
    for ruleset in rulesets() {
        for seed in 0..hands {
            let game = play(&ruleset, seed);
            let st = game.settlement().unwrap_or_else(|| {
                panic!("{} seed {seed}: {:?}", ruleset.id(), game.settle_error())
            });
            seen.settlement(st, || format!("{} seed {seed}", ruleset.id()));
        }
    }
    // The suite sees lines at all: items of several families and extra lines.
    for name in ["平胡", "查叫", "刮风", "放冲", "支番", "推倒胡", "鸡胡"] {
        assert!(
            seen.0.contains_key(name) || hands < 1_000,
            "random play never showed {name}"
        );
    }
    seen.assert_all_named("random hands");
}

// ----- the conformance vectors ---------------------------------------------------------------

/// The vector folders the conformance suite reads.
fn vector_folders() -> Vec<PathBuf> {
    let mut out = vec![vector_files::repository()];
    out.extend(std::env::var_os("MAHJONG_EXTRA_VECTORS").map(PathBuf::from));
    out
}

#[test]
fn every_line_of_the_conformance_vectors_has_an_english_name() {
    let mut seen = Seen::default();
    let (mut settled, mut scored) = (0usize, 0usize);
    for folder in vector_folders() {
        for file in vector_files::jsonl_files(&folder) {
            if vector_files::is_expected(&file) {
                continue;
            }
            let settle = vector_files::expected_of(&file).exists();
            let text = fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file:?}: {e}"));
            for (n, line) in text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
            {
                let place = || format!("{}:{}", file.display(), n + 1);
                if settle {
                    if let SettleOutput::Settled { fans, extras, .. } = settle_text(line) {
                        settled += 1;
                        let items = fans.iter().flat_map(|f| f.items.iter().map(|i| &i.name));
                        for name in items.chain(extras.iter().map(|e| &e.name)) {
                            seen.add(name, place);
                        }
                    }
                } else if let ScoreOutput::Scored { fans, .. } = score_text(line) {
                    scored += 1;
                    for f in &fans {
                        seen.add(f.name_zh, place);
                    }
                }
            }
        }
    }
    assert!(
        settled >= 100 && scored >= 1_000,
        "only {settled} settled vectors and {scored} golden hands read"
    );
    seen.assert_all_named("the conformance vectors");
}

// ----- the families' sources -----------------------------------------------------------------

/// The families' source files, test files left out.
/// `variants/mod.rs`: the registry names presets, not settlement lines.
fn is_registry(path: &Path) -> bool {
    path.file_stem().is_some_and(|s| s == "mod")
        && path.parent().is_some_and(|p| p.ends_with("variants"))
}

fn variant_sources() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a folder entry").path();
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            // The toy family exists only in the engine's own tests.
            if path.is_dir() && stem != "toy" {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs")
                && !matches!(stem, "tests" | "testing")
                && !is_registry(&path)
                && !stem.ends_with("_tests")
            {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src/variants"),
        &mut out,
    );
    out.sort();
    out
}

/// The string literals of Rust source that can be line names: all Chinese, no ASCII (error
/// messages and tile notation have ASCII), with their line numbers. Comments, `#[cfg(test)]`
/// blocks and the arguments of `OptionSpec::…(…)` (room option labels, not lines) are skipped.
fn name_literals(src: &str) -> Vec<(usize, String)> {
    let chars: Vec<char> = src.chars().collect();
    let at = |i: usize, s: &str| {
        s.chars()
            .enumerate()
            .all(|(k, c)| chars.get(i + k) == Some(&c))
    };
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let (mut parens, mut braces) = (0i32, 0i32);
    // The paren depth inside an `OptionSpec::` call, the brace depth inside a test block.
    let (mut option_call, mut test_block): (Option<i32>, Option<i32>) = (None, None);
    let (mut option_next, mut test_next) = (false, false);
    while i < chars.len() {
        let c = chars[i];
        if at(i, "//") {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if at(i, "/*") {
            i += 2;
            while i < chars.len() && !at(i, "*/") {
                line += usize::from(chars[i] == '\n');
                i += 1;
            }
            i += 2;
            continue;
        }
        let ident_before = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        // r"…" and r#"…"#: no escapes inside.
        if c == 'r' && !ident_before {
            let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
            if chars.get(i + 1 + hashes) == Some(&'"') {
                let close: String = std::iter::once('"')
                    .chain("#".repeat(hashes).chars())
                    .collect();
                let (start, first_line) = (i + 2 + hashes, line);
                i = start;
                while i < chars.len() && !at(i, &close) {
                    line += usize::from(chars[i] == '\n');
                    i += 1;
                }
                let text: String = chars[start..i.min(chars.len())].iter().collect();
                if option_call.is_none() && test_block.is_none() {
                    out.push((first_line, text));
                }
                i += close.chars().count();
                continue;
            }
        }
        if c == '"' {
            let (start, first_line) = (i + 1, line);
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                line += usize::from(chars.get(i) == Some(&'\n'));
                i += 1;
            }
            let text: String = chars[start..i.min(chars.len())].iter().collect();
            if option_call.is_none() && test_block.is_none() {
                out.push((first_line, text));
            }
            i += 1;
            continue;
        }
        if c == '\'' {
            // A char literal ('x', '\n', '\''), or a lifetime ('a).
            if chars.get(i + 1) == Some(&'\\') {
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
            continue;
        }
        if !ident_before && at(i, "OptionSpec::") {
            option_next = true;
        }
        if at(i, "#[cfg(test)]") {
            test_next = true;
        }
        match c {
            '(' => {
                parens += 1;
                if option_next {
                    option_call = option_call.or(Some(parens));
                    option_next = false;
                }
            }
            ')' => {
                if option_call == Some(parens) {
                    option_call = None;
                }
                parens -= 1;
            }
            '{' => {
                braces += 1;
                if test_next {
                    test_block = test_block.or(Some(braces));
                    test_next = false;
                }
            }
            '}' => {
                if test_block == Some(braces) {
                    test_block = None;
                }
                braces -= 1;
            }
            // `#[cfg(test)] mod tests;`: nothing to skip here.
            ';' => test_next = false,
            '\n' => line += 1,
            _ => {}
        }
        i += 1;
    }
    out.into_iter()
        .filter(|(_, s)| {
            s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
                && !s.chars().any(|c| c.is_ascii())
        })
        .collect()
}

/// Names the source scan must find: one or more of every family, the extra lines, the
/// multipliers, and lines random play hardly ever shows.
const SCAN_FINDS: &str = "大四喜 四方大发 查叫 下雨 退税 黄庄 承包 荒番 开宝 烧庄 跟庄 抢杠包三家 \
    一炮三响 放冲 杠上开花包 吃碰三摊 支番 四核 八花 大车轮 东北新干线 捉五魁 四惠牌 风暗杠 幺九";

/// Chinese literals of the families' sources that are no line: room option labels, a name
/// quoted in a comment, the test ruleset's line.
const SCAN_SKIPS: &str = "底分 房间系数 刮风下雨 一条龙抢暗杠 杠后杠上开花 和";

#[test]
fn every_line_name_in_the_families_sources_has_an_english_name() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seen = Seen::default();
    let files = variant_sources();
    for file in &files {
        let src = fs::read_to_string(file).unwrap_or_else(|e| panic!("{file:?}: {e}"));
        let shown = file
            .strip_prefix(root)
            .unwrap_or(file)
            .display()
            .to_string();
        for (line, name) in name_literals(&src) {
            seen.add(&name, || format!("{shown}:{line}"));
        }
    }
    // What the scan catches: the names of every family, the extra lines and multipliers …
    let missed: Vec<&str> = SCAN_FINDS
        .split(' ')
        .filter(|n| !seen.0.contains_key(*n))
        .collect();
    assert!(missed.is_empty(), "the scan missed {missed:?}");
    // … and not room option labels, names in comments, or test-only lines.
    for not_a_line in SCAN_SKIPS.split(' ') {
        assert!(
            !seen.0.contains_key(not_a_line),
            "the scan took {not_a_line} (at {}) for a line name",
            seen.0[not_a_line]
        );
    }
    assert!(
        files.len() >= 20 && seen.0.len() >= 150,
        "only {} names in {} files",
        seen.0.len(),
        files.len()
    );
    seen.assert_all_named("the families' sources");
    // The other way round: every entry of the glossary is a line some family emits, so a line
    // renamed in its family does not leave its old name behind.
    let unused: Vec<&str> = engine::glossary::entries()
        .map(|(zh, _)| zh)
        .filter(|zh| !seen.0.contains_key(*zh))
        .collect();
    assert!(
        unused.is_empty(),
        "glossary entries no family emits: {unused:?}"
    );
}

/// The scanner itself, on a small text holding each thing it must skip.
#[test]
fn the_source_scan_skips_comments_options_tests_and_messages() {
    let src = r###"
        // "注释" in a comment
        /* "块注释" */
        const BASE: OptionSpec = OptionSpec::int("base", "底分", "Base", 1..=5);
        const FLAG: OptionSpec = OptionSpec::bool(
            "flag",
            "选项",
            "A flag",
        );
        fn f<'a>(x: &'a str) -> char { let q = '"'; let e = '\''; rows.push(("清一色", 2)); q }
        fn g() -> &'static str { if x { "花猪" } else { r#"查叫"# } }
        fn h() -> String { format!("{} 台 is below the minimum", 3) }
        #[cfg(test)]
        mod tests {
            fn t() { assert_eq!(name, "测试"); }
        }
        #[cfg(test)]
        mod outside;
        const LAST: &str = "承包";
    "###;
    let found: Vec<String> = name_literals(src).into_iter().map(|(_, s)| s).collect();
    assert_eq!(found, ["清一色", "花猪", "查叫", "承包"]);
}
