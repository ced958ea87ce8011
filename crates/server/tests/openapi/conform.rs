//! What an answer must be, given the document and the request that drew it: a status the
//! operation declares; the content type it declares for that status, a JSON body that fits the
//! declared schema (an empty body where none is declared), and every header it declares, of
//! its schema; no 5xx unless allowed; and, where the mutation makes the outcome certain, the
//! status the document's own description of the operation implies (401 without a session, 415
//! for a JSON body without its content type, 413 for a body over the limit …).

use serde_json::Value;

use super::generate::{Mutation, Request};
use super::spec::{Operation, Spec};
use crate::common::Answer;

/// The media type of an answer (`text/plain` of `text/plain; charset=utf-8`), if it has one.
fn media_type(answer: &Answer) -> Option<String> {
    answer.head.lines().find_map(|l| {
        let value = l.strip_prefix("content-type:")?;
        Some(value.split(';').next().unwrap_or("").trim().to_string())
    })
}

/// The value of a header of the answer, if present.
fn header<'a>(answer: &'a Answer, name: &str) -> Option<&'a str> {
    let prefix = format!("{}:", name.to_ascii_lowercase());
    answer
        .head
        .lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()).map(str::trim))
}

/// Everything wrong with `answer` to `request` on `op`: [`declared`] and [`implied`].
pub fn problems(spec: &Spec, op: &Operation, request: &Request, answer: &Answer) -> Vec<String> {
    let mut out = declared(spec, op, answer, false);
    out.extend(implied(op, request, answer));
    out
}

/// What is wrong with `answer` on `op` whatever the request: a 5xx (but a declared 503 when
/// `allow_unavailable`: the database was closed on purpose), a status not declared, content
/// or headers other than declared.
pub fn declared(
    spec: &Spec,
    op: &Operation,
    answer: &Answer,
    allow_unavailable: bool,
) -> Vec<String> {
    let mut out = Vec::new();
    let status = answer.status;
    if status >= 500 && !(allow_unavailable && status == 503) {
        out.push(format!("a server error, {status}: {}", answer.body));
    }
    let Some(response) = op.responses.get(&status) else {
        let declared: Vec<u16> = op.responses.keys().copied().collect();
        out.push(format!(
            "status {status} is not declared (declared: {declared:?}); body {}",
            answer.body
        ));
        return out;
    };
    out.extend(content_problems(spec, response, answer));
    out.extend(header_problems(spec, response, answer));
    out
}

/// The status is one the document implies for this request, where the mutation decides it.
pub fn implied(op: &Operation, request: &Request, answer: &Answer) -> Option<String> {
    let expected = implied_status(op, request)?;
    (!expected.contains(&answer.status)).then(|| {
        format!(
            "expected one of {expected:?} for this request, got {}: {}",
            answer.status, answer.body
        )
    })
}

/// The declared content against the answer's type and body.
fn content_problems(spec: &Spec, response: &Value, answer: &Answer) -> Vec<String> {
    let content = response["content"].as_object().filter(|c| !c.is_empty());
    let Some(content) = content else {
        return match &answer.body {
            Value::Null => Vec::new(),
            body => vec![format!("no content is declared, but the body is {body}")],
        };
    };
    let Some(media) = media_type(answer) else {
        return vec!["the answer has no content type".into()];
    };
    let Some(declared) = content.get(&media) else {
        let listed: Vec<&String> = content.keys().collect();
        return vec![format!("content type {media} is not declared ({listed:?})")];
    };
    if media != "application/json" {
        return Vec::new();
    }
    match spec.misfit(&declared["schema"], &answer.body) {
        Some(why) => vec![format!(
            "the body does not fit its schema: {why}; body {}",
            answer.body
        )],
        None => Vec::new(),
    }
}

/// Every header a response declares is sent, and fits its schema. (This server declares only
/// headers it always sends with that status: `Retry-After` with 429.)
fn header_problems(spec: &Spec, response: &Value, answer: &Answer) -> Vec<String> {
    let mut out = Vec::new();
    for (name, declared) in response["headers"].as_object().into_iter().flatten() {
        let declared = spec.resolve(declared);
        let Some(value) = header(answer, name) else {
            out.push(format!("declared header {name} is missing"));
            continue;
        };
        let typed = serde_json::from_str::<Value>(value)
            .ok()
            .filter(|v| !v.is_string())
            .unwrap_or_else(|| Value::String(value.to_string()));
        if let Some(why) = spec.misfit(&declared["schema"], &typed) {
            out.push(format!("header {name}: {value} does not fit: {why}"));
        }
    }
    out
}

/// The statuses the document itself implies for a request, where the mutation decides it.
fn implied_status(op: &Operation, request: &Request) -> Option<Vec<u16>> {
    // An operation that declares 415 reads its body as JSON through the shared rules (the
    // shared 413/415/422 answers), so its failures are certain; one that does not (settle,
    // score) reads any text.
    let json_body = op.declares(415);
    let client_errors: Vec<u16> = op
        .responses
        .keys()
        .copied()
        .filter(|s| (400..500).contains(s))
        .collect();
    match request.mutation {
        Mutation::NoToken | Mutation::BadToken if op.secured => Some(vec![401]),
        Mutation::NoContentType | Mutation::WrongContentType if json_body => Some(vec![415]),
        // A body cut short after a value of the wrong type is refused for that value (422)
        // before its end is read.
        Mutation::NotJson if json_body => Some(vec![400, 422]),
        Mutation::NotJson => Some(vec![400]),
        Mutation::TooLarge => Some(vec![413]),
        Mutation::NotAnObject | Mutation::MissingField | Mutation::WrongType
            if json_body && request.broken =>
        {
            Some(vec![422])
        }
        Mutation::Valid | Mutation::ExtraField => {
            // Fitting the schemas, it is never refused for its shape or its session.
            let shape = [401, 413, 415, 422];
            Some(
                op.responses
                    .keys()
                    .copied()
                    .filter(|s| !shape.contains(s))
                    .collect(),
            )
        }
        _ if request.broken => Some(client_errors),
        _ => None,
    }
}
