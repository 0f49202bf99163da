//! What every upload goes through before it is stored: its first bytes must say the same as
//! its declared type, that type must be one the caller allows, and it must fit the size limit.
//! (A browser's type comes from the file name; the bytes tell what the file really is.)

use crate::error::{ApiError, ErrorReason, FieldViolation};

/// The kinds of file people may upload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ContentKind {
    Jpeg,
    Png,
    Webp,
    Pdf,
}

impl ContentKind {
    pub const IMAGES: &'static [Self] = &[Self::Jpeg, Self::Png, Self::Webp];
    pub const IMAGES_AND_PDF: &'static [Self] = &[Self::Jpeg, Self::Png, Self::Webp, Self::Pdf];

    /// The canonical media type, to store and serve.
    pub fn content_type(self) -> &'static str {
        match self {
            Self::Jpeg => "image/jpeg",
            Self::Png => "image/png",
            Self::Webp => "image/webp",
            Self::Pdf => "application/pdf",
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Self::Jpeg => "jpg",
            Self::Png => "png",
            Self::Webp => "webp",
            Self::Pdf => "pdf",
        }
    }

    fn is_image(self) -> bool {
        self != Self::Pdf
    }

    fn name(self) -> &'static str {
        match self {
            Self::Jpeg => "JPEG",
            Self::Png => "PNG",
            Self::Webp => "WebP",
            Self::Pdf => "PDF",
        }
    }

    /// "PNG image", "PDF".
    fn noun(self) -> String {
        if self.is_image() {
            format!("{} image", self.name())
        } else {
            self.name().to_owned()
        }
    }

    /// From a declared media type (parameters and case ignored; the common JPEG aliases too).
    fn from_declared(content_type: &str) -> Option<Self> {
        let essence = content_type.split(';').next()?.trim().to_ascii_lowercase();
        match essence.as_str() {
            "image/jpeg" | "image/jpg" | "image/pjpeg" => Some(Self::Jpeg),
            "image/png" => Some(Self::Png),
            "image/webp" => Some(Self::Webp),
            "application/pdf" => Some(Self::Pdf),
            _ => None,
        }
    }

    /// From the file's first bytes (its "magic number").
    fn from_magic(bytes: &[u8]) -> Option<Self> {
        match bytes {
            [0xFF, 0xD8, 0xFF, ..] => Some(Self::Jpeg),
            [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, ..] => Some(Self::Png),
            [
                b'R',
                b'I',
                b'F',
                b'F',
                _,
                _,
                _,
                _,
                b'W',
                b'E',
                b'B',
                b'P',
                ..,
            ] => Some(Self::Webp),
            [b'%', b'P', b'D', b'F', b'-', ..] => Some(Self::Pdf),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UploadError {
    #[error("the file is empty")]
    Empty,
    #[error("the file is larger than {}", describe_size(*max_bytes))]
    TooLarge { max_bytes: usize },
    #[error("the file must be {}", describe_kinds(allowed))]
    NotAllowed { allowed: Vec<ContentKind> },
    #[error("the file is not a real {}; it must be {}", declared.noun(), describe_kinds(allowed))]
    Mismatch {
        declared: ContentKind,
        allowed: Vec<ContentKind>,
    },
}

impl UploadError {
    /// The reason of this failure, for `ErrorInfo.reason`.
    pub fn reason(&self) -> ErrorReason {
        match self {
            Self::Empty => ErrorReason::FileEmpty,
            Self::TooLarge { .. } => ErrorReason::FileTooLarge,
            Self::NotAllowed { .. } => ErrorReason::FileTypeNotAllowed,
            Self::Mismatch { .. } => ErrorReason::FileTypeMismatch,
        }
    }
}

/// Checks an upload and tells what it is. `max_bytes` counts in binary megabytes: a 5 MB
/// limit is `5 * 1024 * 1024`.
pub fn sniff_upload(
    bytes: &[u8],
    declared_content_type: &str,
    allowed: &[ContentKind],
    max_bytes: usize,
) -> Result<ContentKind, UploadError> {
    check_size(bytes, max_bytes)?;
    let not_allowed = || UploadError::NotAllowed {
        allowed: allowed.to_vec(),
    };
    let declared = ContentKind::from_declared(declared_content_type)
        .filter(|kind| allowed.contains(kind))
        .ok_or_else(not_allowed)?;
    match ContentKind::from_magic(bytes) {
        Some(actual) if actual == declared => Ok(actual),
        _ => Err(UploadError::Mismatch {
            declared,
            allowed: allowed.to_vec(),
        }),
    }
}

/// Checks an upload that comes without a declared type (a photo) and tells what it is, by its
/// bytes alone: the size first, then the kind, which must be one of `allowed`.
pub fn sniff_content(
    bytes: &[u8],
    allowed: &[ContentKind],
    max_bytes: usize,
) -> Result<ContentKind, UploadError> {
    check_size(bytes, max_bytes)?;
    ContentKind::from_magic(bytes)
        .filter(|kind| allowed.contains(kind))
        .ok_or_else(|| UploadError::NotAllowed {
            allowed: allowed.to_vec(),
        })
}

/// Too large before anything else is looked at; then not empty.
fn check_size(bytes: &[u8], max_bytes: usize) -> Result<(), UploadError> {
    if bytes.len() > max_bytes {
        return Err(UploadError::TooLarge { max_bytes });
    }
    if bytes.is_empty() {
        return Err(UploadError::Empty);
    }
    Ok(())
}

/// "a JPEG, PNG or WebP image", "a JPEG, PNG, WebP image or a PDF", "a PDF".
fn describe_kinds(kinds: &[ContentKind]) -> String {
    let images: Vec<&str> = kinds
        .iter()
        .filter(|kind| kind.is_image())
        .map(|kind| kind.name())
        .collect();
    let pdf = kinds.contains(&ContentKind::Pdf);
    let image_phrase = match images.as_slice() {
        [] => None,
        [only] => Some(format!("a {only} image")),
        [head @ .., last] if !pdf => Some(format!("a {} or {last} image", head.join(", "))),
        all => Some(format!("a {} image", all.join(", "))),
    };
    match (image_phrase, pdf) {
        (Some(images), true) => format!("{images} or a PDF"),
        (Some(images), false) => images,
        (None, true) => "a PDF".to_owned(),
        (None, false) => "of a kind we accept".to_owned(),
    }
}

fn describe_size(bytes: usize) -> String {
    const MB: usize = 1024 * 1024;
    if bytes >= MB {
        if bytes.is_multiple_of(MB) {
            format!("{} MB", bytes / MB)
        } else {
            format!("{:.1} MB", bytes as f64 / MB as f64)
        }
    } else {
        format!("{} KB", bytes.div_ceil(1024))
    }
}

impl ApiError {
    /// An upload refused by [`sniff_upload`], against its field.
    pub fn upload(field: &str, error: UploadError) -> Self {
        Self::InvalidArgument {
            reason: error.reason(),
            violations: vec![FieldViolation::new(field, error.to_string())],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ContentKind::*;

    const FIVE_MB: usize = 5 * 1024 * 1024;
    const JPEG: &[u8] = &[0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, b'J', b'F', b'I', b'F'];
    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
    const WEBP: &[u8] = b"RIFF\x24\0\0\0WEBPVP8 ";
    const PDF: &[u8] = b"%PDF-1.7\n%\xe2\xe3";

    #[test]
    fn each_kind_is_recognised_when_its_type_agrees() {
        for (bytes, declared, kind) in [
            (JPEG, "image/jpeg", Jpeg),
            (JPEG, "IMAGE/JPG", Jpeg),
            (PNG, "image/png", Png),
            (WEBP, "image/webp", Webp),
            (PDF, "application/pdf; name=licence.pdf", Pdf),
        ] {
            assert_eq!(
                sniff_upload(bytes, declared, ContentKind::IMAGES_AND_PDF, FIVE_MB),
                Ok(kind)
            );
        }
    }

    #[test]
    fn a_renamed_file_is_caught() {
        let error = sniff_upload(PDF, "image/png", ContentKind::IMAGES_AND_PDF, FIVE_MB);
        assert_eq!(
            error.unwrap_err().to_string(),
            "the file is not a real PNG image; it must be a JPEG, PNG, WebP image or a PDF"
        );
        let text = b"GIF89a not allowed";
        assert_eq!(
            sniff_upload(text, "image/jpeg", ContentKind::IMAGES, FIVE_MB)
                .unwrap_err()
                .reason(),
            ErrorReason::FileTypeMismatch
        );
    }

    #[test]
    fn a_type_the_caller_does_not_allow_is_refused_in_words() {
        let error = sniff_upload(PDF, "application/pdf", ContentKind::IMAGES, FIVE_MB);
        assert_eq!(
            error.unwrap_err().to_string(),
            "the file must be a JPEG, PNG or WebP image"
        );
        let error = sniff_upload(b"GIF89a", "image/gif", ContentKind::IMAGES_AND_PDF, FIVE_MB);
        assert_eq!(
            error.unwrap_err().to_string(),
            "the file must be a JPEG, PNG, WebP image or a PDF"
        );
        let error = sniff_upload(PNG, "image/png", &[Pdf], FIVE_MB);
        assert_eq!(error.unwrap_err().to_string(), "the file must be a PDF");
    }

    #[test]
    fn size_limits_are_told_in_megabytes() {
        let mut big = JPEG.to_vec();
        big.resize(FIVE_MB + 1, 0);
        let error = sniff_upload(&big, "image/jpeg", ContentKind::IMAGES, FIVE_MB).unwrap_err();
        assert_eq!(error.to_string(), "the file is larger than 5 MB");
        assert_eq!(error.reason(), ErrorReason::FileTooLarge);
        let mut exactly = big;
        exactly.truncate(FIVE_MB);
        assert_eq!(
            sniff_upload(&exactly, "image/jpeg", ContentKind::IMAGES, FIVE_MB),
            Ok(Jpeg)
        );
        assert_eq!(describe_size(1536 * 1024), "1.5 MB");
        assert_eq!(describe_size(300 * 1024), "300 KB");
    }

    #[test]
    fn an_empty_file_is_refused() {
        assert_eq!(
            sniff_upload(b"", "image/png", ContentKind::IMAGES, FIVE_MB),
            Err(UploadError::Empty)
        );
    }

    #[test]
    fn content_without_a_declared_type_is_known_by_its_bytes() {
        assert_eq!(sniff_content(PNG, ContentKind::IMAGES, FIVE_MB), Ok(Png));
        assert_eq!(sniff_content(WEBP, ContentKind::IMAGES, FIVE_MB), Ok(Webp));
        let refused = sniff_content(PDF, ContentKind::IMAGES, FIVE_MB).unwrap_err();
        assert_eq!(refused.reason(), ErrorReason::FileTypeNotAllowed);
        assert_eq!(
            refused.to_string(),
            "the file must be a JPEG, PNG or WebP image"
        );
        assert_eq!(
            sniff_content(b"", ContentKind::IMAGES, FIVE_MB),
            Err(UploadError::Empty)
        );
        let big = vec![0u8; FIVE_MB + 1];
        assert_eq!(
            sniff_content(&big, ContentKind::IMAGES, FIVE_MB),
            Err(UploadError::TooLarge { max_bytes: FIVE_MB })
        );
    }

    #[test]
    fn kind_lists_read_naturally() {
        assert_eq!(describe_kinds(&[Jpeg]), "a JPEG image");
        assert_eq!(describe_kinds(&[Png, Pdf]), "a PNG image or a PDF");
        assert_eq!(describe_kinds(&[Jpeg, Png]), "a JPEG or PNG image");
    }
}
