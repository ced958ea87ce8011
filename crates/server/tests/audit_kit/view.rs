//! Snapshots: the `view` of a `snapshot` read into the model's terms, checked for what no
//! observer may be shown (another seat's concealed kong face up; for a spectator, any own
//! tiles at all), compared with the observer's model and with the public state at the pause it
//! was asked for, then adopted as the model.

use serde_json::Value;

use super::facts::{Meld, Own, Public, SeatFacts, Win};
use super::model::Model;
use super::tiles::{sorted, strings};

/// What a snapshot showed, for the run's counts.
#[derive(Default)]
pub struct Seen {
    /// It held a hand in play.
    pub mid_hand: bool,
    /// Other seats' concealed kongs it showed face down.
    pub hidden_kongs: u64,
    /// Seat 0's concealed kong among them.
    pub seat0_hidden: bool,
}

/// Checks the snapshot `table` for the model's observer. `exact`: the model holds every event
/// up to the snapshot, so the two must agree in full. `expected`: the public state the paused
/// seat held (nothing happens in a hand while a seat owes its turn), which must agree too.
pub fn check(model: &mut Model, table: &Value, exact: bool, expected: Option<&Public>) -> Seen {
    let mut seen = Seen::default();
    let me = model.me;
    let mut problems = Vec::new();
    match me {
        None => {
            for field in ["seat", "code", "prompt"] {
                if !table[field].is_null() {
                    problems.push(format!("LEAK: a spectator's snapshot has `{field}`"));
                }
            }
        }
        Some(seat) if table["seat"].as_u64() != Some(seat as u64) => {
            problems.push(format!(
                "a snapshot for seat {seat} names seat {}",
                table["seat"]
            ));
        }
        Some(_) => {}
    }
    let hand_no = table["hand_no"].as_u64().unwrap_or_default();
    let view = &table["view"];
    if view.is_null() {
        if expected.is_some() || (exact && model.public.is_some()) {
            problems.push("a snapshot without the hand in play".into());
        }
        model.adopt(hand_no, None, Own::default());
        model.problems.extend(problems);
        return seen;
    }
    seen.mid_hand = true;
    let (public, own) = read(view, model.players, &mut problems);
    for (i, facts) in public.seats.iter().enumerate() {
        for meld in &facts.melds {
            match meld {
                Meld::Open { shape, tiles, .. } if shape == "concealed_kong" && me != Some(i) => {
                    problems.push(format!(
                        "LEAK: seat {i}'s concealed kong face up: {tiles:?}"
                    ));
                }
                Meld::Hidden if me == Some(i) => {
                    problems.push("the seat's own concealed kong face down".into());
                }
                Meld::Hidden => {
                    seen.hidden_kongs += 1;
                    seen.seat0_hidden |= i == 0;
                }
                Meld::Open { .. } => {}
            }
        }
    }
    match me {
        None if own != Own::default() => {
            problems.push(format!("LEAK: a spectator's view holds own tiles: {own:?}"));
        }
        None if !view["seat"].is_null() => {
            problems.push(format!("a spectator's view is seat {}'s", view["seat"]));
        }
        None => {}
        Some(seat) => {
            if view["seat"].as_u64().is_some_and(|s| s != seat as u64) {
                problems.push(format!("the view is seat {}'s", view["seat"]));
            }
            let count = public.seats.get(seat).map_or(0, |f| f.concealed);
            if own.hand.len() != count {
                problems.push(format!(
                    "the view's hand has {} tiles, its count {count}",
                    own.hand.len()
                ));
            }
        }
    }
    if exact && let Some(held) = &model.public {
        if let Some(d) = diff(&public, held) {
            problems.push(format!("the snapshot differs from the model: {d}"));
        }
        if own != model.own {
            problems.push(format!(
                "the snapshot's own tiles {own:?}; the model's {:?}",
                model.own
            ));
        }
        let offered = view["offered"].as_str();
        let robbing = table["prompt"]["legal"]
            .as_array()
            .is_some_and(|l| l.iter().any(|a| a["type"] == "win"));
        // `offered` is the tile of a claim window still open: none once it closed, and a
        // window may close before the next event. Only a seat that may rob a concealed kong is
        // shown that kong's tile.
        let excused = offered.is_none() || (model.concealed_kong_on_offer() && robbing);
        if offered != model.offered() && !excused {
            problems.push(format!(
                "offered {offered:?}; the model has {:?}",
                model.offered()
            ));
        }
    }
    // The paused seat holds its own concealed kongs face up: compare as a spectator sees both.
    if let Some(expected) = expected
        && let Some(d) = diff(&public.as_seen_by(None), &expected.as_seen_by(None))
    {
        problems.push(format!(
            "the snapshot differs from the paused seat's view: {d}"
        ));
    }
    model.adopt(hand_no, Some(public), own);
    model.problems.extend(problems);
    seen
}

/// The view's public facts and own tiles.
fn read(view: &Value, players: usize, problems: &mut Vec<String>) -> (Public, Own) {
    let seats = view["seats"].as_array().cloned().unwrap_or_default();
    if seats.len() != players {
        problems.push(format!("the view has {} seats", seats.len()));
    }
    let public = Public {
        dealer: view["dealer"].as_u64().unwrap_or_default(),
        round_wind: view["round_wind"].as_str().unwrap_or_default().to_string(),
        dice: view["dice"]
            .as_array()
            .map(|d| d.iter().filter_map(Value::as_u64).collect())
            .unwrap_or_default(),
        wild: view["wild"].as_str().map(String::from),
        bonus: strings(&view["bonus"]),
        seabed: view["seabed"].as_u64(),
        seats: seats.iter().map(|s| seat_facts(s, problems)).collect(),
    };
    if let Some(drawn) = view["drawn"].as_str()
        && !strings(&view["hand"]).iter().any(|t| t == drawn)
    {
        problems.push(format!("the view's drawn tile {drawn} is not in its hand"));
    }
    let own = Own {
        hand: sorted(strings(&view["hand"])),
        void: view["own_void"].as_str().map(String::from),
        swap_marked: sorted(strings(&view["swap_marked"])),
    };
    (public, own)
}

fn seat_facts(s: &Value, problems: &mut Vec<String>) -> SeatFacts {
    let mut melds = Vec::new();
    for m in s["melds"].as_array().into_iter().flatten() {
        match Meld::parse(m) {
            Ok(meld) => melds.push(meld),
            Err(e) => problems.push(e),
        }
    }
    let river: Vec<(String, bool)> = s["river"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            let tile = d["tile"].as_str().unwrap_or_default().to_string();
            (tile, d["claimed"] == true)
        })
        .collect();
    let unclaimed: Vec<String> = river
        .iter()
        .filter(|(_, claimed)| !claimed)
        .map(|(t, _)| t.clone())
        .collect();
    if strings(&s["discards"]) != unclaimed {
        problems.push(format!(
            "discards {} are not the river's unclaimed tiles {unclaimed:?}",
            s["discards"]
        ));
    }
    SeatFacts {
        melds,
        flowers: strings(&s["flowers"]),
        river,
        concealed: s["concealed"].as_u64().unwrap_or_default() as usize,
        void: s["void"].as_str().map(String::from),
        won: Win::parse(&s["won"]),
        ready: s["ready"] == true,
    }
}

/// The first difference between two public states, described; None when they agree.
pub fn diff(shown: &Public, held: &Public) -> Option<String> {
    let top = [
        ("dealer", shown.dealer == held.dealer),
        ("round_wind", shown.round_wind == held.round_wind),
        ("dice", shown.dice == held.dice),
        ("wild", shown.wild == held.wild),
        ("bonus", shown.bonus == held.bonus),
        ("seabed", shown.seabed == held.seabed),
        ("seats", shown.seats.len() == held.seats.len()),
    ];
    if let Some((field, _)) = top.iter().find(|(_, same)| !same) {
        return Some(format!(
            "`{field}`: shown {:?}, held {:?}",
            brief(shown),
            brief(held)
        ));
    }
    for (i, (a, b)) in shown.seats.iter().zip(&held.seats).enumerate() {
        if in_any_order(a) != in_any_order(b) {
            return Some(format!("seat {i}: shown {a:?}, held {b:?}"));
        }
    }
    None
}

/// A seat's facts with its melds and flowers sorted: the protocol does not fix their order (the
/// server lists flowers of a deal in another order than their events, and moves a pung that
/// became an added kong to the end of the melds).
fn in_any_order(facts: &SeatFacts) -> SeatFacts {
    let mut facts = facts.clone();
    facts.flowers.sort();
    facts.melds.sort_by_key(|m| format!("{m:?}"));
    facts
}

fn brief(p: &Public) -> String {
    format!(
        "dealer {} wind {} dice {:?} wild {:?} bonus {:?} seabed {:?} seats {}",
        p.dealer,
        p.round_wind,
        p.dice,
        p.wild,
        p.bonus,
        p.seabed,
        p.seats.len()
    )
}
