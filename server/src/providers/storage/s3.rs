//! Files in an S3 bucket (AWS S3 or any S3-compatible server: MinIO, Ceph, a cloud's S3 API),
//! shared by every replica: `<bucket>/<key>`, with the content type as the object's own
//! `Content-Type`. Through `object_store`, which signs the requests and retries the failures
//! worth retrying.

use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use object_store::{
    Attribute, Attributes, ClientOptions, ObjectStore, PutOptions, RetryConfig,
    aws::{AmazonS3, AmazonS3Builder},
    path::Path,
};

use super::{FileStorage, StorageResult, validate_content_type, validate_key};

/// Used when an object has no content type (stored by another tool, say).
const UNKNOWN_CONTENT_TYPE: &str = "application/octet-stream";

/// Where the bucket is and how to reach it; what is unset comes from the standard AWS_*
/// environment (session tokens, web identity, ...).
#[derive(Debug, Clone, Default)]
pub struct S3Config {
    pub bucket: String,
    pub endpoint: Option<String>,
    pub region: Option<String>,
    pub access_key_id: Option<String>,
    pub secret_access_key: Option<String>,
    pub allow_http: bool,
}

#[derive(Debug)]
pub struct S3Storage {
    store: AmazonS3,
    bucket: String,
}

impl S3Storage {
    /// Builds the client (no request is made: see [`S3Storage::check`]).
    pub fn new(config: S3Config) -> anyhow::Result<Self> {
        if config.bucket.trim().is_empty() {
            anyhow::bail!(
                "FILES_BUCKET is empty: name the bucket, or unset it to keep files in DATA_DIR/files"
            );
        }
        if let Some(endpoint) = &config.endpoint
            && endpoint.starts_with("http://")
            && !config.allow_http
        {
            anyhow::bail!(
                "AWS_ENDPOINT_URL={endpoint} is plain HTTP: set AWS_ALLOW_HTTP=true to allow it \
                 (for a store on this machine or network), or use https://"
            );
        }
        let mut builder = AmazonS3Builder::from_env()
            .with_bucket_name(&config.bucket)
            .with_allow_http(config.allow_http)
            .with_client_options(
                ClientOptions::new()
                    .with_allow_http(config.allow_http)
                    .with_connect_timeout(Duration::from_secs(5))
                    .with_timeout(Duration::from_secs(30)),
            )
            // A download waits on this: a few quick tries, not the default three minutes.
            .with_retry(RetryConfig {
                max_retries: 2,
                retry_timeout: Duration::from_secs(10),
                ..RetryConfig::default()
            });
        if let Some(endpoint) = &config.endpoint {
            // S3-compatible servers name the bucket in the path, not in the host name.
            builder = builder
                .with_endpoint(endpoint)
                .with_virtual_hosted_style_request(false);
        }
        if let Some(region) = &config.region {
            builder = builder.with_region(region);
        }
        if let Some(id) = &config.access_key_id {
            builder = builder.with_access_key_id(id);
        }
        if let Some(secret) = &config.secret_access_key {
            builder = builder.with_secret_access_key(secret);
        }
        let store = builder.build().map_err(|error| {
            anyhow::anyhow!("FILES_BUCKET={}: cannot set up S3: {error}", config.bucket)
        })?;
        Ok(Self {
            store,
            bucket: config.bucket,
        })
    }

    /// Lists the bucket once, so a wrong bucket, endpoint or key is told at start rather
    /// than at the first upload.
    pub async fn check(&self) -> anyhow::Result<()> {
        let prefix = Path::from("licences");
        let listed = tokio::time::timeout(
            Duration::from_secs(15),
            self.store.list_with_delimiter(Some(&prefix)),
        )
        .await;
        match listed {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(error)) => anyhow::bail!(
                "FILES_BUCKET={}: the bucket cannot be read (check AWS_ENDPOINT_URL, AWS_REGION \
                 and the credentials): {error}",
                self.bucket
            ),
            Err(_) => anyhow::bail!(
                "FILES_BUCKET={}: the object store did not answer within 15 s (check \
                 AWS_ENDPOINT_URL)",
                self.bucket
            ),
        }
    }

    fn path(key: &str) -> StorageResult<Path> {
        validate_key(key)?;
        Ok(Path::from(key))
    }
}

#[async_trait]
impl FileStorage for S3Storage {
    async fn put(&self, key: &str, content_type: &str, bytes: Bytes) -> StorageResult<()> {
        let path = Self::path(key)?;
        validate_content_type(content_type)?;
        let mut attributes = Attributes::new();
        attributes.insert(Attribute::ContentType, content_type.to_owned().into());
        let options = PutOptions {
            attributes,
            ..PutOptions::default()
        };
        self.store.put_opts(&path, bytes.into(), options).await?;
        Ok(())
    }

    async fn get(&self, key: &str) -> StorageResult<Option<(String, Bytes)>> {
        let path = Self::path(key)?;
        let result = match self.store.get(&path).await {
            Ok(result) => result,
            Err(object_store::Error::NotFound { .. }) => return Ok(None),
            Err(error) => return Err(error.into()),
        };
        let content_type = result
            .attributes
            .get(&Attribute::ContentType)
            .map_or(UNKNOWN_CONTENT_TYPE, |value| value.as_ref())
            .to_owned();
        Ok(Some((content_type, result.bytes().await?)))
    }

    async fn delete(&self, key: &str) -> StorageResult<()> {
        let path = Self::path(key)?;
        match self.store.delete(&path).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(error) => Err(error.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(endpoint: &str, allow_http: bool) -> S3Config {
        S3Config {
            bucket: "files".to_owned(),
            endpoint: Some(endpoint.to_owned()),
            region: Some("ca-central-1".to_owned()),
            allow_http,
            ..S3Config::default()
        }
    }

    #[test]
    fn plain_http_must_be_allowed_in_words() {
        let refused = S3Storage::new(config("http://127.0.0.1:9000", false)).unwrap_err();
        assert!(
            refused.to_string().contains("set AWS_ALLOW_HTTP=true"),
            "{refused}"
        );
        assert!(S3Storage::new(config("http://127.0.0.1:9000", true)).is_ok());
        assert!(S3Storage::new(config("https://s3.example.ca", false)).is_ok());
        let empty = S3Storage::new(S3Config::default()).unwrap_err();
        assert!(
            empty.to_string().starts_with("FILES_BUCKET is empty"),
            "{empty}"
        );
    }
}
