# The container test's PostgreSQL (scripts/test-container.ts): machines that cannot pull the official postgres
# image build this one on the test's local Debian base, with Debian's postgresql package. Test use only.
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /var/lib/postgresql/data && chown postgres:postgres /var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    PGDATA=/var/lib/postgresql/data
USER postgres
ENTRYPOINT ["/bin/sh", "/usr/local/bin/postgres-entrypoint.sh"]
