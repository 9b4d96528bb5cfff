//! Id patterns: how a catalog rule or an override key names the models it covers.

/// A pattern covers an id it prefixes up to a boundary: `o3` covers `o3-mini-2025-01-31` and
/// `qwen3` covers `qwen3:8b`, but `o3` does not cover `o30` or `o3/med`.
pub fn pattern_matches(pattern: &str, id: &str) -> bool {
    id.strip_prefix(pattern)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['-', '.', ':', '@', '_']))
}
