//! One photo decoded within bounds and written again: the header is read first and the size
//! in pixels checked against the bounds before a pixel is decoded (a file of a few kilobytes
//! that would open into gigabytes is refused, never allocated); the pixels are scaled down to
//! the large size, turned upright by the file's orientation, and encoded as baseline JPEG in
//! two sizes. Only pixels cross over: no EXIF (GPS position, camera, owner), XMP, ICC profile
//! or comment of the original is written.

use std::io::Cursor;

use bytes::Bytes;
use image::{
    DynamicImage, ImageDecoder, ImageError, ImageFormat, ImageReader, Limits, Rgb, RgbImage,
    codecs::jpeg::JpegEncoder, metadata::Orientation,
};

use crate::providers::storage::ContentKind;

/// The long side of the large copy, in pixels; smaller photos keep their size.
pub const LARGE_SIDE: u32 = 1600;
/// The long side of the thumbnail, in pixels.
pub const THUMBNAIL_SIDE: u32 = 400;
/// JPEG qualities: the large copy is looked at closely, the thumbnail in a list.
const LARGE_QUALITY: u8 = 82;
const THUMBNAIL_QUALITY: u8 = 75;
/// Decoded pixels take at most this many bytes each within the memory bound (8-bit RGBA); a
/// photo of more bytes per pixel (16-bit PNG) counts as that many more pixels.
const BYTES_PER_PIXEL: u64 = 4;
/// No side longer than this, whatever the pixel count (a 1-pixel-high strip).
const MAX_SIDE: u32 = 20_000;

/// How large a photo may be once decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    pub max_pixels: u64,
}

impl Bounds {
    pub fn megapixels(max_megapixels: u32) -> Self {
        Self {
            max_pixels: u64::from(max_megapixels) * 1_000_000,
        }
    }

    /// The most memory the decoded pixels may take.
    pub fn max_alloc(self) -> u64 {
        self.max_pixels * BYTES_PER_PIXEL
    }

    fn limits(self) -> Limits {
        let mut limits = Limits::default();
        limits.max_image_width = Some(MAX_SIDE);
        limits.max_image_height = Some(MAX_SIDE);
        limits.max_alloc = Some(self.max_alloc());
        limits
    }
}

/// A photo written again: the large copy and the thumbnail (JPEG), and the large copy's size
/// in pixels, upright.
#[derive(Debug, Clone)]
pub struct ProcessedPhoto {
    pub large: Bytes,
    pub thumbnail: Bytes,
    pub width: u32,
    pub height: u32,
}

/// Why a file could not be made a photo.
#[derive(Debug, thiserror::Error)]
pub enum RewriteError {
    /// Larger than the bounds, as the header says (`size`, when it could be read).
    #[error("{}", too_many_pixels(*size, *bounds))]
    TooManyPixels {
        size: Option<(u32, u32)>,
        bounds: Bounds,
    },
    #[error("the image could not be read: it may be cut short or damaged ({0})")]
    Unreadable(String),
    /// Writing the JPEG failed: ours, never the file's.
    #[error("encoding the photo: {0}")]
    Encoding(ImageError),
}

/// Decodes `bytes` (already known to be of `kind`) within `bounds` and writes it again.
pub fn rewrite(
    bytes: &[u8],
    kind: ContentKind,
    bounds: Bounds,
) -> Result<ProcessedPhoto, RewriteError> {
    let (image, orientation) = decode(bytes, kind, bounds)?;
    let mut large = fit(image, LARGE_SIDE);
    // Turned upright once small: a quarter turn copies every pixel.
    large.apply_orientation(orientation);
    let large = flatten(large);
    let thumbnail = fit(DynamicImage::ImageRgb8(large.clone()), THUMBNAIL_SIDE).into_rgb8();
    Ok(ProcessedPhoto {
        width: large.width(),
        height: large.height(),
        large: encode(&large, LARGE_QUALITY)?,
        thumbnail: encode(&thumbnail, THUMBNAIL_QUALITY)?,
    })
}

/// `image` scaled down to fit `side` x `side` (each target pixel the mean of the pixels it
/// covers), or as it is when it fits already: never made larger.
fn fit(image: DynamicImage, side: u32) -> DynamicImage {
    if image.width() > side || image.height() > side {
        image.thumbnail(side, side)
    } else {
        image
    }
}

/// The pixels and the orientation the file asks for, after checking the header's size.
fn decode(
    bytes: &[u8],
    kind: ContentKind,
    bounds: Bounds,
) -> Result<(DynamicImage, Orientation), RewriteError> {
    let format = match kind {
        ContentKind::Jpeg => ImageFormat::Jpeg,
        ContentKind::Png => ImageFormat::Png,
        ContentKind::Webp => ImageFormat::WebP,
        ContentKind::Pdf => {
            return Err(RewriteError::Unreadable("a PDF is not an image".to_owned()));
        }
    };
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(bounds.limits());
    // Reads the header only, and checks the sides against the limits.
    let mut decoder = reader
        .into_decoder()
        .map_err(|error| refusal(error, None, bounds))?;
    let (width, height) = decoder.dimensions();
    let too_many = || RewriteError::TooManyPixels {
        size: Some((width, height)),
        bounds,
    };
    if u64::from(width) * u64::from(height) > bounds.max_pixels {
        return Err(too_many());
    }
    if decoder.total_bytes() > bounds.max_alloc() {
        return Err(too_many());
    }
    // A damaged orientation tag is no reason to refuse the pixels.
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let image = DynamicImage::from_decoder(decoder)
        .map_err(|e| refusal(e, Some((width, height)), bounds))?;
    Ok((image, orientation))
}

/// A decoder's error as the caller's fault: beyond the limits, or not a readable image.
fn refusal(error: ImageError, size: Option<(u32, u32)>, bounds: Bounds) -> RewriteError {
    match error {
        ImageError::Limits(_) => RewriteError::TooManyPixels { size, bounds },
        other => RewriteError::Unreadable(other.to_string()),
    }
}

/// "the image is 20000 x 20000 pixels; a photo may have at most 40 million pixels (...)".
fn too_many_pixels(size: Option<(u32, u32)>, bounds: Bounds) -> String {
    let most = format!(
        "a photo may have at most {} million pixels, or {MAX_SIDE} on a side (fewer with \
         16-bit colour)",
        bounds.max_pixels / 1_000_000
    );
    match size {
        Some((width, height)) => format!("the image is {width} x {height} pixels; {most}"),
        None => format!("the image is too large: {most}"),
    }
}

/// 8-bit RGB, what JPEG holds: transparent parts laid on white, deeper colour rounded.
fn flatten(image: DynamicImage) -> RgbImage {
    if !image.color().has_alpha() {
        return image.into_rgb8();
    }
    let rgba = image.into_rgba8();
    RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let [r, g, b, a] = rgba.get_pixel(x, y).0;
        let over_white = |c: u8| {
            let (c, a) = (u32::from(c), u32::from(a));
            u8::try_from((c * a + 255 * (255 - a) + 127) / 255).unwrap_or(u8::MAX)
        };
        Rgb([over_white(r), over_white(g), over_white(b)])
    })
}

/// Baseline JPEG with nothing but the pixels (and the JFIF header the encoder writes).
fn encode(image: &RgbImage, quality: u8) -> Result<Bytes, RewriteError> {
    let mut out = Vec::with_capacity(image.as_raw().len() / 8);
    JpegEncoder::new_with_quality(&mut out, quality)
        .encode_image(image)
        .map_err(RewriteError::Encoding)?;
    Ok(Bytes::from(out))
}

#[cfg(test)]
mod tests {
    use image::GenericImageView;

    use super::*;
    use crate::testing::photos;

    const BOUNDS: Bounds = Bounds {
        max_pixels: 40_000_000,
    };

    fn decoded(jpeg: &[u8]) -> DynamicImage {
        image::load_from_memory_with_format(jpeg, ImageFormat::Jpeg).unwrap()
    }

    #[test]
    fn both_sizes_keep_no_metadata_of_the_original() {
        let original =
            photos::with_metadata(&photos::jpeg(2400, 1800), &photos::exif_with_gps(None));
        assert!(photos::jpeg_markers(&original).contains(&0xE1));
        let photo = rewrite(&original, ContentKind::Jpeg, BOUNDS).unwrap();
        for copy in [&photo.large, &photo.thumbnail] {
            photos::assert_no_metadata(copy);
        }
        assert_eq!((photo.width, photo.height), (1600, 1200));
        let thumbnail = decoded(&photo.thumbnail);
        assert_eq!(thumbnail.dimensions(), (400, 300));
    }

    #[test]
    fn a_photo_is_turned_upright_by_its_orientation() {
        // Orientation 6: the camera was turned; the stored pixels lie on their side.
        let original =
            photos::with_metadata(&photos::jpeg(300, 200), &photos::exif_with_gps(Some(6)));
        let photo = rewrite(&original, ContentKind::Jpeg, BOUNDS).unwrap();
        assert_eq!((photo.width, photo.height), (200, 300));
        let upright = decoded(&photo.large).to_rgb8();
        // The green band along the original's top is now its right side.
        let right = upright.get_pixel(195, 150).0;
        assert!(right[1] > 150 && right[0] < 80, "{right:?}");
        // Its red left half is now on top.
        let top = upright.get_pixel(60, 40).0;
        assert!(top[0] > 150 && top[2] < 80, "{top:?}");
    }

    #[test]
    fn a_small_photo_is_not_made_larger() {
        let photo = rewrite(&photos::jpeg(640, 480), ContentKind::Jpeg, BOUNDS).unwrap();
        assert_eq!((photo.width, photo.height), (640, 480));
        assert_eq!(decoded(&photo.thumbnail).dimensions(), (400, 300));
        let tiny = rewrite(&photos::jpeg(120, 90), ContentKind::Jpeg, BOUNDS).unwrap();
        assert_eq!(decoded(&tiny.thumbnail).dimensions(), (120, 90));
    }

    #[test]
    fn a_decompression_bomb_is_refused_from_its_header() {
        let bomb = photos::png_bomb(20_000, 20_000);
        assert!(bomb.len() < 16 * 1024, "{} bytes", bomb.len());
        let refused = rewrite(&bomb, ContentKind::Png, BOUNDS).unwrap_err();
        assert!(
            matches!(
                refused,
                RewriteError::TooManyPixels {
                    size: Some((20_000, 20_000)),
                    ..
                }
            ),
            "{refused:?}"
        );
        assert_eq!(
            refused.to_string(),
            "the image is 20000 x 20000 pixels; a photo may have at most 40 million pixels, or \
             20000 on a side (fewer with 16-bit colour)"
        );
        // Sides beyond the longest are refused before the pixel count.
        let strip = photos::png_bomb(30_000, 10);
        assert!(matches!(
            rewrite(&strip, ContentKind::Png, BOUNDS),
            Err(RewriteError::TooManyPixels { .. })
        ));
    }

    #[test]
    fn a_damaged_file_is_unreadable() {
        // Cut short within its tables (a JPEG cut in its image data shows grey below the cut,
        // as in browsers, and is kept).
        let whole = photos::jpeg(400, 300);
        let cut = &whole[..80];
        assert!(matches!(
            rewrite(cut, ContentKind::Jpeg, BOUNDS),
            Err(RewriteError::Unreadable(_))
        ));
        let mut png = photos::png_with_transparency(50, 50);
        png.truncate(40);
        assert!(matches!(
            rewrite(&png, ContentKind::Png, BOUNDS),
            Err(RewriteError::Unreadable(_))
        ));
    }

    #[test]
    fn transparency_is_laid_on_white_and_webp_is_read() {
        let photo = rewrite(
            &photos::png_with_transparency(100, 50),
            ContentKind::Png,
            BOUNDS,
        )
        .unwrap();
        let pixels = decoded(&photo.large).to_rgb8();
        assert!(pixels.get_pixel(10, 25).0.iter().all(|c| *c > 240));
        let webp = rewrite(&photos::webp(64, 48), ContentKind::Webp, BOUNDS).unwrap();
        assert_eq!((webp.width, webp.height), (64, 48));
    }
}
