//! TeX to MathML for the element (cargo feature `wasm-math`): `pkg/math_bg.wasm`, the
//! module `<docstream-view>` loads when the first formula appears, so pages without
//! formulas never load it.

use wasm_bindgen::prelude::*;

/// The MathML of a TeX formula (checked: MathML Core elements and layout attributes
/// only, text escaped), or `undefined` when it does not parse; `display` for a display
/// formula (`$$…$$`).
#[wasm_bindgen(js_name = texToMathml)]
pub fn tex_to_mathml(tex: &str, display: bool) -> Option<String> {
    crate::render::math::tex_to_mathml(tex, display)
}
