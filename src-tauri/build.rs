fn main() {
    // The config sits at the workspace root beside this package's Cargo.toml;
    // the capabilities stay with the shell's sources.
    let attrs =
        tauri_build::Attributes::new().capabilities_path_pattern("src-tauri/capabilities/**/*");
    if let Err(e) = tauri_build::try_build(attrs) {
        println!("cargo::error=tauri-build: {e:#}");
    }
}
