//! The history store as a file on disk across versions.

mod migrations;
