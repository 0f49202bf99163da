"""The files' S3 bucket, for the cluster and the backups (boto3; S3 settings from the standard
variables AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY).

    files_bucket.py create BUCKET          make the bucket (nothing when it exists)
    files_bucket.py download BUCKET DIR    copy every object into DIR/objects/ (keys as paths),
                                           their content types and metadata into DIR/objects.json
    files_bucket.py upload DIR BUCKET      put them back into the bucket

Prints how many objects it copied.
"""

import json
import os
import sys
from pathlib import Path

import boto3


def client():
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"
    return boto3.client(
        "s3", endpoint_url=os.environ.get("AWS_ENDPOINT_URL") or None, region_name=region
    )


def create(s3, bucket):
    names = {b["Name"] for b in s3.list_buckets().get("Buckets", [])}
    if bucket in names:
        return
    region = s3.meta.region_name
    if region == "us-east-1":
        s3.create_bucket(Bucket=bucket)
    else:
        s3.create_bucket(
            Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": region}
        )


def download(s3, bucket, target):
    objects = target / "objects"
    kept = {}
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        for item in page.get("Contents", []):
            key = item["Key"]
            path = objects / key
            if not path.resolve().is_relative_to(objects.resolve()):
                raise SystemExit(f"refusing the key {key!r}: it leaves {objects}")
            path.parent.mkdir(parents=True, exist_ok=True)
            s3.download_file(bucket, key, str(path))
            head = s3.head_object(Bucket=bucket, Key=key)
            kept[key] = {
                "ContentType": head.get("ContentType", "application/octet-stream"),
                "Metadata": head.get("Metadata", {}),
            }
    objects.mkdir(parents=True, exist_ok=True)
    (target / "objects.json").write_text(json.dumps(kept, indent=1, sort_keys=True))
    print(f"{len(kept)} objects copied from s3://{bucket} to {objects}")


def upload(s3, source, bucket):
    kept = json.loads((source / "objects.json").read_text())
    for key, extra in sorted(kept.items()):
        s3.upload_file(str(source / "objects" / key), bucket, key, ExtraArgs=extra)
    print(f"{len(kept)} objects copied from {source / 'objects'} to s3://{bucket}")


def main(args):
    if len(args) == 2 and args[0] == "create":
        create(client(), args[1])
    elif len(args) == 3 and args[0] == "download":
        download(client(), args[1], Path(args[2]))
    elif len(args) == 3 and args[0] == "upload":
        upload(client(), Path(args[1]), args[2])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
