use std::collections::HashSet;
use std::path::PathBuf;

use super::*;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/attachments")
        .join(name)
}

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(fixture(name)).unwrap()
}

#[test]
fn a_file_is_what_its_bytes_say() {
    let cases: &[(&str, Option<Kind>)] = &[
        ("whiteboard.png", Some(Kind::Png)),
        ("photo.jpg", Some(Kind::Jpeg)),
        ("dot.gif", Some(Kind::Gif)),
        ("dot.webp", Some(Kind::Webp)),
        ("boiling-points.pdf", Some(Kind::Pdf)),
        ("notes.md", Some(Kind::Text)),
        // An SVG is XML: sent as text, never drawn (it can carry a script).
        ("diagram.svg", Some(Kind::Text)),
    ];
    for (name, kind) in cases {
        assert_eq!(sniff(&bytes(name)), *kind, "{name}");
    }
    let png_named_pdf = bytes("whiteboard.png");
    assert_eq!(
        sniff(&png_named_pdf),
        Some(Kind::Png),
        "the name is not asked"
    );
    let mut cut_pdf = bytes("boiling-points.pdf");
    cut_pdf.insert(0, b' ');
    assert_eq!(
        sniff(&cut_pdf),
        Some(Kind::Pdf),
        "a header after a little junk"
    );
    for binary in [
        &b"\x00\x01\x02\x03"[..],
        &[0xC3, 0x28, 0x41][..],
        b"text\0with a NUL",
    ] {
        assert_eq!(sniff(binary), None, "{binary:?}");
    }
    assert!(Kind::Webp.is_image() && !Kind::Pdf.is_image() && !Kind::Text.is_image());
    assert_eq!(Kind::Pdf.media_type(), "application/pdf");
}

#[test]
fn a_file_is_stored_once_under_its_hash_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let store = AttachmentStore::at(dir.path().join("attachments"));
    let png = bytes("whiteboard.png");
    let first = store.put(&png, "whiteboard.png").unwrap();
    let again = store
        .put_file(&fixture("whiteboard.png"), "copy.png")
        .unwrap();
    assert_eq!(first, again);
    assert_eq!(first.kind, Kind::Png);
    assert_eq!(first.bytes, png.len() as u64);
    assert_eq!(first.sha256.len(), 64);
    let path = store.path(&first.sha256);
    assert!(path.starts_with(dir.path().join("attachments").join(&first.sha256[..2])));
    assert_eq!(store.read(&first.sha256).unwrap(), png);
    let files = std::fs::read_dir(path.parent().unwrap()).unwrap().count();
    assert_eq!(files, 1, "one file, whatever it was called");
}

#[test]
fn what_cannot_be_sent_is_refused_with_its_name_and_nothing_is_stored() {
    let dir = tempfile::tempdir().unwrap();
    let store = AttachmentStore::at(dir.path().join("attachments"));
    let empty = store.put(b"", "empty.txt").unwrap_err();
    assert!(matches!(empty, AttachmentError::Empty { .. }), "{empty}");
    assert_eq!(empty.to_string(), "empty.txt is empty");
    let unknown = store.put(b"\x7fELF\x02\x01\x01\0", "program").unwrap_err();
    assert!(
        unknown
            .to_string()
            .starts_with("program is not a file Ponder can send")
    );
    let gone = store
        .put_file(&dir.path().join("gone.png"), "gone.png")
        .unwrap_err();
    assert!(matches!(gone, AttachmentError::Unreadable { .. }), "{gone}");
    // Over the cap is refused from the file's size, before a byte is read.
    let huge = dir.path().join("huge.pdf");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(MAX_FILE_BYTES + 1)
        .unwrap();
    let too_large = store.put_file(&huge, "huge.pdf").unwrap_err();
    assert!(
        too_large.to_string().starts_with("huge.pdf is 100.0 MiB"),
        "{too_large}"
    );
    assert!(
        !dir.path().join("attachments").exists(),
        "nothing was stored"
    );
}

#[test]
fn files_no_message_refers_to_are_removed_and_the_others_kept() {
    let dir = tempfile::tempdir().unwrap();
    let store = AttachmentStore::at(dir.path().join("attachments"));
    let kept = store.put(&bytes("boiling-points.pdf"), "a.pdf").unwrap();
    let dropped = store.put(&bytes("photo.jpg"), "b.jpg").unwrap();
    let stranger = store.path(&kept.sha256).with_file_name("notes.txt");
    std::fs::write(&stranger, "not the store's").unwrap();
    let referenced: HashSet<String> = [kept.sha256.clone()].into();
    assert_eq!(store.remove_unreferenced(&referenced).unwrap(), 1);
    assert!(store.path(&kept.sha256).exists());
    assert!(!store.path(&dropped.sha256).exists());
    assert!(
        stranger.exists(),
        "a file that is not the store's is left alone"
    );
    let nothing_yet = AttachmentStore::at(dir.path().join("none"));
    assert_eq!(nothing_yet.remove_unreferenced(&referenced).unwrap(), 0);
}
