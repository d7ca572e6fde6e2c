//! Placeholder until the desktop-app issue lands: the Tauri app lives here.
fn main() {
    println!("tengen-app: not built yet");
}
