//! Writes the HUD's TypeScript wire types: `ui/src/protocol.ts`.

use std::path::Path;

fn main() -> std::io::Result<()> {
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/protocol.ts");
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&out, jarvis_protocol::typescript())?;
    println!("wrote {}", out.display());
    Ok(())
}
