//! Keyword arguments → the crate's option structs.
//!
//! Each struct has one table of its options: the Python name and how a value goes into the
//! field. A new field of the crate is one line here (and one in `_native.pyi`). Every problem
//! (an unknown name, a wrong type, a negative count, a value outside a choice) is a
//! `ValueError` that names the option and says what it accepts.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};

use agent_snapshot::js::JsSnapshotOptions;
use agent_snapshot::{Format, RenderOptions, Threads, TreeOptions, View};

/// Sets one field from a Python value; the error says what the option accepts.
type Setter<T> = fn(&mut T, &Bound<'_, PyAny>) -> Result<(), String>;

/// One keyword option of an options struct.
pub struct Opt<T> {
    pub name: &'static str,
    pub set: Setter<T>,
}

/// A table entry: the option `name` sets `field` to what `parse` reads from the value.
macro_rules! opt {
    ($name:literal, $field:ident, $parse:expr) => {
        Opt {
            name: $name,
            set: |o, v| {
                o.$field = ($parse)(v)?;
                Ok(())
            },
        }
    };
}

/// [`TreeOptions`]: how a page becomes a node tree (and so which refs it gets).
pub const TREE: &[Opt<TreeOptions>] = &[
    opt!("interactive_only", interactive_only, flag),
    opt!("cursor_interactive", cursor_interactive, flag),
    opt!("max_text_per_node", max_text_per_node, count),
    opt!("max_attr_value_len", max_attr_value_len, count),
    opt!("attrs", attrs, names),
    opt!("url", url, text),
    opt!("encoding", encoding, text),
    opt!("threads", threads, |v| choice(
        v,
        &[
            ("auto", Threads::Auto),
            ("one", Threads::One),
            ("two", Threads::Two)
        ]
    )),
    opt!("view", view, |v| choice(
        v,
        &[
            ("auto", None),
            ("scripted", Some(View::Scripted)),
            ("noscript", Some(View::NoScript))
        ]
    )),
];

/// [`RenderOptions`]: the budgets and switches of the renderer.
pub const RENDER: &[Opt<RenderOptions>] = &[
    opt!("max_chars_total", max_chars_total, count),
    opt!("max_nodes", max_nodes, count),
    opt!("max_depth", max_depth, count),
    opt!("max_text_per_node", max_text_per_node, count),
    opt!("max_attr_value_len", max_attr_value_len, count),
    opt!("max_siblings", max_siblings, count),
    opt!("include_attrs", include_attrs, names),
    opt!("compact", compact, flag),
    opt!("format", format, |v| choice(
        v,
        &[
            ("text", Format::Text),
            ("json", Format::Json),
            ("list", Format::List)
        ]
    )),
];

/// [`JsSnapshotOptions`]: what the in-page script's `snapshot()` is asked for.
pub const JS_SNAPSHOT: &[Opt<JsSnapshotOptions>] = &[
    opt!("max_nodes", max_nodes, count),
    opt!("max_text_per_node", max_text_per_node, count),
    opt!("max_attr_value_len", max_attr_value_len, count),
    opt!("interactive_only", interactive_only, flag),
    opt!("cursor_interactive", cursor_interactive, flag),
    opt!("scope", scope, text),
];

/// One options struct being filled: its table and the value.
pub struct Target<'a, T: 'static> {
    pub table: &'static [Opt<T>],
    pub value: &'a mut T,
}

/// Something keyword arguments can be written into (a [`Target`] of any options type).
pub trait Fill {
    /// Sets `name` if this struct has it; `Ok(false)` when it has no such option.
    fn fill(&mut self, name: &str, value: &Bound<'_, PyAny>) -> PyResult<bool>;
    /// The option names, for the error about an unknown one.
    fn names(&self) -> Vec<&'static str>;
}

impl<T: 'static> Fill for Target<'_, T> {
    fn fill(&mut self, name: &str, value: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Some(opt) = self.table.iter().find(|o| o.name == name) else {
            return Ok(false);
        };
        (opt.set)(self.value, value).map_err(|why| {
            let shown = value
                .repr()
                .map(|r| r.to_string())
                .unwrap_or_else(|_| "this value".to_string());
            PyValueError::new_err(format!("{name}={shown}: {why}"))
        })?;
        Ok(true)
    }

    fn names(&self) -> Vec<&'static str> {
        self.table.iter().map(|o| o.name).collect()
    }
}

/// Writes keyword arguments into one or more options structs. A name that several structs
/// share (`max_text_per_node` in the tree and the render options) goes into each of them;
/// a name none of them has is an error listing the ones they do have.
pub fn read(
    kwargs: Option<&Bound<'_, PyDict>>,
    call: &str,
    targets: &mut [&mut dyn Fill],
) -> PyResult<()> {
    let Some(kwargs) = kwargs else {
        return Ok(());
    };
    for (key, value) in kwargs.iter() {
        let name: String = key.extract()?;
        let mut known = false;
        for target in targets.iter_mut() {
            known |= target.fill(&name, &value)?;
        }
        if !known {
            let mut all: Vec<&str> = targets.iter().flat_map(|t| t.names()).collect();
            all.sort_unstable();
            all.dedup();
            return Err(PyValueError::new_err(format!(
                "{call} has no option {name:?}: use one of {}",
                all.join(", ")
            )));
        }
    }
    Ok(())
}

/// Writes keyword arguments into one options struct (see [`read`]).
pub fn read_one<T: 'static>(
    kwargs: Option<&Bound<'_, PyDict>>,
    call: &str,
    table: &'static [Opt<T>],
    value: &mut T,
) -> PyResult<()> {
    read(kwargs, call, &mut [&mut Target { table, value }])
}

/// A count or a length: a whole number ≥ 0 (`True` is not one).
pub fn count(v: &Bound<'_, PyAny>) -> Result<usize, String> {
    const WANT: &str = "expected a whole number >= 0";
    if v.is_instance_of::<PyBool>() {
        return Err(WANT.to_string());
    }
    v.extract::<usize>().map_err(|_| WANT.to_string())
}

/// `True` or `False`.
fn flag(v: &Bound<'_, PyAny>) -> Result<bool, String> {
    v.extract::<bool>()
        .map_err(|_| "expected True or False".to_string())
}

/// A string, or `None` for "not set".
fn text(v: &Bound<'_, PyAny>) -> Result<Option<String>, String> {
    if v.is_none() {
        return Ok(None);
    }
    v.extract::<String>()
        .map(Some)
        .map_err(|_| "expected a str or None".to_string())
}

/// A list (or tuple) of attribute names. One string is refused: iterating it would give
/// letters.
fn names(v: &Bound<'_, PyAny>) -> Result<Vec<String>, String> {
    const WANT: &str = "expected a list of attribute names, e.g. [\"href\", \"name\"]";
    if v.is_instance_of::<PyString>() {
        return Err(WANT.to_string());
    }
    v.extract::<Vec<String>>().map_err(|_| WANT.to_string())
}

/// One of a few strings.
fn choice<E: Copy>(v: &Bound<'_, PyAny>, choices: &[(&str, E)]) -> Result<E, String> {
    pick(v.extract::<String>().ok().as_deref(), choices)
}

/// The value named `given` among `choices`; the error lists them.
pub fn pick<E: Copy>(given: Option<&str>, choices: &[(&str, E)]) -> Result<E, String> {
    choices
        .iter()
        .find(|(name, _)| Some(*name) == given)
        .map(|(_, e)| *e)
        .ok_or_else(|| {
            let names: Vec<String> = choices.iter().map(|(n, _)| format!("{n:?}")).collect();
            format!("expected one of {}", names.join(", "))
        })
}
