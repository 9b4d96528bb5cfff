/* The web process's check of its own memory, moved off the page's thread (footprint.c). */
#pragma once

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>

/* Stops WebKit's periodic check of the web process's footprint, which reads /proc/self/smaps
 * on the main thread every 30 s, and starts the same check on a thread of its own, which asks
 * `release` of `singleton()` (WTF::MemoryPressureHandler's, either may be null) for memory
 * back. Call on the main thread, once WebKit has set its own check up (when it loads the
 * module). Returns whether it did; if not, WebKit's check runs as before. */
bool footprint_check_move_off_main_thread(void *(*singleton)(void), void (*release)(void *, bool, bool));

/* The footprint WebKit counts, in kB, from the text of a /proc/PID/smaps file. */
guint64 footprint_kb_from(FILE *smaps);
