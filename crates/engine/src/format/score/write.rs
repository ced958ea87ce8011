//! A scored line's answer written straight into bytes, exactly as serde_json writes the
//! [`ScoreOutput::Scored`](super::ScoreOutput::Scored) it stands for.
//!
//! Why: building the answer's values and having serde_json escape every fan's names and keys
//! again on every line was about a seventh of `mahjong score`'s cost (docs/PERFORMANCE.md, issue
//! 30). Each fan's object up to its count is written once per process and copied.

use std::sync::LazyLock;

use super::LineId;
use crate::variants::guobiao::fan::FANS;
use crate::variants::guobiao::{Fan, Scored};

/// `{"name_zh":"…","name_en":"…","points":N,"count":` of each fan, by `fan as usize` (the
/// order of [`Fan::ALL`]).
static HEADS: LazyLock<[Box<[u8]>; FANS]> =
    LazyLock::new(|| std::array::from_fn(|i| head(Fan::ALL[i])));

/// The start of `fan`'s object, up to its count: the fields of [`ScoredFan`] in its order.
/// The names hold no character that JSON escapes (a test holds them to it), so they are copied
/// as they are.
fn head(fan: Fan) -> Box<[u8]> {
    let mut out = Vec::with_capacity(96);
    out.extend_from_slice(b"{\"name_zh\":\"");
    out.extend_from_slice(fan.zh().as_bytes());
    out.extend_from_slice(b"\",\"name_en\":\"");
    out.extend_from_slice(fan.en().as_bytes());
    out.extend_from_slice(b"\",\"points\":");
    push_int(&mut out, fan.value());
    out.extend_from_slice(b",\"count\":");
    out.into_boxed_slice()
}

/// Writes `n` in decimal, as serde_json writes an integer.
fn push_int(out: &mut Vec<u8>, n: i64) {
    if n < 0 {
        out.push(b'-');
    }
    // u64::MAX has 20 digits.
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n.unsigned_abs();
    while at > 0 {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

/// Writes `{"id":…,"fans":[…],"total":…,"legal":…}` for a scored hand.
///
/// # Errors
/// serde_json's, writing a text id; writing into a `Vec` never fails.
pub(super) fn scored(
    id: &LineId<'_>,
    scored: &Scored,
    legal: bool,
    out: &mut Vec<u8>,
) -> serde_json::Result<()> {
    out.extend_from_slice(b"{\"id\":");
    match *id {
        LineId::Number(n) => push_int(out, n),
        LineId::Text(s) => serde_json::to_writer(&mut *out, s)?,
    }
    out.extend_from_slice(b",\"fans\":[");
    let heads = &*HEADS;
    for (i, &(fan, count)) in scored.fans.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(&heads[fan as usize]);
        push_int(out, i64::from(count));
        out.push(b'}');
    }
    out.extend_from_slice(b"],\"total\":");
    push_int(out, scored.total);
    out.extend_from_slice(if legal {
        b",\"legal\":true}"
    } else {
        b",\"legal\":false}"
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::ScoredFan;
    use super::*;

    #[test]
    fn every_fan_is_written_as_serde_json_writes_it() {
        for fan in Fan::ALL {
            for name in [fan.zh(), fan.en()] {
                let json = serde_json::to_string(name).expect("a name serializes");
                assert_eq!(json, format!("\"{name}\""), "{fan:?} needs escaping");
            }
            let whole = ScoredFan {
                name_zh: fan.zh(),
                name_en: fan.en(),
                points: fan.value(),
                count: 3,
            };
            let want = serde_json::to_vec(&whole).expect("a fan serializes");
            let mut got = HEADS[fan as usize].to_vec();
            got.extend_from_slice(b"3}");
            assert_eq!(got, want, "{fan:?}");
        }
    }

    #[test]
    fn integers_are_written_as_serde_json_writes_them() {
        for n in [
            0,
            7,
            10,
            -1,
            -10,
            88,
            1_000_000,
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
        ] {
            let mut got = Vec::new();
            push_int(&mut got, n);
            assert_eq!(got, n.to_string().into_bytes(), "{n}");
        }
    }
}
