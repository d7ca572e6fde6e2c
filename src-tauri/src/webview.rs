//! WebKitGTK settings for the app's one page (Linux; nothing to do elsewhere).
//!
//! Hardware acceleration is turned off: WebKitGTK composites with OpenGL by default, and
//! without a GPU (Mesa's software GL) the first start after an install compiles the GL
//! shaders for seconds while the window stays blank, and every repaint goes through the
//! software GL. The board needs none of it. What this measurably changed (start, CPU, PSS):
//! "The app at rest and at work" in docs/BENCHMARKS.md.

use tauri::{AppHandle, Runtime};

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
            }
        });
        if let Err(e) = applied {
            eprintln!("tengen: the webview settings could not be applied: {e}");
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = app;
}
