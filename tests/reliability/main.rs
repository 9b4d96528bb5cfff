//! Ponder under attack, faults and abuse: hostile bytes from a provider, keys that must not
//! travel, a turn that fails inside Ponder itself, several processes on one history.

mod crash;
mod disk;
mod hostile;
mod keys;
mod owners;
mod support;
