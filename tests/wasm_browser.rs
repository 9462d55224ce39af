//! The same JavaScript API tests as `wasm_api.rs`, in headless Chromium.
#![cfg(all(target_arch = "wasm32", feature = "wasm"))]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "wasm_api.rs"]
mod api;
