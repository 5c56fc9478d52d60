#!/bin/sh
# Makes a local stand-in for node:20-bookworm-slim, for machines that cannot pull images: Debian bookworm
# (debootstrap, minbase, from the apt mirror this machine uses) with this machine's own Node and npm in
# /usr/local, as the official image has them. Usage: make-base.sh <image tag> [<work dir>]
set -eu
tag="$1"
work="${2:-$(mktemp -d /tmp/framejury-base.XXXXXX)}"
docker="${DOCKER:-docker}"

# The mirror this machine's apt uses (deb822 .sources or a one-line sources.list).
mirror=$(grep -h -E '^URIs:.*/debian/?$' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1 | awk '{print $2}')
[ -n "$mirror" ] || mirror=$(grep -h -E '^deb .*/debian/? ' /etc/apt/sources.list 2>/dev/null | head -n1 | awk '{print $2}')
[ -n "$mirror" ] || mirror="${DEBIAN_MIRROR:-}"
[ -n "$mirror" ] || { echo "[make-base] no Debian mirror in /etc/apt/sources.list*: set DEBIAN_MIRROR" >&2; exit 1; }
security=$(grep -h -E '^URIs:.*debian-security' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1 | awk '{print $2}')
[ -n "$security" ] || security="${DEBIAN_SECURITY_MIRROR:-${mirror%/debian}/debian-security}"

rootfs="$work/rootfs"
if [ ! -x "$rootfs/bin/sh" ]; then
  echo "[make-base] debootstrap --variant=minbase bookworm from $mirror"
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -n 20 "$work/debootstrap.log"; exit 1; }
fi
cat >"$rootfs/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
SOURCES
rm -rf "$rootfs/var/lib/apt/lists/"* "$rootfs/var/cache/apt/archives/"*.deb

# debian:bookworm-slim, which node:20-bookworm-slim is built on, holds no documentation, manuals or translations
# (debuerreotype's slim variant: a dpkg setting for the packages installed later, and the files removed). So does the
# stand-in, or the image it measures would weigh 50 MB more than the real one.
cat >"$rootfs/etc/dpkg/dpkg.cfg.d/slim" <<'SLIM'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/overrides/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
path-exclude /usr/share/man/*
SLIM
find "$rootfs/usr/share/doc" -mindepth 1 ! -type d ! -name copyright -delete
find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
for dir in groff info linda lintian/overrides man; do rm -rf "$rootfs/usr/share/$dir/"*; done

# This machine's Node: its binary and npm, where node:20-bookworm-slim keeps them.
prefix=$(dirname "$(readlink -f "$(command -v node)")")/..
mkdir -p "$rootfs/usr/local/bin" "$rootfs/usr/local/lib/node_modules"
cp "$prefix/bin/node" "$rootfs/usr/local/bin/node"
rm -rf "$rootfs/usr/local/lib/node_modules/npm"
cp -a "$prefix/lib/node_modules/npm" "$rootfs/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"

echo "[make-base] docker import as $tag"
tar -C "$rootfs" -c . | "$docker" import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' - "$tag" >/dev/null
