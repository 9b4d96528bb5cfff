//! A PDF's pages and the text on them: the page count shown on its chip, and the text sent in
//! its place to a model that reads text but not PDFs (with a note that tables and layout may
//! not survive). A PDF is someone else's file: the reader runs behind a guard, so a file that
//! trips it is an error, never a crash.

#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    #[error("the PDF could not be read ({0})")]
    Unreadable(String),
    #[error("the PDF could not be read (it stopped the reader)")]
    Stopped,
}

/// How many pages the PDF has, or none when it cannot be read.
pub fn pages(bytes: &[u8]) -> Option<u32> {
    std::panic::catch_unwind(|| lopdf::Document::load_mem(bytes).ok())
        .ok()
        .flatten()
        .and_then(|doc| u32::try_from(doc.get_pages().len()).ok())
}

/// The text of each page, in order.
pub fn page_texts(bytes: &[u8]) -> Result<Vec<String>, PdfError> {
    let read = std::panic::catch_unwind(|| pdf_extract::extract_text_from_mem_by_pages(bytes));
    match read {
        Ok(Ok(pages)) => Ok(pages),
        Ok(Err(e)) => Err(PdfError::Unreadable(e.to_string())),
        Err(_) => Err(PdfError::Stopped),
    }
}

/// The text to send instead of the PDF: each page under its number.
pub fn as_text(name: &str, pages: &[String]) -> String {
    let mut out = format!("The text of {name} ({} pages):\n", pages.len());
    for (i, page) in pages.iter().enumerate() {
        out.push_str(&format!("\n--- page {} ---\n{}\n", i + 1, page.trim()));
    }
    out
}
