/*
 * The web process's check of its own memory, moved off the page's thread.
 *
 * Why: every 30 s WebKit's web process measures its own footprint on its main thread, the
 * thread that runs the page's scripts and draws its frames, by reading /proc/self/smaps line by
 * line (~1,100 mappings, most of them the ~190 libraries it loads). After the 10,000-message
 * thread that read took 23 ms, inside a 40 ms frame of a streaming thought (README.md, beside
 * live_thought_longest_frame_ms). WebKitGTK sets that check's interval only in the web
 * context's memory-pressure-settings, which can be given only when the context is made, and
 * Tauri makes it without a way in; its one switch (WEBKIT_DISABLE_MEMORY_PRESSURE_MONITOR)
 * takes WebKit's release of memory away with it.
 *
 * So this module stops WebKit's periodic check and makes the same one on a thread of its own:
 * the same measure (the private dirty memory of anonymous mappings, the heap and the stacks:
 * WTF's memoryFootprint() on Linux), the same limits (WebKitGTK's defaults, read from
 * webkit_memory_pressure_settings_new(), as the app sets none), and the same answer (WebKit's
 * release of memory, not critical above the conservative limit and critical above the strict
 * one), which only then goes to the main thread. What it does not carry over is WebKit's own
 * record of that state, which on Linux only tells the UI process the web process is short of
 * memory. Every WebKit function it needs is looked up when the module loads; without any of
 * them WebKit keeps its own check.
 */

#define _GNU_SOURCE
#include "footprint.h"

#include <dlfcn.h>
#include <glib.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* WTF::MemoryPressureHandler: its singleton and its releaseMemory(Critical, Synchronous), as
 * collect.c looked them up, and its setShouldUsePeriodicMemoryMonitor(bool), which with false
 * drops the timer the check runs on (exported by JavaScriptCore but not API). */
static void *(*handler_singleton)(void);
static void (*handler_release)(void *handler, bool critical, bool synchronous);
static void (*handler_set_periodic)(void *handler, bool use);

/* WebKitGTK's public settings of that check; looked up too, so that a WebKit without them
 * (before 2.34) still loads the module. The memory limit is in MB, the interval in s. */
typedef struct _WebKitMemoryPressureSettings WebKitMemoryPressureSettings;
static WebKitMemoryPressureSettings *(*settings_new)(void);
static void (*settings_free)(WebKitMemoryPressureSettings *);
static guint (*settings_memory_limit)(WebKitMemoryPressureSettings *);
static gdouble (*settings_conservative)(WebKitMemoryPressureSettings *);
static gdouble (*settings_strict)(WebKitMemoryPressureSettings *);
static gdouble (*settings_kill)(WebKitMemoryPressureSettings *);
static gdouble (*settings_poll_interval)(WebKitMemoryPressureSettings *);

typedef struct {
    guint64 conservative_kb;
    guint64 strict_kb;
    gulong interval_us;
} Limits;

#define LOOK_UP(pointer, name) ((pointer) = (__typeof__(pointer))dlsym(RTLD_DEFAULT, (name)))

/* Whether a smaps header line names memory WebKit counts as the process's own: no path (an
 * anonymous mapping), the heap, or a stack. The path is the sixth field, after an inode. */
static bool counted(const char *header)
{
    const char *field = header;
    for (int i = 0; i < 5; i++) {
        field = strchr(field, ' ');
        if (!field)
            return true;
        field += strspn(field, " ");
    }
    if (*field == '\0' || *field == '\n')
        return true;
    return g_str_has_prefix(field, "[heap]") || g_str_has_prefix(field, "[stack");
}

guint64 footprint_kb_from(FILE *smaps)
{
    guint64 total = 0;
    bool counting = false;
    char *line = NULL;
    size_t size = 0;
    while (getline(&line, &size, smaps) != -1) {
        /* A mapping's header starts with its address in lowercase hex; its fields' names start
         * with a capital letter. */
        if (g_ascii_isdigit(line[0]) || (line[0] >= 'a' && line[0] <= 'f')) {
            counting = counted(line);
            continue;
        }
        unsigned long kb;
        if (counting && sscanf(line, "Private_Dirty: %lu", &kb) == 1)
            total += kb;
    }
    free(line);
    return total;
}

static guint64 footprint_kb(void)
{
    FILE *smaps = fopen("/proc/self/smaps", "re");
    if (!smaps)
        return 0;
    guint64 kb = footprint_kb_from(smaps);
    fclose(smaps);
    return kb;
}

/* On the main thread, as WebKit's own check calls it: asynchronous, so that the collection it
 * asks for runs when the page has time. */
static gboolean release_on_main_thread(gpointer critical)
{
    handler_release(handler_singleton(), GPOINTER_TO_INT(critical), false);
    return G_SOURCE_REMOVE;
}

static gpointer check(gpointer data)
{
    Limits *limits = data;
    for (;;) {
        g_usleep(limits->interval_us);
        guint64 kb = footprint_kb();
        if (kb >= limits->conservative_kb)
            g_idle_add_full(G_PRIORITY_DEFAULT, release_on_main_thread, GINT_TO_POINTER(kb >= limits->strict_kb), NULL);
    }
    return NULL;
}

/* WebKit's defaults for its check, or false where this WebKit has other rules than the ones
 * carried over here (a limit of its own to kill the process at). */
static bool read_limits(Limits *limits)
{
    WebKitMemoryPressureSettings *settings = settings_new();
    if (!settings)
        return false;
    guint64 limit_kb = (guint64)settings_memory_limit(settings) * 1024;
    double conservative = settings_conservative(settings), strict = settings_strict(settings);
    double kill = settings_kill(settings), interval = settings_poll_interval(settings);
    settings_free(settings);
    if (!limit_kb || kill > 0 || !(conservative > 0 && conservative < strict && strict < 1) || !(interval >= 1))
        return false;
    limits->conservative_kb = (guint64)(limit_kb * conservative);
    limits->strict_kb = (guint64)(limit_kb * strict);
    limits->interval_us = (gulong)(interval * G_USEC_PER_SEC);
    return true;
}

bool footprint_check_move_off_main_thread(void *(*singleton)(void), void (*release)(void *, bool, bool))
{
    /* WebKit's own switch for its memory handling: then there is no check to move, and its
     * release does nothing. */
    const char *disabled = g_getenv("WEBKIT_DISABLE_MEMORY_PRESSURE_MONITOR");
    if (disabled && strcmp(disabled, "1") == 0)
        return false;
    handler_singleton = singleton;
    handler_release = release;
    LOOK_UP(handler_set_periodic, "_ZN3WTF21MemoryPressureHandler33setShouldUsePeriodicMemoryMonitorEb");
    LOOK_UP(settings_new, "webkit_memory_pressure_settings_new");
    LOOK_UP(settings_free, "webkit_memory_pressure_settings_free");
    LOOK_UP(settings_memory_limit, "webkit_memory_pressure_settings_get_memory_limit");
    LOOK_UP(settings_conservative, "webkit_memory_pressure_settings_get_conservative_threshold");
    LOOK_UP(settings_strict, "webkit_memory_pressure_settings_get_strict_threshold");
    LOOK_UP(settings_kill, "webkit_memory_pressure_settings_get_kill_threshold");
    LOOK_UP(settings_poll_interval, "webkit_memory_pressure_settings_get_poll_interval");
    if (!handler_singleton || !handler_release || !handler_set_periodic || !settings_new || !settings_free
        || !settings_memory_limit || !settings_conservative || !settings_strict || !settings_kill
        || !settings_poll_interval)
        return false;
    Limits *limits = g_new0(Limits, 1);
    if (!read_limits(limits)) {
        g_free(limits);
        return false;
    }
    /* Lives as long as the process; never joined. Its name is what a thread's name can be, at
     * most 15 bytes (the app's test looks for it). Made before WebKit's timer is stopped, so
     * that a thread that cannot be made leaves WebKit's check as it was; its first check comes
     * a whole interval later, as WebKit's would. */
    GThread *thread = g_thread_try_new("ponder-memory", check, limits, NULL);
    if (!thread) {
        g_free(limits);
        return false;
    }
    g_thread_unref(thread);
    handler_set_periodic(handler_singleton(), false);
    return true;
}
