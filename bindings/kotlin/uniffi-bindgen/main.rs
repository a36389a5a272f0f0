//! UniFFI's generator: `uniffi-bindgen generate --library libagent_snapshot_kotlin.so
//! --language kotlin --out-dir DIR` writes the Kotlin side of the binding.

fn main() {
    uniffi::uniffi_bindgen_main()
}
