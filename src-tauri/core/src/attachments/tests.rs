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
    let path = store.path(&first.sha256).unwrap();
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
    let stranger = store
        .path(&kept.sha256)
        .unwrap()
        .with_file_name("notes.txt");
    std::fs::write(&stranger, "not the store's").unwrap();
    let referenced: HashSet<String> = [kept.sha256.clone()].into();
    assert_eq!(
        store
            .remove_unreferenced(&referenced, std::time::Duration::from_secs(3600))
            .unwrap(),
        0,
        "a file just stored may be for a question not written yet"
    );
    assert_eq!(
        store
            .remove_unreferenced(&referenced, std::time::Duration::ZERO)
            .unwrap(),
        1
    );
    assert!(store.path(&kept.sha256).unwrap().exists());
    assert!(!store.path(&dropped.sha256).unwrap().exists());
    assert!(
        stranger.exists(),
        "a file that is not the store's is left alone"
    );
    let nothing_yet = AttachmentStore::at(dir.path().join("none"));
    assert_eq!(
        nothing_yet
            .remove_unreferenced(&referenced, std::time::Duration::ZERO)
            .unwrap(),
        0
    );
}

/// A PNG that claims `width` × `height` and holds no pixels: enough for a reader to learn the
/// size it claims.
fn png_claiming(width: u32, height: u32) -> Vec<u8> {
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }
    let mut ihdr = b"IHDR".to_vec();
    ihdr.extend(width.to_be_bytes());
    ihdr.extend(height.to_be_bytes());
    ihdr.extend([8, 2, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    for chunk in [ihdr, b"IDAT".to_vec(), b"IEND".to_vec()] {
        png.extend(u32::try_from(chunk.len() - 4).unwrap().to_be_bytes());
        png.extend(&chunk);
        png.extend(crc32(&chunk).to_be_bytes());
    }
    png
}

#[test]
fn an_image_is_measured_from_its_header_and_made_smaller_for_sending() {
    use super::image::{Dimensions, dimensions, smaller};
    let cases: &[(&str, Kind, u32, u32)] = &[
        ("whiteboard.png", Kind::Png, 320, 200),
        ("photo.jpg", Kind::Jpeg, 200, 120),
        ("dot.gif", Kind::Gif, 48, 48),
        ("dot.webp", Kind::Webp, 48, 48),
    ];
    for (name, kind, width, height) in cases {
        let size = dimensions(&bytes(name), *kind).unwrap();
        assert_eq!(
            size,
            Dimensions {
                width: *width,
                height: *height
            },
            "{name}"
        );
    }
    let board = smaller(&bytes("whiteboard.png"), Kind::Png, 160)
        .unwrap()
        .unwrap();
    assert_eq!(
        (board.kind, board.dimensions.width, board.dimensions.height),
        (Kind::Png, 160, 100)
    );
    assert_eq!(sniff(&board.bytes), Some(Kind::Png));
    let photo = smaller(&bytes("photo.jpg"), Kind::Jpeg, 100)
        .unwrap()
        .unwrap();
    assert_eq!(
        (photo.kind, photo.dimensions.width, photo.dimensions.height),
        (Kind::Jpeg, 100, 60)
    );
    assert_eq!(
        dimensions(&photo.bytes, Kind::Jpeg).unwrap(),
        photo.dimensions
    );
    assert_eq!(
        smaller(&bytes("dot.gif"), Kind::Gif, 1568).unwrap(),
        None,
        "it already fits"
    );
}

#[test]
fn a_damaged_image_a_pixel_bomb_and_a_cut_pdf_are_refused_before_they_are_stored() {
    let dir = tempfile::tempdir().unwrap();
    let store = AttachmentStore::at(dir.path().join("attachments"));
    let cut = &bytes("whiteboard.png")[..40];
    let damaged = store.put(cut, "cut.png").unwrap_err();
    assert!(
        matches!(damaged, AttachmentError::Damaged { .. }),
        "{damaged}"
    );
    assert!(
        damaged
            .to_string()
            .starts_with("cut.png: the image is damaged"),
        "{damaged}"
    );
    let bomb = store
        .put(&png_claiming(60_000, 60_000), "bomb.png")
        .unwrap_err();
    assert_eq!(
        bomb.to_string(),
        "bomb.png: the image is 60000 × 60000 pixels; Ponder reads images of at most 16384 pixels a side"
    );
    let pdf = bytes("boiling-points.pdf");
    let half = store.put(&pdf[..pdf.len() / 2], "half.pdf").unwrap_err();
    assert!(matches!(half, AttachmentError::CutPdf { .. }), "{half}");
    let only_header = store.put(b"%PDF-1.7\nnot really", "fake.pdf").unwrap_err();
    assert!(
        matches!(only_header, AttachmentError::CutPdf { .. }),
        "{only_header}"
    );
    assert!(
        !dir.path().join("attachments").exists(),
        "nothing was stored"
    );
    assert!(store.put(&pdf, "whole.pdf").is_ok());
}

#[test]
fn a_pdf_is_read_page_by_page_and_a_broken_one_is_an_error_not_a_crash() {
    let pages = pdf::page_texts(&bytes("boiling-points.pdf")).unwrap();
    assert_eq!(pages.len(), 2);
    for expected in ["Boiling points at sea level", "Water", "212", "Ethanol"] {
        assert!(pages[0].contains(expected), "{expected}: {:?}", pages[0]);
    }
    assert!(pages[1].contains("17 x 23"), "{:?}", pages[1]);
    let text = pdf::as_text("boiling-points.pdf", &pages);
    assert!(text.starts_with("The text of boiling-points.pdf (2 pages):"));
    assert!(text.contains("--- page 2 ---\nPage two"), "{text}");

    let whole = bytes("boiling-points.pdf");
    let mut broken = whole.clone();
    // The page tree's objects overwritten, its ends kept: a reader must give up, not panic.
    let middle = broken.len() / 3;
    broken[middle..middle * 2].fill(b'#');
    assert!(pdf::page_texts(&broken).is_err());
    assert_eq!(pdf::pages(&whole), Some(2));
    assert_eq!(
        pdf::pages(b"%PDF-1.4\n%%EOF"),
        None,
        "no page tree, no count"
    );
    let dir = tempfile::tempdir().unwrap();
    let stored = AttachmentStore::at(dir.path())
        .put(&whole, "a.pdf")
        .unwrap();
    assert_eq!(stored.pages, Some(2), "a PDF's chip says its pages");
    assert!(pdf::page_texts(b"%PDF-1.4\n%%EOF").is_err());
}

#[test]
fn a_reference_that_is_not_a_hash_names_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let store = AttachmentStore::at(dir.path().join("attachments"));
    std::fs::write(dir.path().join("secret.txt"), "not for the model").unwrap();
    for name in [
        "../secret.txt",
        "..",
        "",
        "ABCDEF",
        &"a".repeat(63),
        &format!("{}/x", "a".repeat(62)),
    ] {
        assert_eq!(store.path(name), None, "{name}");
        assert!(store.read(name).is_err(), "{name}");
    }
    let forged = crate::chat::Attachment {
        sha256: "../secret.txt".into(),
        kind: Kind::Text,
        name: "secret.txt".into(),
        bytes: 17,
        pages: None,
        pixels: None,
        data: None,
    };
    assert_eq!(store.data(&forged), None);
}

#[test]
fn a_stored_file_is_described_again_by_its_hash_and_a_changed_one_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    let store = AttachmentStore::at(dir.path());
    let put = store.put(&bytes("boiling-points.pdf"), "a.pdf").unwrap();
    assert_eq!(store.stored(&put.sha256, "a.pdf").unwrap(), put);
    let unknown = store.stored(&"c".repeat(64), "b.pdf").unwrap_err();
    assert_eq!(
        unknown.to_string(),
        "b.pdf is no longer in Ponder's files; attach it again"
    );
    std::fs::write(store.path(&put.sha256).unwrap(), bytes("notes.md")).unwrap();
    assert!(matches!(
        store.stored(&put.sha256, "a.pdf"),
        Err(AttachmentError::Gone { .. })
    ));
}

/// A real PNG of `width` × `height`, drawn here.
fn png_of(width: u32, height: u32) -> Vec<u8> {
    let img = ::image::RgbaImage::from_fn(width, height, |x, y| {
        ::image::Rgba([(x % 256) as u8, (y % 256) as u8, 128, 255])
    });
    let mut out = Vec::new();
    ::image::DynamicImage::ImageRgba8(img)
        .write_to(
            &mut std::io::Cursor::new(&mut out),
            ::image::ImageFormat::Png,
        )
        .unwrap();
    out
}

#[test]
fn a_large_image_is_shown_in_the_thread_by_a_thumbnail_made_once() {
    use shown::{Size, THUMB_EDGE};
    let dir = tempfile::tempdir().unwrap();
    let store = AttachmentStore::at(dir.path().join("attachments"));
    let big = store.put(&png_of(1600, 900), "wide.png").unwrap();
    let thumb = store.shown(&big.sha256, Size::Thumb).unwrap().unwrap();
    assert_eq!(thumb.kind, Kind::Png);
    let size = image::dimensions(&thumb.bytes, thumb.kind).unwrap();
    assert_eq!((size.width, size.height), (THUMB_EDGE, 180));
    let kept = dir.path().join("attachments/thumbs").join(&big.sha256);
    let made = std::fs::metadata(&kept).unwrap().modified().unwrap();
    assert_eq!(
        store.shown(&big.sha256, Size::Thumb).unwrap().unwrap(),
        thumb
    );
    assert_eq!(
        std::fs::metadata(&kept).unwrap().modified().unwrap(),
        made,
        "the second look reads the thumbnail made by the first"
    );
    let full = store.shown(&big.sha256, Size::Full).unwrap().unwrap();
    assert_eq!(sha256_hex(&full.bytes), big.sha256);

    // A small image is its own thumbnail; a photo's stays a JPEG.
    let small = store.put(&bytes("whiteboard.png"), "w.png").unwrap();
    assert_eq!(
        store
            .shown(&small.sha256, Size::Thumb)
            .unwrap()
            .unwrap()
            .bytes,
        bytes("whiteboard.png")
    );
    assert!(
        !dir.path()
            .join("attachments/thumbs")
            .join(&small.sha256)
            .exists()
    );

    // A PDF, text, a hash not stored and a name that is not a hash are never shown.
    let pdf = store.put(&bytes("boiling-points.pdf"), "b.pdf").unwrap();
    let svg = store.put(&bytes("diagram.svg"), "d.svg").unwrap();
    for sha in [
        pdf.sha256.as_str(),
        svg.sha256.as_str(),
        &"0".repeat(64),
        "../../etc/passwd",
    ] {
        assert_eq!(store.shown(sha, Size::Full).unwrap(), None, "{sha}");
        assert_eq!(store.shown(sha, Size::Thumb).unwrap(), None, "{sha}");
    }

    // The thumbnail goes with its image.
    let referenced: HashSet<String> = [small.sha256.clone()].into();
    store
        .remove_unreferenced(&referenced, std::time::Duration::ZERO)
        .unwrap();
    assert!(!kept.exists());
}

#[test]
fn a_large_image_goes_smaller_where_the_provider_takes_less_and_a_pdf_goes_as_text_where_it_is_not_read()
 {
    use crate::catalog::Catalog;
    use crate::chat::{Message, Part, Payload};
    let dir = tempfile::tempdir().unwrap();
    let store = AttachmentStore::at(dir.path().join("attachments"));
    let big = store.put(&png_of(2400, 1200), "wide.png").unwrap();
    let pdf = store
        .put(&bytes("boiling-points.pdf"), "boiling-points.pdf")
        .unwrap();
    let question = || {
        let mut m = Message::user("what do these say?");
        m.parts
            .push(Part::Attachment(big.clone().attachment("wide.png")));
        m.parts.push(Part::Attachment(
            pdf.clone().attachment("boiling-points.pdf"),
        ));
        vec![m]
    };
    let image_of = |messages: &[Message]| {
        messages[0]
            .attachments()
            .find(|f| f.kind.is_image())
            .and_then(|f| match &f.data {
                Some(Payload::Bytes(b)) => Some(image::dimensions(b, f.kind).unwrap()),
                _ => None,
            })
    };
    let catalog = Catalog::builtin();

    // Anthropic scales past 1568 px itself: the copy sent is that size, made once, kept.
    let claude = catalog
        .resolve(Some("anthropic"), "claude-sonnet-4-5")
        .unwrap();
    let mut sent = question();
    assert!(store.load_for(&mut sent, &claude).is_empty());
    assert_eq!(
        image_of(&sent).map(|d| (d.width, d.height)),
        Some((1568, 784))
    );
    assert!(
        dir.path()
            .join("attachments/sent-1568")
            .join(&big.sha256)
            .exists()
    );
    // The next request sends the kept copy as it is.
    let mut again = question();
    assert!(store.load_for(&mut again, &claude).is_empty());
    assert_eq!(
        image_of(&again).map(|d| (d.width, d.height)),
        Some((1568, 784))
    );
    assert_eq!(
        again[0].attachments().next().unwrap().pixels,
        Some((1568, 784))
    );
    assert_eq!(
        sha256_hex(&store.read(&big.sha256).unwrap()),
        big.sha256,
        "the original is kept as it was"
    );
    assert!(matches!(
        sent[0]
            .attachments()
            .find(|f| f.kind == Kind::Pdf)
            .unwrap()
            .data,
        Some(Payload::Bytes(_))
    ));
    // The context counts the files: the image at Anthropic's most (about 1,600 tokens), and
    // the PDF's two pages.
    let settings = crate::reasoning::ReasoningSettings::default();
    let words = crate::providers::context::effective_tokens(
        &[Message::user("what do these say?")],
        &settings,
        &claude,
    )
    .tokens;
    let all = crate::providers::context::effective_tokens(&sent, &settings, &claude).tokens;
    assert_eq!(all - words, 1_600 + 2 * 2_250);

    // Ollama has no place for a PDF: its text goes, and the user is told.
    let ollama = catalog.resolve(Some("ollama"), "qwen3:8b").unwrap();
    let mut sent = question();
    let notes = store.load_for(&mut sent, &ollama);
    assert_eq!(
        image_of(&sent).map(|d| d.long_edge()),
        Some(2400),
        "no documented edge"
    );
    let pdf_sent = sent[0].attachments().find(|f| f.kind == Kind::Pdf).unwrap();
    let Some(Payload::Text(text)) = &pdf_sent.data else {
        panic!("{:?}", pdf_sent.data)
    };
    assert!(text.contains("Water"), "{text}");
    assert!(
        notes[0].contains("boiling-points.pdf was sent as its text"),
        "{notes:?}"
    );

    // A model that sees no images is sent none, and reads the PDF's text.
    let mini = catalog.resolve(Some("openai"), "o3-mini").unwrap();
    let mut sent = question();
    let notes = store.load_for(&mut sent, &mini);
    assert_eq!(image_of(&sent), None);
    assert_eq!(sent[0].attachments().count(), 1);
    assert_eq!(notes.len(), 2, "{notes:?}");

    // A preview names each file and reads none.
    let mut shown = question();
    store.describe_for(&mut shown, &claude);
    let about: Vec<_> = shown[0]
        .attachments()
        .map(|f| match &f.data {
            Some(Payload::Described(about)) => about.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert!(about[0].starts_with("image/png, "), "{about:?}");
    assert!(
        about[0].ends_with("sent at most 1568 px a side"),
        "{about:?}"
    );
    assert!(
        about[1].starts_with("application/pdf, 1.9 KiB"),
        "{about:?}"
    );
}
