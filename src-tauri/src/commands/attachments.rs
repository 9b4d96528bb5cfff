//! Giving a model files from the window. The files are chosen in the system's own file dialog,
//! which this process opens: the page never names a path, so a script in it cannot read a file
//! the user did not choose. Each file is stored by its content at once and the window gets
//! what its chip shows; a question then refers to the files by their hashes.

use ponder_core::attachments::incoming::Piece;
use ponder_core::attachments::{AttachmentError, AttachmentStore, Kind, Stored};
use serde::Serialize;
use tauri::{AppHandle, State};
use tauri_plugin_dialog::DialogExt;

use crate::error::{IpcError, IpcErrorCode};
use crate::ipc::FileRef;
use crate::state::AppState;

/// A stored file, as its chip shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct AttachedFile {
    pub sha256: String,
    pub kind: Kind,
    pub name: String,
    #[cfg_attr(test, ts(type = "number"))]
    pub bytes: u64,
    /// A PDF's page count, where it could be read.
    pub pages: Option<u32>,
}

/// What picking files gave: those stored, and a line for each that could not be.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Picked {
    pub files: Vec<AttachedFile>,
    pub refused: Vec<String>,
}

/// The file dialog's title.
pub const PICK_TITLE: &str = "Attach files";

/// Opens the file dialog and stores the files chosen (none when it is cancelled).
#[tauri::command]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub async fn pick_attachments(
    app: AppHandle,
    state: State<'_, AppState>,
) -> Result<Picked, IpcError> {
    let store = state.store()?;
    let files = store
        .attachments()
        .ok_or_else(|| IpcError::new(IpcErrorCode::Storage, "This history keeps no files."))?
        .clone();
    let chosen = app
        .dialog()
        .file()
        .set_title(PICK_TITLE)
        .add_filter(
            "Images, PDFs and text",
            &[
                "png", "jpg", "jpeg", "gif", "webp", "pdf", "txt", "md", "csv", "json",
            ],
        )
        .blocking_pick_files()
        .unwrap_or_default();
    let mut picked = Picked {
        files: Vec::new(),
        refused: Vec::new(),
    };
    for path in chosen {
        let Ok(path) = path.into_path() else {
            picked
                .refused
                .push("A chosen file is not on this computer.".to_owned());
            continue;
        };
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let stored = keep(files.clone(), name, move |files, name| {
            files.put_file(&path, name)
        })
        .await?;
        picked.add(stored);
    }
    Ok(picked)
}

/// Stores a file the window was given by paste or drop: its bytes are the call's body and
/// its name the `x-ponder-name` header (percent-encoded, as a name may be any text). Only
/// the name's last part is kept: the page cannot say where a file goes. A large file comes in
/// pieces (`x-ponder-upload`, `x-ponder-offset`, `x-ponder-final`), so that no one call holds
/// the window; each piece but the last is answered with nothing stored yet.
#[tauri::command]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub async fn attach_bytes(
    request: tauri::ipc::Request<'_>,
    state: State<'_, AppState>,
) -> Result<Picked, IpcError> {
    let tauri::ipc::InvokeBody::Raw(bytes) = request.body() else {
        return Err(IpcError::new(
            IpcErrorCode::InvalidInput,
            "A file is sent as bytes.",
        ));
    };
    let header = |name: &str| request.headers().get(name).and_then(|v| v.to_str().ok());
    let name = given_name(header("x-ponder-name"));
    let piece = match header("x-ponder-upload") {
        Some(upload) => Some(Piece {
            upload: upload.to_owned(),
            offset: header("x-ponder-offset")
                .and_then(|o| o.parse().ok())
                .ok_or_else(|| {
                    IpcError::new(IpcErrorCode::InvalidInput, "A piece says where it goes.")
                })?,
            last: header("x-ponder-final") == Some("1"),
        }),
        None => None,
    };
    let files = state
        .store()?
        .attachments()
        .ok_or_else(|| IpcError::new(IpcErrorCode::Storage, "This history keeps no files."))?
        .clone();
    // The body belongs to the call; the copy is what the blocking thread reads and hashes.
    let bytes = bytes.clone();
    let mut picked = Picked {
        files: Vec::new(),
        refused: Vec::new(),
    };
    let stored = match piece {
        None => keep(files, name, move |files, name| files.put(&bytes, name)).await?,
        Some(piece) => {
            let put = tauri::async_runtime::spawn_blocking({
                let name = name.clone();
                move || files.put_piece(&piece, &bytes, &name)
            })
            .await
            .map_err(|e| IpcError::new(IpcErrorCode::Internal, e.to_string()))?;
            match put {
                Ok(None) => return Ok(picked),
                Ok(Some(stored)) => Ok(chip(stored, name)),
                Err(e) => Err(format!("{e}.")),
            }
        }
    };
    picked.add(stored);
    Ok(picked)
}

/// The name a pasted or dropped file is known by: the last part of what the page said,
/// without control characters, at most 200 characters; "Pasted file" when nothing is left.
fn given_name(header: Option<&str>) -> String {
    let decoded = header
        .map(|h| {
            percent_encoding::percent_decode_str(h)
                .decode_utf8_lossy()
                .into_owned()
        })
        .unwrap_or_default();
    let last = decoded.rsplit(['/', '\\']).next().unwrap_or_default();
    let clean: String = last.chars().filter(|c| !c.is_control()).take(200).collect();
    let clean = clean.trim();
    if clean.is_empty() || clean == "." || clean == ".." {
        "Pasted file".to_owned()
    } else {
        clean.to_owned()
    }
}

/// A stored file as its chip shows it, under the name the user knows it by.
fn chip(stored: Stored, name: String) -> AttachedFile {
    AttachedFile {
        sha256: stored.sha256,
        kind: stored.kind,
        name,
        bytes: stored.bytes,
        pages: stored.pages,
    }
}

impl Picked {
    fn add(&mut self, stored: Result<AttachedFile, String>) {
        match stored {
            Ok(file) => self.files.push(file),
            Err(line) => self.refused.push(line),
        }
    }
}

/// Stores one file off the runtime's threads (reading and hashing a large one takes a
/// while): the chip it becomes, or the line that says why it could not be.
async fn keep(
    files: AttachmentStore,
    name: String,
    put: impl FnOnce(&AttachmentStore, &str) -> Result<Stored, AttachmentError> + Send + 'static,
) -> Result<Result<AttachedFile, String>, IpcError> {
    tauri::async_runtime::spawn_blocking(move || {
        put(&files, &name)
            .map(|stored| chip(stored, name))
            .map_err(|e| format!("{e}."))
    })
    .await
    .map_err(|e| IpcError::new(IpcErrorCode::Internal, e.to_string()))
}

/// The files a question refers to, as stored: a hash the store does not have, or whose file
/// is not one Ponder sends, is refused (the page only names hashes it was given). Reading and
/// hashing them is kept off the runtime's threads.
pub async fn resolve(
    state: &AppState,
    refs: Vec<FileRef>,
) -> Result<Vec<ponder_core::chat::Attachment>, IpcError> {
    if refs.is_empty() {
        return Ok(Vec::new());
    }
    let store = state.store()?;
    let files = store
        .attachments()
        .ok_or_else(|| IpcError::new(IpcErrorCode::Storage, "This history keeps no files."))?
        .clone();
    tauri::async_runtime::spawn_blocking(move || {
        refs.iter()
            .map(|r| {
                files
                    .stored(&r.sha256, &r.name)
                    .map(|stored| stored.attachment(&r.name))
                    .map_err(|e| IpcError::new(IpcErrorCode::InvalidInput, format!("{e}.")))
            })
            .collect()
    })
    .await
    .map_err(|e| IpcError::new(IpcErrorCode::Internal, e.to_string()))?
}

#[cfg(test)]
mod tests {
    use super::given_name;

    #[test]
    fn a_given_name_keeps_only_its_last_part_and_readable_characters() {
        assert_eq!(
            given_name(Some("Pasted%20image%201.png")),
            "Pasted image 1.png"
        );
        assert_eq!(given_name(Some("..%2F..%2F.ssh%2Fid_rsa")), "id_rsa");
        assert_eq!(given_name(Some("C%3A%5Cdocs%5Cplan.pdf")), "plan.pdf");
        assert_eq!(given_name(Some("a%0Ab%1B.txt")), "ab.txt");
        assert_eq!(given_name(Some("..")), "Pasted file");
        assert_eq!(given_name(Some("%2F")), "Pasted file");
        assert_eq!(given_name(None), "Pasted file");
        assert_eq!(given_name(Some(&"x".repeat(500))).len(), 200);
        assert_eq!(given_name(Some("%E6%97%A5%E6%9C%AC.txt")), "日本.txt");
    }
}
