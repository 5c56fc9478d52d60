# The container test's stand-in for the `s3` profile's MinIO images (scripts/test-container.ts), for machines that
# cannot pull minio/minio and minio/mc: s3rver (the npm package the storage tests use) on the test's local Debian
# base, answering S3 on port 9000 with the MINIO_ROOT_USER/MINIO_ROOT_PASSWORD key pair, and an `mc` that does the
# three things compose.yaml asks of it (`ready`, `alias set`, `mb --ignore-existing`). Test use only.
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
WORKDIR /opt/minio-standin
RUN --mount=type=secret,id=npmrc --mount=type=secret,id=npm_ca \
    if [ -f /run/secrets/npmrc ]; then export NPM_CONFIG_USERCONFIG=/run/secrets/npmrc; fi; \
    if [ -f /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi; \
    echo '{"private":true,"type":"module"}' >package.json \
    && npm install --omit=dev --no-audit --no-fund --loglevel=error s3rver@3.7.1 \
    && rm -rf /root/.npm
COPY minio/server.mjs minio/mc.mjs ./
RUN chmod 755 server.mjs mc.mjs && ln -s /opt/minio-standin/mc.mjs /usr/local/bin/mc
ENTRYPOINT ["node", "/opt/minio-standin/server.mjs"]
