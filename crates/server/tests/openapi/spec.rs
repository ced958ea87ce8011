//! The served OpenAPI document as a client reads it: its operations, their parameters, bodies
//! and responses with every local `$ref` followed, validators for the schemas it declares, and
//! the structural rules a JSON Schema of OpenAPI cannot express.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Mutex;

use serde_json::{Value, json};

/// The HTTP methods an OpenAPI path item may hold.
pub const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// A parsed document.
pub struct Spec {
    pub root: Value,
    /// Compiled validators by the JSON text of their schema (the same schema recurs often).
    validators: Mutex<HashMap<String, std::sync::Arc<jsonschema::Validator>>>,
}

/// Where a parameter goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum In {
    Path,
    Query,
    Header,
    Cookie,
}

/// One parameter of an operation.
#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub location: In,
    pub required: bool,
    /// Its schema, `$ref`s followed at the top.
    pub schema: Value,
}

/// One operation (a method on a path).
#[derive(Clone, Debug)]
pub struct Operation {
    pub method: String,
    /// The path template (`/api/tables/{table}/hands`).
    pub path: String,
    pub id: String,
    pub params: Vec<Param>,
    /// The JSON body's schema and whether a body is required.
    pub body: Option<(Value, bool)>,
    /// Whether the operation names a security requirement.
    pub secured: bool,
    /// Its responses by status, `$ref`s followed.
    pub responses: BTreeMap<u16, Value>,
}

impl Operation {
    /// `METHOD /path`, for messages.
    pub fn name(&self) -> String {
        format!("{} {}", self.method.to_ascii_uppercase(), self.path)
    }

    /// Whether the operation declares `status`.
    pub fn declares(&self, status: u16) -> bool {
        self.responses.contains_key(&status)
    }
}

impl Spec {
    pub fn new(root: Value) -> Spec {
        Spec {
            root,
            validators: Mutex::new(HashMap::new()),
        }
    }

    /// What a local reference (`#/components/...`) points at.
    pub fn pointer(&self, reference: &str) -> Option<&Value> {
        let pointer = reference.strip_prefix('#')?;
        self.root.pointer(pointer)
    }

    /// `value` with `$ref`s at its top followed (a reference to a reference too).
    pub fn resolve<'a>(&'a self, mut value: &'a Value) -> &'a Value {
        for _ in 0..16 {
            match value.get("$ref").and_then(Value::as_str) {
                Some(r) => match self.pointer(r) {
                    Some(target) => value = target,
                    None => return value,
                },
                None => return value,
            }
        }
        value
    }

    /// Every operation, in the document's order.
    pub fn operations(&self) -> Vec<Operation> {
        let mut out = Vec::new();
        let Some(paths) = self.root["paths"].as_object() else {
            return out;
        };
        for (path, item) in paths {
            let item = self.resolve(item);
            for method in METHODS {
                if let Some(op) = item.get(method) {
                    out.push(self.operation(method, path, item, op));
                }
            }
        }
        out
    }

    fn operation(&self, method: &str, path: &str, item: &Value, op: &Value) -> Operation {
        let shared = item["parameters"].as_array().into_iter().flatten();
        let own = op["parameters"].as_array().into_iter().flatten();
        let params = shared
            .chain(own)
            .map(|p| self.resolve(p))
            .map(|p| Param {
                name: p["name"].as_str().unwrap_or_default().to_string(),
                location: match p["in"].as_str() {
                    Some("path") => In::Path,
                    Some("header") => In::Header,
                    Some("cookie") => In::Cookie,
                    _ => In::Query,
                },
                required: p["required"].as_bool().unwrap_or(false),
                schema: self.resolve(&p["schema"]).clone(),
            })
            .collect();
        let body = op.get("requestBody").map(|b| {
            let b = self.resolve(b);
            (
                b["content"]["application/json"]["schema"].clone(),
                b["required"].as_bool().unwrap_or(false),
            )
        });
        let secured = op
            .get("security")
            .or_else(|| self.root.get("security"))
            .and_then(Value::as_array)
            .is_some_and(|s| {
                s.iter()
                    .any(|r| r.as_object().is_some_and(|r| !r.is_empty()))
            });
        let responses = op["responses"]
            .as_object()
            .into_iter()
            .flatten()
            .filter_map(|(k, v)| Some((k.parse().ok()?, self.resolve(v).clone())))
            .collect();
        Operation {
            method: method.to_string(),
            path: path.to_string(),
            id: op["operationId"].as_str().unwrap_or_default().to_string(),
            params,
            body,
            secured,
            responses,
        }
    }

    /// A validator of `schema` (a schema of this document: its `#/components/...` references
    /// resolve against the document's components). Formats are checked (`uuid`, say).
    pub fn validator(
        &self,
        schema: &Value,
    ) -> Result<std::sync::Arc<jsonschema::Validator>, String> {
        let key = schema.to_string();
        let mut cache = self.validators.lock().map_err(|e| e.to_string())?;
        if let Some(v) = cache.get(&key) {
            return Ok(v.clone());
        }
        let mut rooted = match schema {
            Value::Object(o) => Value::Object(o.clone()),
            // `true` / `false` schemas.
            other => json!({ "allOf": [other] }),
        };
        rooted["components"] = self.root["components"].clone();
        let validator = jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(&rooted)
            .map_err(|e| format!("schema {schema} does not compile: {e}"))?;
        let validator = std::sync::Arc::new(validator);
        cache.insert(key, validator.clone());
        Ok(validator)
    }

    /// Why `instance` does not fit `schema`, if it does not.
    pub fn misfit(&self, schema: &Value, instance: &Value) -> Option<String> {
        let validator = match self.validator(schema) {
            Ok(v) => v,
            Err(e) => return Some(e),
        };
        let errors: Vec<String> = validator
            .iter_errors(instance)
            .map(|e| format!("{} at `{}`", e, e.instance_path()))
            .collect();
        (!errors.is_empty()).then(|| errors.join("; "))
    }
}

/// Every place a value sits in `value`, with its JSON pointer.
fn walk<'a>(value: &'a Value, at: String, out: &mut Vec<(String, &'a Value)>) {
    out.push((at.clone(), value));
    match value {
        Value::Object(o) => {
            for (k, v) in o {
                let key = k.replace('~', "~0").replace('/', "~1");
                walk(v, format!("{at}/{key}"), out);
            }
        }
        Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                walk(v, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// What the official JSON Schema of OpenAPI 3.1 cannot say about a document, checked: every
/// `$ref` resolves, every path template's parameters are declared as required path parameters
/// and every path parameter is in its template, operation ids are unique, every security
/// requirement names a declared scheme, every operation answers some 2xx, every schema is a
/// valid JSON Schema 2020-12 and every `default` fits its schema. Returns each problem found.
pub fn structural_problems(spec: &Spec) -> Vec<String> {
    let mut problems = Vec::new();
    let mut places = Vec::new();
    walk(&spec.root, String::new(), &mut places);
    for (at, value) in &places {
        if let Some(r) = value.get("$ref").and_then(Value::as_str)
            && spec.pointer(r).is_none()
        {
            problems.push(format!("{at}: `$ref` {r} resolves to nothing"));
        }
    }
    let schemes: BTreeSet<&String> = spec.root["components"]["securitySchemes"]
        .as_object()
        .map(|s| s.keys().collect())
        .unwrap_or_default();
    let mut ids = BTreeMap::new();
    for op in spec.operations() {
        let name = op.name();
        if op.id.is_empty() {
            problems.push(format!("{name}: no operationId"));
        } else if let Some(other) = ids.insert(op.id.clone(), name.clone()) {
            problems.push(format!("{name}: operationId `{}` is also {other}'s", op.id));
        }
        problems.extend(path_parameter_problems(&op));
        let mut seen = BTreeSet::new();
        for p in &op.params {
            if !seen.insert((p.name.clone(), format!("{:?}", p.location))) {
                problems.push(format!("{name}: parameter `{}` declared twice", p.name));
            }
        }
        if !op.responses.keys().any(|s| (200..300).contains(s)) {
            problems.push(format!("{name}: no 2xx response"));
        }
        let raw = &spec.root["paths"][&op.path][&op.method];
        for requirement in raw["security"].as_array().into_iter().flatten() {
            for scheme in requirement
                .as_object()
                .into_iter()
                .flatten()
                .map(|(k, _)| k)
            {
                if !schemes.contains(scheme) {
                    problems.push(format!(
                        "{name}: security scheme `{scheme}` is not declared"
                    ));
                }
            }
        }
    }
    problems.extend(schema_problems(spec, &places));
    problems
}

/// A path template's parameters against the declared path parameters.
fn path_parameter_problems(op: &Operation) -> Vec<String> {
    let name = op.name();
    let templated: BTreeSet<String> = op
        .path
        .split('/')
        .filter_map(|s| s.strip_prefix('{')?.strip_suffix('}'))
        .map(str::to_string)
        .collect();
    let declared: BTreeSet<String> = op
        .params
        .iter()
        .filter(|p| p.location == In::Path)
        .map(|p| p.name.clone())
        .collect();
    let mut problems = Vec::new();
    for missing in templated.difference(&declared) {
        problems.push(format!(
            "{name}: path parameter `{missing}` is not declared"
        ));
    }
    for extra in declared.difference(&templated) {
        problems.push(format!(
            "{name}: path parameter `{extra}` is not in the path"
        ));
    }
    for p in op.params.iter().filter(|p| p.location == In::Path) {
        if !p.required {
            problems.push(format!(
                "{name}: path parameter `{}` is not required",
                p.name
            ));
        }
    }
    problems
}

/// Whether the value at `at` is a schema: a component schema, or the `schema` of a parameter,
/// a header or a media type.
fn is_schema_place(at: &str) -> bool {
    let parts: Vec<&str> = at.split('/').collect();
    match parts.as_slice() {
        ["", "components", "schemas", _] => true,
        [.., "schema"] => {
            // `properties/schema` would be a property named `schema`, not a schema's place.
            parts.len() < 2 || parts[parts.len() - 2] != "properties"
        }
        _ => false,
    }
}

/// Every schema is a valid JSON Schema 2020-12, and every `default` inside one fits the
/// schema it is the default of.
fn schema_problems(spec: &Spec, places: &[(String, &Value)]) -> Vec<String> {
    let mut problems = Vec::new();
    for (at, schema) in places.iter().filter(|(at, _)| is_schema_place(at)) {
        if let Err(e) = jsonschema::draft202012::meta::validate(schema) {
            problems.push(format!("{at}: not a JSON Schema 2020-12: {e}"));
            continue;
        }
        let mut inner = Vec::new();
        walk(schema, at.clone(), &mut inner);
        for (place, sub) in inner {
            // A map of properties may hold ones named `default` and `type`: not a schema.
            let a_schema = !place.ends_with("/properties")
                && sub
                    .get("type")
                    .is_some_and(|t| t.is_string() || t.is_array());
            if let Some(default) = sub.get("default")
                && a_schema
                && let Some(why) = spec.misfit(sub, default)
            {
                problems.push(format!("{place}: default {default} does not fit: {why}"));
            }
        }
    }
    problems
}
