//! Golden request bodies: `golden!(&sent)` compares a case's body and notices exactly with
//! `tests/fixtures/requests/<case>.snap`, where `<case>` is the name of the test function
//! that calls it — so a golden cannot be filed under another case's name.
//!
//! Which test functions own a golden is read from the sources: tests cannot list
//! themselves, and a list kept by hand drifts from them. A golden file no case compares
//! with, and a case without its file, both fail `every_golden_file_belongs_to_a_case`.
//!
//! Regenerate the files after a deliberate change with `INSTA_UPDATE=always`, then read every
//! changed file against the rules before committing it.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::case::Sent;

/// The files whose test functions may call `golden!`.
const SOURCES: &[&str] = &[
    include_str!("requests.rs"),
    include_str!("tool_requests.rs"),
];

/// A macro rather than a function so that the name comes from the calling test function
/// and the snapshot records the caller's file as its source, as the committed files do.
macro_rules! golden {
    ($sent:expr) => {{
        fn here() {}
        let case = $crate::golden::case_name(std::any::type_name_of_val(&here));
        let (dir, actual) = $crate::golden::prepare(case, $sent);
        insta::with_settings!({
            snapshot_path => dir,
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_json_snapshot!(case, actual);
        });
    }};
}
pub(crate) use golden;

/// The test function's name from the path of a fn item declared inside it
/// (`providers::requests::<case>::here`), as insta names its own snapshots.
pub fn case_name(here: &'static str) -> &'static str {
    let mut path = here.strip_suffix("::here").unwrap_or(here);
    while let Some(outer) = path.strip_suffix("::{{closure}}") {
        path = outer;
    }
    path.rsplit("::").next().unwrap_or(path)
}

/// Where the case's golden is, and what is compared with it.
pub fn prepare(case: &str, sent: &Sent) -> (PathBuf, Value) {
    assert!(
        golden_cases().contains(&case),
        "{case} is not a test function that calls golden! in a file of SOURCES"
    );
    (
        dir(),
        json!({ "body": sent.request.body, "notices": sent.request.notices }),
    )
}

fn dir() -> PathBuf {
    ponder_tests::workspace_root().join("tests/fixtures/requests")
}

/// The top-level functions of `SOURCES` whose body calls `golden!`. rustfmt keeps a
/// top-level item at the start of its line and a function's closing brace alone at the
/// start of a line, which is all this relies on.
fn golden_cases() -> Vec<&'static str> {
    SOURCES
        .iter()
        .flat_map(|source| source.split("\nfn ").skip(1))
        .filter_map(|item| {
            let (name, rest) = item.split_once('(')?;
            let body = rest.split("\n}\n").next()?;
            body.contains("golden!(").then_some(name)
        })
        .collect()
}

#[test]
fn every_golden_file_belongs_to_a_case() {
    let cases = golden_cases();
    let mut files: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    for name in &files {
        let case = name.strip_suffix(".snap").unwrap_or(name);
        assert!(cases.contains(&case), "stray golden file {name}");
    }
    for case in &cases {
        assert!(
            files.contains(&format!("{case}.snap")),
            "{case} has no golden file"
        );
    }
}
