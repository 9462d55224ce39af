//! TeX to MathML for the element: `pkg/math_bg.wasm`, the module `<docstream-view>`
//! loads when the first formula appears, so pages without formulas never load it.
#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

use wasm_bindgen::prelude::*;

/// The MathML of a TeX formula (checked: MathML Core elements and layout attributes
/// only, text escaped), or `undefined` when it does not parse; `display` for a display
/// formula (`$$…$$`).
#[wasm_bindgen(js_name = texToMathml)]
pub fn tex_to_mathml(tex: &str, display: bool) -> Option<String> {
    docstream_html::math::tex_to_mathml(tex, display)
}
