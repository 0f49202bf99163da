//! Image files for the photo tests and benchmarks, built here rather than shipped: real JPEGs
//! and PNGs from the `image` crate, metadata written into them by hand (an EXIF block with a
//! GPS position and an orientation, a comment, an ICC profile), a PNG whose header claims more
//! pixels than any photo may have, and a reader of the segments a JPEG carries.

use std::io::Cursor;

use image::{ImageFormat, Rgb, RgbImage, Rgba, RgbaImage, codecs::jpeg::JpegEncoder};

/// A JPEG of `width` x `height`: its left half red, its right half blue, with a green band
/// along the top, so a turn shows in the pixels.
pub fn jpeg(width: u32, height: u32) -> Vec<u8> {
    let image = RgbImage::from_fn(width, height, |x, y| {
        if y < height / 8 {
            Rgb([0, 200, 0])
        } else if x < width / 2 {
            Rgb([220, 20, 20])
        } else {
            Rgb([20, 20, 220])
        }
    });
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, 90)
        .encode_image(&image)
        .expect("encode a test JPEG");
    out
}

/// A JPEG of `width` x `height` of noise at quality 100: as large a file as its pixels make
/// (a phone's photo of fine texture), for the memory figures.
pub fn noisy_jpeg(width: u32, height: u32, seed: u32) -> Vec<u8> {
    let mut state = seed.wrapping_mul(2_654_435_761).max(1);
    let image = RgbImage::from_fn(width, height, |_, _| {
        // xorshift32: fast, and enough to defeat compression.
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let [r, g, b, _] = state.to_le_bytes();
        Rgb([r, g, b])
    });
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, 100)
        .encode_image(&image)
        .expect("encode a test JPEG");
    out
}

/// A PNG of `width` x `height`, transparent on its left half.
pub fn png_with_transparency(width: u32, height: u32) -> Vec<u8> {
    let image = RgbaImage::from_fn(width, height, |x, _| {
        if x < width / 2 {
            Rgba([0, 0, 0, 0])
        } else {
            Rgba([20, 20, 220, 255])
        }
    });
    let mut out = Cursor::new(Vec::new());
    image
        .write_to(&mut out, ImageFormat::Png)
        .expect("encode a test PNG");
    out.into_inner()
}

/// A WebP of `width` x `height` (lossless, what the `image` crate writes).
pub fn webp(width: u32, height: u32) -> Vec<u8> {
    let image = RgbaImage::from_pixel(width, height, Rgba([200, 120, 40, 255]));
    let mut out = Cursor::new(Vec::new());
    image
        .write_to(&mut out, ImageFormat::WebP)
        .expect("encode a test WebP");
    out.into_inner()
}

/// An EXIF block (TIFF, little-endian) saying who made the photo with which camera, where
/// (a GPS position in Montréal) and, when given, its orientation (1 to 8; 6: turn it a
/// quarter clockwise to show it upright).
pub fn exif_with_gps(orientation: Option<u16>) -> Vec<u8> {
    // IFD0 at 8: Make, Artist, Orientation (when given), the GPS IFD's offset.
    let make = b"PhoneCam\0";
    let artist = b"Jeanne Tremblay\0";
    let entries0 = 3 + u16::from(orientation.is_some());
    let ifd0_len = 2 + 12 * u32::from(entries0) + 4;
    let make_at = 8 + ifd0_len;
    let artist_at = make_at + make.len() as u32;
    let gps_at = artist_at + artist.len() as u32;
    // GPS IFD: latitude N 45 30 30, longitude W 73 34 12.
    let gps_len = 2 + 12 * 4 + 4;
    let latitude_at = gps_at + gps_len;
    let longitude_at = latitude_at + 24;

    let mut tiff = b"II*\0".to_vec();
    tiff.extend(8u32.to_le_bytes());
    tiff.extend(entries0.to_le_bytes());
    entry(&mut tiff, 0x010F, 2, make.len() as u32, make_at);
    if let Some(orientation) = orientation {
        entry(&mut tiff, 0x0112, 3, 1, u32::from(orientation));
    }
    entry(&mut tiff, 0x013B, 2, artist.len() as u32, artist_at);
    entry(&mut tiff, 0x8825, 4, 1, gps_at);
    tiff.extend(0u32.to_le_bytes());
    tiff.extend(make);
    tiff.extend(artist);
    tiff.extend(4u16.to_le_bytes());
    entry(&mut tiff, 0x0001, 2, 2, u32::from_le_bytes(*b"N\0\0\0"));
    entry(&mut tiff, 0x0002, 5, 3, latitude_at);
    entry(&mut tiff, 0x0003, 2, 2, u32::from_le_bytes(*b"W\0\0\0"));
    entry(&mut tiff, 0x0004, 5, 3, longitude_at);
    tiff.extend(0u32.to_le_bytes());
    for value in [45, 30, 30, 73, 34, 12u32] {
        tiff.extend(value.to_le_bytes());
        tiff.extend(1u32.to_le_bytes());
    }
    tiff
}

fn entry(tiff: &mut Vec<u8>, tag: u16, kind: u16, count: u32, value: u32) {
    tiff.extend(tag.to_le_bytes());
    tiff.extend(kind.to_le_bytes());
    tiff.extend(count.to_le_bytes());
    // A SHORT sits in the first two bytes of the value field.
    tiff.extend(value.to_le_bytes());
}

/// `jpeg` with metadata segments inserted right after its start: the EXIF block `exif` (APP1),
/// an XMP packet (APP1), an ICC profile's start (APP2) and a comment (COM).
pub fn with_metadata(jpeg: &[u8], exif: &[u8]) -> Vec<u8> {
    assert_eq!(&jpeg[..2], [0xFF, 0xD8], "not a JPEG");
    let mut out = jpeg[..2].to_vec();
    let mut exif_payload = b"Exif\0\0".to_vec();
    exif_payload.extend(exif);
    segment(&mut out, 0xE1, &exif_payload);
    let mut xmp = b"http://ns.adobe.com/xap/1.0/\0".to_vec();
    xmp.extend(b"<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF><rdf:Description exif:GPSLatitude='45,30.5N'/></rdf:RDF></x:xmpmeta>");
    segment(&mut out, 0xE1, &xmp);
    let mut icc = b"ICC_PROFILE\0\x01\x01".to_vec();
    icc.extend([0u8; 128]);
    segment(&mut out, 0xE2, &icc);
    segment(
        &mut out,
        0xFE,
        b"Taken by Jeanne Tremblay at 1234 rue Sainte-Catherine",
    );
    out.extend(&jpeg[2..]);
    out
}

fn segment(out: &mut Vec<u8>, marker: u8, payload: &[u8]) {
    let len = u16::try_from(payload.len() + 2).expect("a segment holds at most 64 KiB");
    out.extend([0xFF, marker]);
    out.extend(len.to_be_bytes());
    out.extend(payload);
}

/// The markers of a JPEG's segments before its image data (SOI excluded): 0xE0 for APP0,
/// 0xE1 for APP1 (EXIF, XMP), 0xFE for a comment, 0xDB for a quantisation table, ...
pub fn jpeg_markers(jpeg: &[u8]) -> Vec<u8> {
    assert_eq!(&jpeg[..2], [0xFF, 0xD8], "not a JPEG");
    let mut markers = Vec::new();
    let mut at = 2;
    while at + 4 <= jpeg.len() {
        assert_eq!(jpeg[at], 0xFF, "a segment starts with 0xFF at {at}");
        let marker = jpeg[at + 1];
        markers.push(marker);
        if marker == 0xDA {
            break;
        }
        let len = usize::from(u16::from_be_bytes([jpeg[at + 2], jpeg[at + 3]]));
        at += 2 + len;
    }
    markers
}

/// The payload of each APP0 segment of a JPEG.
fn jpeg_app0(jpeg: &[u8]) -> Vec<Vec<u8>> {
    let mut found = Vec::new();
    let mut at = 2;
    while at + 4 <= jpeg.len() && jpeg[at + 1] != 0xDA {
        let len = usize::from(u16::from_be_bytes([jpeg[at + 2], jpeg[at + 3]]));
        if jpeg[at + 1] == 0xE0 {
            found.push(jpeg[at + 4..at + 2 + len].to_vec());
        }
        at += 2 + len;
    }
    found
}

/// Asserts a stored copy is a JPEG holding nothing of the original but pixels: no APP1 to
/// APP15 (EXIF, XMP, ICC, ...), no comment, and only the encoder's JFIF APP0.
pub fn assert_no_metadata(jpeg: &[u8]) {
    let markers = jpeg_markers(jpeg);
    assert!(
        markers
            .iter()
            .all(|m| !(0xE1..=0xEF).contains(m) && *m != 0xFE),
        "metadata segments in {markers:x?}"
    );
    for app0 in jpeg_app0(jpeg) {
        assert!(app0.starts_with(b"JFIF\0"), "{app0:?}");
    }
    for trace in [
        &b"PhoneCam"[..],
        b"Tremblay",
        b"Exif",
        b"xmpmeta",
        b"ICC_PROFILE",
    ] {
        assert!(
            !jpeg.windows(trace.len()).any(|w| w == trace),
            "{:?} survived",
            String::from_utf8_lossy(trace)
        );
    }
}

/// A PNG whose header says `width` x `height` pixels of 8-bit RGBA (16,000 x 16,000 would open
/// into a gigabyte), followed by the first megabyte of its zero rows compressed (a few
/// kilobytes): what a decompression bomb looks like to a decoder that reads it.
pub fn png_bomb(width: u32, height: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend(width.to_be_bytes());
    ihdr.extend(height.to_be_bytes());
    // 8 bits, colour type 6 (RGBA), deflate, no filter method, not interlaced.
    ihdr.extend([8, 6, 0, 0, 0]);
    chunk(&mut png, b"IHDR", &ihdr);
    chunk(&mut png, b"IDAT", &zlib_zeros(1024 * 1024));
    chunk(&mut png, b"IEND", &[]);
    png
}

fn chunk(png: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    png.extend(
        u32::try_from(data.len())
            .expect("small chunk")
            .to_be_bytes(),
    );
    let mut crc_input = kind.to_vec();
    crc_input.extend(data);
    png.extend(&crc_input);
    png.extend(crc32(&crc_input).to_be_bytes());
}

/// A zlib stream of `len` zero bytes: one block of fixed Huffman codes, a literal zero then
/// copies of 258 bytes at distance 1 (13 bits each).
fn zlib_zeros(len: usize) -> Vec<u8> {
    let mut bits = BitWriter::default();
    bits.push(1, 1); // the last block
    bits.push(1, 2); // fixed Huffman codes (01, written low bit first)
    // Literal 0: code 00110000 (8 bits), written most significant bit first.
    bits.push_code(0b0011_0000, 8);
    let mut left = len - 1;
    while left >= 258 {
        bits.push_code(0b1100_0101, 8); // length 258: symbol 285
        bits.push_code(0, 5); // distance 1: code 0
        left -= 258;
    }
    for _ in 0..left {
        bits.push_code(0b0011_0000, 8);
    }
    bits.push_code(0, 7); // end of block: symbol 256
    let mut out = vec![0x78, 0x01];
    out.extend(bits.finish());
    let (mut a, mut b) = (1u32, 0u32);
    for _ in 0..len {
        b = (b + a) % 65_521;
    }
    a %= 65_521;
    out.extend(((b << 16) | a).to_be_bytes());
    out
}

#[derive(Default)]
struct BitWriter {
    bytes: Vec<u8>,
    current: u8,
    used: u8,
}

impl BitWriter {
    /// `count` bits of `value`, least significant first (deflate's header fields).
    fn push(&mut self, value: u32, count: u8) {
        for i in 0..count {
            self.bit((value >> i) & 1 == 1);
        }
    }

    /// A Huffman code of `count` bits, most significant first.
    fn push_code(&mut self, code: u32, count: u8) {
        for i in (0..count).rev() {
            self.bit((code >> i) & 1 == 1);
        }
    }

    fn bit(&mut self, set: bool) {
        if set {
            self.current |= 1 << self.used;
        }
        self.used += 1;
        if self.used == 8 {
            self.bytes.push(self.current);
            self.current = 0;
            self.used = 0;
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.used > 0 {
            self.bytes.push(self.current);
        }
        self.bytes
    }
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}
