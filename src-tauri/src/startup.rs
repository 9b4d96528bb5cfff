//! What Ponder could not use at start-up — the history or the settings file — as the window
//! shows it, with what the user can do about it besides quitting.

use serde::Serialize;
use serde_json::Value;

/// A file Ponder could not use at start-up, as the window shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StartupProblem {
    pub file: ProblemFile,
    pub path: String,
    /// What went wrong, in a sentence.
    pub message: String,
    /// What the user can do besides quitting.
    pub remedy: Remedy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum ProblemFile {
    History,
    Settings,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum Remedy {
    /// Keep the file under another name beside it and start afresh.
    MoveAside,
    /// Fix what is in the way (permissions, a lock, disk space), then try again.
    Retry,
}

/// Whether the settings file can be read as settings. A file that is not JSON, or not a
/// JSON object, is a problem the window reports; until it is resolved the file is never
/// written, so nothing the user wrote is lost. (A readable object whose single keys do not
/// read as settings is fine: those keys keep their defaults and are not written over.)
pub fn settings_file_problem(path: &std::path::Path) -> Option<StartupProblem> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => {
            return Some(settings_problem(
                path,
                format!("it cannot be read: {e}"),
                Remedy::Retry,
            ));
        }
    };
    let message = match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Object(_)) => return None,
        Ok(other) => format!(
            "it holds {} where Ponder keeps an object of settings",
            match other {
                Value::Array(_) => "a list",
                Value::String(_) => "a string",
                Value::Number(_) => "a number",
                Value::Bool(_) => "true or false",
                _ => "null",
            }
        ),
        Err(e) => format!("it is not valid JSON ({e})"),
    };
    Some(settings_problem(path, message, Remedy::MoveAside))
}

fn settings_problem(path: &std::path::Path, reason: String, remedy: Remedy) -> StartupProblem {
    StartupProblem {
        file: ProblemFile::Settings,
        path: path.display().to_string(),
        message: format!("Your settings could not be read: {reason}."),
        remedy,
    }
}
