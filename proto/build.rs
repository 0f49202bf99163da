//! Compiles every `.proto` under `repairs/` with protox (pure Rust, no `protoc` needed) and
//! generates prost messages plus tonic clients and servers. The file descriptor set is written
//! to OUT_DIR so the server can offer gRPC reflection.

use std::{env, fs, path::PathBuf};

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
    let mut files = Vec::new();
    proto_files(std::path::Path::new("repairs"), &mut files)?;
    files.sort();

    let descriptors = protox::compile(&files, ["."])?;
    let out_dir = PathBuf::from(env::var("OUT_DIR")?);
    fs::write(
        out_dir.join("repairs_descriptor.bin"),
        prost::Message::encode_to_vec(&descriptors),
    )?;

    tonic_prost_build::configure()
        .build_server(true)
        .build_client(true)
        // Services not built yet answer UNIMPLEMENTED from these default methods.
        .generate_default_stubs(true)
        .compile_fds(descriptors)?;
    Ok(())
}
