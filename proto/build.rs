//! Compiles every `.proto` under `repairs/` with protox (pure Rust, no `protoc` needed) and
//! generates prost messages plus tonic clients and servers. The file descriptor set (with the
//! `buf.validate` annotations in its options) is written to OUT_DIR so the server can offer
//! gRPC reflection, and `limits.rs` is generated from those annotations (see `build/limits.rs`).

use std::{env, fs, path::PathBuf};

#[path = "build/limits.rs"]
mod limits;

fn proto_files(dir: &std::path::Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            proto_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "proto") {
            out.push(path);
        }
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=repairs");
    println!("cargo:rerun-if-changed=buf");
    println!("cargo:rerun-if-changed=build");
    let mut files = Vec::new();
    proto_files(std::path::Path::new("repairs"), &mut files)?;
    files.sort();

    // `buf/validate/validate.proto` (protovalidate's, vendored) is found beside `repairs/`.
    let mut compiler = protox::Compiler::new(["."])?;
    compiler
        .include_source_info(true)
        .include_imports(true)
        .open_files(&files)?;
    let out_dir = PathBuf::from(env::var("OUT_DIR")?);
    // Encoded from the pool, so the options keep their extensions (the annotations).
    fs::write(
        out_dir.join("repairs_descriptor.bin"),
        compiler.encode_file_descriptor_set(),
    )?;
    let limits = limits::generate(&compiler.descriptor_pool())?;
    fs::write(out_dir.join("limits.rs"), limits)?;

    tonic_prost_build::configure()
        .build_server(true)
        .build_client(true)
        // Services not built yet answer UNIMPLEMENTED from these default methods.
        .generate_default_stubs(true)
        .compile_fds(compiler.file_descriptor_set())?;
    Ok(())
}
