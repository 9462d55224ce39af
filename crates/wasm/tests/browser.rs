//! The same JavaScript API tests as `api.rs`, in headless Chromium.
#![cfg(any(target_arch = "wasm32", clippy))]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "api.rs"]
mod api;
