#!/usr/bin/env bash
# Slims a production install of the server (`pnpm --filter @mates/server deploy --prod DIR`)
# to what runs on this platform. Used by the Dockerfile; run it by hand on a deploy folder to
# see the same result (it prints the size before and after).
#
# What goes, and why it is safe:
# - node-llama-cpp's prebuilt binaries for other platforms. Its packages for linux-arm64 and
#   linux-armv7l declare x64 as well, so pnpm installs them on x64 (20 MB); the binary for
#   this platform stays. The CUDA and Vulkan builds are never installed
#   (pnpm-workspace.yaml, ignoredOptionalDependencies).
# - node-llama-cpp's llama/gitRelease.bundle: llama.cpp's source, used only to compile it
#   where no prebuilt binary fits (34 MB); there is no compiler in the image anyway.
# - TypeScript: an optional peer of node-llama-cpp and i18next, never loaded at run time (24 MB).
# - better-sqlite3's build leftovers: objects, the static library and sources once its
#   better_sqlite3.node is built (up to 17 MB, when it was compiled rather than downloaded).
# - onnxruntime-node's binaries for other platforms (about 240 MB): this one's stay.
# - Of @usefulsensors/moonshine-js, all but the tiny English model the embedded transcription
#   reads: its browser bundle, and its Spanish model (64 MB), whose licence is non-commercial
#   and which must not ship in an image.
set -euo pipefail

dir="${1:?usage: scripts/slim-production.sh <deploy folder>}"
store="$dir/node_modules/.pnpm"
[ -d "$store" ] || { echo "no pnpm install at $dir (expected $store)" >&2; exit 1; }
echo "production install before slimming: $(du -sh "$dir" | cut -f1)"

platform="$(node -p 'process.platform + "-" + process.arch')"
for package in "$store"/@node-llama-cpp+*; do
  [ -e "$package" ] || continue
  name="$(basename "$package")"           # @node-llama-cpp+linux-x64@3.22.1
  target="${name#@node-llama-cpp+}"       # linux-x64@3.22.1
  target="${target%@*}"                   # linux-x64
  if [ "$target" != "$platform" ]; then
    rm -rf "$package"
    find "$store" -path "*/node_modules/@node-llama-cpp/$target" -maxdepth 4 -exec rm -rf {} +
  fi
done
find "$store" -maxdepth 1 -name 'node-llama-cpp@*' -exec \
  rm -f {}/node_modules/node-llama-cpp/llama/gitRelease.bundle \;

find "$store" -maxdepth 1 -name 'typescript@*' -exec rm -rf {} +
find "$store" -maxdepth 3 -path '*/node_modules/typescript' -exec rm -rf {} +

for sqlite in "$store"/better-sqlite3@*/node_modules/better-sqlite3; do
  [ -f "$sqlite/build/Release/better_sqlite3.node" ] || continue
  find "$sqlite/build" -mindepth 1 -not -path '*/build/Release' \
    -not -path '*/build/Release/better_sqlite3.node' -prune -exec rm -rf {} +
  rm -rf "$sqlite/deps" "$sqlite/src"
done

os="$(node -p process.platform)"
arch="$(node -p process.arch)"
for bin in "$store"/onnxruntime-node@*/node_modules/onnxruntime-node/bin/napi-v*; do
  [ -d "$bin/$os/$arch" ] || continue
  find "$bin" -mindepth 1 -maxdepth 1 -not -name "$os" -exec rm -rf {} +
  find "$bin/$os" -mindepth 1 -maxdepth 1 -not -name "$arch" -exec rm -rf {} +
done

for moonshine in "$store"/@usefulsensors+moonshine-js@*/node_modules/@usefulsensors/moonshine-js; do
  [ -d "$moonshine/dist/model/tiny" ] || continue
  find "$moonshine/dist/model" -mindepth 1 -maxdepth 1 -not -name tiny -exec rm -rf {} +
  rm -f "$moonshine/dist/moonshine.min.js"
done

echo "production install after slimming: $(du -sh "$dir" | cut -f1)"
