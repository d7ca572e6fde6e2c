//! WebKitGTK settings for the app's one page (Linux; nothing to do elsewhere).
//!
//! Hardware acceleration is turned off: WebKitGTK composites with OpenGL by default, and
//! without a GPU (Mesa's software GL) the first start after an install compiles the GL
//! shaders for seconds while the window stays blank, and every repaint goes through the
//! software GL. The board needs none of it. What this measurably changed (start, CPU, PSS):
//! "The app at rest and at work" in docs/BENCHMARKS.md.

use tauri::{AppHandle, Runtime};

/// Sets up the environment GTK reads, before anything starts GTK (call it first in `main`,
/// while the process has one thread). GDK's own OpenGL is turned off unless the user asked
/// for it: nothing in the app draws with GDK's GL (the page is painted in software, see
/// [`tune`]), yet GDK would load Mesa and LLVM on the main thread at start, before the
/// window and the web process can start.
pub fn before_gtk() {
    #[cfg(target_os = "linux")]
    if std::env::var_os("GDK_GL").is_none() {
        std::env::set_var("GDK_GL", "disable");
    }
}

/// Applies the settings to the main window's webview.
pub fn tune<R: Runtime>(app: &AppHandle<R>) {
    #[cfg(target_os = "linux")]
    {
        use tauri::Manager;
        let Some(window) = app.get_webview_window("main") else {
            return;
        };
        let applied = window.with_webview(|webview| {
            use webkit2gtk::{HardwareAccelerationPolicy, SettingsExt, WebViewExt};
            if let Some(settings) = WebViewExt::settings(&webview.inner()) {
                settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
                // Ctrl+C: the page writes the text the backend gives (`copy_text`) to the
                // clipboard once that answer is in, after the key's user gesture is spent:
                // WebKitGTK then refuses navigator.clipboard and execCommand("copy") unless
                // the page may use the clipboard.
                settings.set_javascript_can_access_clipboard(true);
            }
        });
        if let Err(e) = applied {
            eprintln!("tengen: the webview settings could not be applied: {e}");
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = app;
}
