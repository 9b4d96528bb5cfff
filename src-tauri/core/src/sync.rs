//! Locks that keep working after a panic. Everything Ponder keeps under a lock is whole
//! between statements (a map of runs, a draft being folded, a transaction SQLite rolls back),
//! so a thread that panicked while holding one leaves nothing half-written: the next user
//! takes the lock as it is instead of failing in turn.

use std::sync::{Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

pub trait Locked<T: ?Sized> {
    /// The lock, whether or not a holder panicked.
    fn locked(&self) -> MutexGuard<'_, T>;
}

impl<T: ?Sized> Locked<T> for Mutex<T> {
    fn locked(&self) -> MutexGuard<'_, T> {
        self.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

pub trait Shared<T: ?Sized> {
    /// Read access, whether or not a writer panicked.
    fn reading(&self) -> RwLockReadGuard<'_, T>;
    /// Write access, whether or not a holder panicked.
    fn writing(&self) -> RwLockWriteGuard<'_, T>;
}

impl<T: ?Sized> Shared<T> for RwLock<T> {
    fn reading(&self) -> RwLockReadGuard<'_, T> {
        self.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn writing(&self) -> RwLockWriteGuard<'_, T> {
        self.write().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_whose_holder_panicked_is_still_taken() {
        let mutex = std::sync::Arc::new(Mutex::new(1));
        let rw = std::sync::Arc::new(RwLock::new(1));
        let (m, r) = (mutex.clone(), rw.clone());
        let _ = std::thread::spawn(move || {
            let _held = m.lock().unwrap();
            let _written = r.write().unwrap();
            panic!("while holding both");
        })
        .join();
        assert!(mutex.is_poisoned() && rw.is_poisoned());
        *mutex.locked() += 1;
        *rw.writing() += 1;
        assert_eq!((*mutex.locked(), *rw.reading()), (2, 2));
    }
}
