//! YAML read into JSON values within a size budget.
//!
//! An alias (`*name`) repeats everything its anchor holds, so a small file can describe a huge
//! document. The parser bounds the number of aliases; this bounds what they expand to: every
//! value built while a budget is active is charged its string bytes plus a fixed cost per node,
//! and building stops with an error once the budget is spent — before the memory is taken.

use std::cell::Cell;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::limits::YAML_NODE_COST;

thread_local! {
    /// (spent, budget) of the deserialization running on this thread; `None` outside one.
    static BUDGET: Cell<Option<(u64, u64)>> = const { Cell::new(None) };
}

/// Runs `f` with a budget of `bytes`; returns its result and whether the budget ran out.
pub(crate) fn with_budget<T>(bytes: u64, f: impl FnOnce() -> T) -> (T, bool) {
    let outer = BUDGET.replace(Some((0, bytes)));
    let out = f();
    let spent = BUDGET.replace(outer).is_some_and(|(spent, max)| spent > max);
    (out, spent)
}

/// Charges `bytes` to the active budget; an error once it is exceeded.
fn charge<E: de::Error>(bytes: u64) -> Result<(), E> {
    BUDGET.with(|b| match b.get() {
        None => Ok(()),
        Some((spent, max)) => {
            let spent = spent.saturating_add(bytes);
            b.set(Some((spent, max)));
            if spent > max {
                Err(E::custom(format!(
                    "the document expands to more than {max} bytes (aliases repeat their anchor's content)"
                )))
            } else {
                Ok(())
            }
        }
    })
}

/// A JSON value read from YAML under the active budget.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bounded(pub Value);

impl<'de> Deserialize<'de> for Bounded {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(BoundedVisitor).map(Bounded)
    }
}

struct BoundedVisitor;

impl<'de> Visitor<'de> for BoundedVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        charge(YAML_NODE_COST)?;
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        charge(YAML_NODE_COST)?;
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        charge(YAML_NODE_COST)?;
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        charge(YAML_NODE_COST)?;
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        charge(YAML_NODE_COST + v.len() as u64)?;
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        charge(YAML_NODE_COST + v.len() as u64)?;
        Ok(Value::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        charge(YAML_NODE_COST)?;
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Bounded::deserialize(d).map(|b| b.0)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        charge::<A::Error>(YAML_NODE_COST)?;
        let mut out = Vec::new();
        while let Some(Bounded(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        charge::<A::Error>(YAML_NODE_COST)?;
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            charge::<A::Error>(key.len() as u64)?;
            let Bounded(v) = map.next_value()?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_as_json_and_stop_at_the_budget() {
        let yaml = "a: [1, 2.5, true, null, text]\nb: {c: d}\n";
        let (v, over) = with_budget(10_000, || serde_saphyr::from_str::<Bounded>(yaml));
        assert!(!over);
        assert_eq!(
            v.unwrap().0,
            serde_json::json!({"a": [1, 2.5, true, null, "text"], "b": {"c": "d"}})
        );
        let (v, over) = with_budget(100, || serde_saphyr::from_str::<Bounded>(yaml));
        assert!(over && v.is_err());
        // Outside a budget nothing is counted.
        assert!(serde_saphyr::from_str::<Bounded>(yaml).is_ok());
    }
}
