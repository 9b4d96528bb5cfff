//! Schema migrations, append-only: a new file per change, never an edit of a shipped one.

use std::sync::LazyLock;

use rusqlite_migration::{M, Migrations};

static MIGRATIONS: LazyLock<Migrations<'static>> = LazyLock::new(|| {
    Migrations::new(vec![
        M::up(include_str!("../../migrations/0001_init.sql")),
        M::up(include_str!("../../migrations/0002_run_owner.sql")),
        M::up(include_str!("../../migrations/0003_message_notes.sql")),
        M::up(include_str!("../../migrations/0004_tool_messages.sql")),
        M::up(include_str!("../../migrations/0005_message_tree.sql")),
        M::up(include_str!("../../migrations/0006_first_token.sql")),
        M::up(include_str!("../../migrations/0007_search_and_open.sql")),
        M::up(include_str!(
            "../../migrations/0008_search_when_finished.sql"
        )),
        M::up(include_str!("../../migrations/0009_text_stored_once.sql")),
        M::up(include_str!(
            "../../migrations/0010_conversation_project.sql"
        )),
        M::up(include_str!(
            "../../migrations/0011_deleted_branches_indexed.sql"
        )),
        M::up(include_str!(
            "../../migrations/0012_figures_cover_thinking_time.sql"
        )),
    ])
});

/// The schema version a fresh database gets (`PRAGMA user_version`).
pub const LATEST_VERSION: i64 = 12;

pub fn migrations() -> &'static Migrations<'static> {
    &MIGRATIONS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_valid() {
        migrations().validate().unwrap();
    }
}
