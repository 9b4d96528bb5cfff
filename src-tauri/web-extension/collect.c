/*
 * Ponder's web-process extension: lets the app's page ask JavaScriptCore for a whole
 * collection now, and WebKit to give back what it keeps for later. When it loads it also moves
 * WebKit's periodic check of the process's memory off the page's thread (footprint.c).
 *
 * Why: a page cannot ask for one, and a long thread let go of stays in the web process until
 * WebKit's timed whole collection comes. That timer waits ten times as long as the last whole
 * collection took, and after a long thread has been scrolled through, that was seconds: the
 * thread's tens of megabytes stayed while the app sat idle on a new chat (webview.rs,
 * ui/src/lib/collector.ts). Asked for here as soon as the thread is gone, the same collection
 * frees it at once (measured in README.md, beside memory_after_long_thread_over_idle_mb).
 *
 * WebKit loads this module into each web process it starts, from the directory the app gives
 * it (webview.rs). It adds two functions to the main frame's page, nothing to any other frame:
 * `__ponderCollectGarbage()`, which runs the collection synchronously and hands the memory it
 * freed back to the system; and `__ponderReleaseMemory()`, which does what WebKit itself does
 * when the system runs short of memory (defined only where this WebKit has it). Both return
 * nothing. The page is the app's own (its content security policy allows only its own
 * scripts), so nothing but the app can call them, and all they can do is spend the page's own
 * time and have it compile its scripts again.
 */

#define _GNU_SOURCE
#include "footprint.h"

#include <JavaScriptCore/JSContextRef.h>
#include <dlfcn.h>
#include <malloc.h>
#include <stdbool.h>
#include <webkit2/webkit-web-extension.h>

/* JavaScriptCore's C API: a whole, synchronous collection (JSContextRefPrivate.h). The public
 * JSGarbageCollect only hastens WebKit's timer, as the page's own sign does. */
extern void JSSynchronousGarbageCollectForDebugging(JSContextRef context);

#define COLLECT_NAME "__ponderCollectGarbage"
#define RELEASE_NAME "__ponderReleaseMemory"

/* WTF::releaseFastMallocFreeMemory(): WebKit's own allocator hands the pages it holds free back
 * to the system (exported by JavaScriptCore, but C++ and not API, so looked up, not linked: a
 * WebKit without it still loads this module and only skips that step). */
static void (*release_fast_malloc_free_memory)(void);

/* WTF::MemoryPressureHandler::singleton() and its releaseMemory(Critical, Synchronous): what the
 * web process runs when the system is short of memory (WebCore's releaseMemory, set as its
 * handler): a whole collection, then every cache WebKit keeps to draw and script faster
 * (styles, fonts and glyphs, text layout) emptied and the page's compiled scripts deleted.
 * Exported by JavaScriptCore but not API, so looked up too. Both enums are bool-sized. */
static void *(*pressure_handler)(void);
static void (*pressure_release)(void *handler, bool critical, bool synchronous);

static void collect(gpointer frame)
{
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    /* The frame's global context in the C API's terms: what the collector is asked through. */
    JSGlobalContextRef context = webkit_frame_get_javascript_global_context(WEBKIT_FRAME(frame));
    G_GNUC_END_IGNORE_DEPRECATIONS
    if (!context)
        return;
    /* A synchronous whole collection also sweeps: the thread's nodes are freed by the time it
     * returns. Both allocators then keep those pages for later use unless told otherwise;
     * measured after streaming into the 10,000-message thread and leaving it, 3-5 MB went back
     * from glibc's arenas and 1-3.5 MB from WebKit's own (README.md). */
    JSSynchronousGarbageCollectForDebugging(context);
    if (release_fast_malloc_free_memory)
        release_fast_malloc_free_memory();
    malloc_trim(0);
}

static void release(gpointer data)
{
    (void)data;
    /* Critical: only then are the page's style and font caches and its compiled scripts let
     * go of; the other part alone gave nothing measurable back after a long thread (README.md).
     * The scripts running now (the page's call to this) return first: JavaScriptCore deletes
     * the code once they have, and the next whole collection (the page's call to `collect` a
     * moment later) frees it. Synchronous: the collection runs now, not on a timer. It ends
     * with both allocators' free pages given back, as `collect` does. */
    pressure_release(pressure_handler(), true, true);
}

/* Puts `function` on the page's global object under `name`, holding `frame` for as long as the
 * page holds the function. */
static void define(JSCContext *context, const char *name, GCallback function, WebKitFrame *frame)
{
    JSCValue *value = jsc_value_new_function(context, name, function, g_object_ref(frame), g_object_unref, G_TYPE_NONE, 0);
    jsc_context_set_value(context, name, value);
    g_object_unref(value);
}

static void window_object_cleared(WebKitScriptWorld *world, WebKitWebPage *page, WebKitFrame *frame, gpointer data)
{
    (void)page;
    (void)data;
    if (!webkit_frame_is_main_frame(frame))
        return;
    JSCContext *context = webkit_frame_get_js_context_for_script_world(frame, world);
    define(context, COLLECT_NAME, G_CALLBACK(collect), frame);
    if (pressure_handler && pressure_release)
        define(context, RELEASE_NAME, G_CALLBACK(release), frame);
    g_object_unref(context);
}

G_MODULE_EXPORT void webkit_web_extension_initialize(WebKitWebExtension *extension)
{
    (void)extension;
    release_fast_malloc_free_memory = (void (*)(void))dlsym(RTLD_DEFAULT, "_ZN3WTF27releaseFastMallocFreeMemoryEv");
    pressure_handler = (void *(*)(void))dlsym(RTLD_DEFAULT, "_ZN3WTF21MemoryPressureHandler9singletonEv");
    pressure_release = (void (*)(void *, bool, bool))dlsym(RTLD_DEFAULT,
        "_ZN3WTF21MemoryPressureHandler13releaseMemoryENS_8CriticalENS_11SynchronousE");
    g_signal_connect(webkit_script_world_get_default(), "window-object-cleared",
        G_CALLBACK(window_object_cleared), NULL);
    footprint_check_move_off_main_thread(pressure_handler, pressure_release);
}
