//! The attached files an export carries (`"files": {sha256: base64}`): only those its
//! messages refer to are taken, and each must be the file its hash names and a file Ponder
//! sends, before anything is written.

use std::collections::HashMap;

use base64::Engine;
use serde_json::Value;

use super::ImportError;
use crate::store::ConversationRecord;

/// An attached file an export carries: the name its message gives it, and its bytes.
pub(super) type Carried = (String, Vec<u8>);

/// The files the records refer to that the export carries: each attachment's name and the
/// file's bytes. A file no message refers to is left out; a message whose file the export
/// does not carry is kept, and says so when it is sent.
pub(super) fn referenced(
    records: &[ConversationRecord],
    files: Option<Value>,
    beside: &HashMap<String, Vec<u8>>,
) -> Result<Vec<Carried>, ImportError> {
    let carried: HashMap<String, Value> = match files {
        None => HashMap::new(),
        Some(Value::Object(map)) => map.into_iter().collect(),
        Some(_) => {
            return Err(ImportError::Invalid(
                "\"files\" is not an object".to_owned(),
            ));
        }
    };
    let mut out: Vec<Carried> = Vec::new();
    let mut taken = std::collections::HashSet::new();
    for file in records
        .iter()
        .flat_map(|r| &r.messages)
        .flat_map(|m| m.message.attachments())
    {
        if !taken.insert(file.sha256.clone()) {
            continue;
        }
        // In the JSON as base64, or beside it in a .zip backup as itself.
        let bytes = match (carried.get(&file.sha256), beside.get(&file.sha256)) {
            (Some(data), _) => data
                .as_str()
                .and_then(|d| base64::engine::general_purpose::STANDARD.decode(d).ok())
                .ok_or_else(|| {
                    ImportError::Invalid(format!("files.{} is not base64", file.sha256))
                })?,
            (None, Some(bytes)) => bytes.clone(),
            (None, None) => continue,
        };
        if crate::attachments::sha256_hex(&bytes) != file.sha256 {
            return Err(ImportError::Invalid(format!(
                "the file {} is not the one its message refers to",
                file.name
            )));
        }
        out.push((file.name.clone(), bytes));
    }
    Ok(out)
}
