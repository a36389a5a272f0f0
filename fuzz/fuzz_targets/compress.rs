#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agent_snapshot_fuzz::check_compress(data));
