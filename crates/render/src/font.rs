//! The font the pictures are drawn with: `DejaVu Sans Mono` (crates/render/fonts/LICENSE),
//! embedded and registered with plotters once, so no system font is read.

use std::sync::Once;

use plotters::style::{FontStyle, register_font};

static FONT: &[u8] = include_bytes!("../fonts/DejaVuSansMono.ttf");
/// The family name the pictures ask plotters for.
pub const FAMILY: &str = "sans-serif";

/// Registers the embedded font (once per process).
pub fn register() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        assert!(
            register_font(FAMILY, FontStyle::Normal, FONT).is_ok(),
            "the embedded font is a TrueType font"
        );
    });
}
