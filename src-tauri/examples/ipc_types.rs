//! Writes the TypeScript types of the HUD's commands: `ui/src/ipc.ts`.

fn main() -> std::io::Result<()> {
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/src/ipc.ts");
    std::fs::write(&out, jarvis_desktop::ipc_typescript())?;
    println!("wrote {}", out.display());
    Ok(())
}
