//! WebKitGTK settings for the app's one page (Linux; nothing to do elsewhere).
//!
//! Hardware acceleration is turned off: WebKitGTK composites with OpenGL by default, and
//! without a GPU (Mesa's software GL) the first start after an install compiles the GL
//! shaders for seconds while the window stays blank, and every repaint goes through the
//! software GL. The board needs none of it. What this measurably changed (start, CPU, PSS):
//! "The app" in docs/BENCHMARKS.md.

use tauri::{AppHandle, Runtime};

use crate::storage::Theme;

/// The page's background in each theme (base.css's `--bg`), as the window's and the
/// webview's own background: what shows before the page paints.
pub const LIGHT_BACKGROUND: (u8, u8, u8) = (0xf3, 0xef, 0xe7);
pub const DARK_BACKGROUND: (u8, u8, u8) = (0x14, 0x15, 0x18);

/// The background for the theme setting (`System`: the system's theme as `system_dark`
/// says).
pub fn background_for(theme: Theme, system_dark: bool) -> (u8, u8, u8) {
    let dark = match theme {
        Theme::Dark => true,
        Theme::Light => false,
        Theme::System => system_dark,
    };
    if dark {
        DARK_BACKGROUND
    } else {
        LIGHT_BACKGROUND
    }
}

/// Gives the main window and its webview the background of the saved theme, before the
/// window first shows (tauri.conf.json gives the light one): a dark-theme user never sees
/// a light (or white) window while the page loads.
pub fn paint_background<R: Runtime>(app: &AppHandle<R>, theme: Theme) {
    use tauri::Manager;
    let Some(window) = app.get_webview_window("main") else { return };
    let system_dark = window.theme().is_ok_and(|t| t == tauri::Theme::Dark);
    let (r, g, b) = background_for(theme, system_dark);
    if let Err(e) = window.set_background_color(Some(tauri::window::Color(r, g, b, 255))) {
        eprintln!("tengen: the window's background could not be set: {e}");
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_background_follows_the_theme_setting_and_the_system() {
        assert_eq!(background_for(Theme::Dark, false), DARK_BACKGROUND);
        assert_eq!(background_for(Theme::Light, true), LIGHT_BACKGROUND);
        assert_eq!(background_for(Theme::System, true), DARK_BACKGROUND);
        assert_eq!(background_for(Theme::System, false), LIGHT_BACKGROUND);
        // The same colours as the page's own background (base.css), and tauri.conf.json's.
        let css = include_str!("../../ui/css/base.css");
        assert!(css.contains("--bg: #f3efe7;") && css.contains("--bg: #141518;"));
        let conf = include_str!("../tauri.conf.json");
        assert!(conf.contains(r##""backgroundColor": "#f3efe7""##));
    }
}
