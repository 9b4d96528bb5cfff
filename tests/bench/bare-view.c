/* A bare WebKitGTK view, the floor under the app's idle memory figure: a window of the app's
 * size with one web view showing a heading and a paragraph, drawn as the app draws on X11
 * (without compositing, and without GL in this process: see src-tauri/src/webview.rs). What
 * the app's idle figure holds above this one is the app's own: its code, its page and its
 * data.
 *
 *   bare-view WIDTH HEIGHT    prints "bare-view: loaded" once the page has loaded
 *
 * Built by bench/bare-view.mjs with the system's C compiler and WebKitGTK's headers, which the
 * app's own build already needs. */
#include <EGL/egl.h>
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>
#include <webkit2/webkit2.h>

static const char *PAGE =
    "<!doctype html><html><head><meta charset=utf-8><title>Bare</title></head>"
    "<body style='font-family: system-ui, sans-serif'><h1>A bare web view</h1>"
    "<p>A paragraph of text, so that the page has set up a font as any page does.</p></body></html>";

static void on_load_changed(WebKitWebView *view, WebKitLoadEvent event, gpointer data) {
  (void)view;
  (void)data;
  if (event == WEBKIT_LOAD_FINISHED) {
    puts("bare-view: loaded");
    fflush(stdout);
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s WIDTH HEIGHT\n", argv[0]);
    return 2;
  }
  int width = atoi(argv[1]), height = atoi(argv[2]);
  /* As the app does before GTK starts: no compositing, and EGL's vendors hidden while this
   * process opens its display, so that only the web process loads the system's GL. */
  setenv("WEBKIT_DISABLE_COMPOSITING_MODE", "1", 1);
  setenv("GDK_GL", "disable", 1);
  setenv("__EGL_VENDOR_LIBRARY_FILENAMES", "/dev/null", 1);
  eglGetDisplay(EGL_DEFAULT_DISPLAY);
  unsetenv("__EGL_VENDOR_LIBRARY_FILENAMES");

  gtk_init(&argc, &argv);
  GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
  gtk_window_set_default_size(GTK_WINDOW(window), width, height);
  gtk_window_set_title(GTK_WINDOW(window), "Bare web view");
  GtkWidget *view = webkit_web_view_new();
  gtk_container_add(GTK_CONTAINER(window), view);
  g_signal_connect(view, "load-changed", G_CALLBACK(on_load_changed), NULL);
  g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);
  webkit_web_view_load_html(WEBKIT_WEB_VIEW(view), PAGE, "about:blank");
  gtk_widget_show_all(window);
  gtk_main();
  return 0;
}
