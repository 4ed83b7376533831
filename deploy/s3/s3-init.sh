#!/bin/sh
# The app's own account on the object store (docs/decisions/117), made with the gateway's root keys,
# which the app is never given. Run by compose's `s3-init` before the app starts; safe to run again.
# Role `userplus`: it may make buckets and use the ones it owns, and sees no other bucket, no account
# and no admin call. Not run here (no Docker engine): see docs/decisions/018.
set -eu

admin() {
  versitygw admin --access "$S3_ROOT_ACCESS_KEY" --secret "$S3_ROOT_SECRET_KEY" --endpoint-url "$S3_ENDPOINT" "$@"
}

if admin list-users | grep -qw -- "$APP_ACCESS_KEY"; then
  # a new secret in .env takes effect here (rotation: SECURITY.md)
  admin update-user --access "$APP_ACCESS_KEY" --secret "$APP_SECRET_KEY"
else
  admin create-user --access "$APP_ACCESS_KEY" --secret "$APP_SECRET_KEY" --role userplus
fi
# a bucket made before this account, by the root keys, passes to it; a missing one the app makes
admin change-bucket-owner --bucket "$APP_BUCKET" --owner "$APP_ACCESS_KEY" 2>/dev/null || true
