#!/usr/bin/env bash
# Builds the server's production install as the Dockerfile does (pnpm deploy --prod, then
# scripts/slim-production.sh, the web app beside it) in a temporary folder, starts it with
# node on a fresh SQLite database and the tiny test model, and checks that it gets ready,
# loads the model and serves the page. Run after `pnpm build`; .ci/run does.
set -euo pipefail
cd "$(dirname "$0")/.."

model="$PWD/fixtures/models/stories260K.gguf"
work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

pnpm --filter @mates/server deploy --prod --legacy --prefer-offline "$work/server" >"$work/deploy.log" 2>&1 ||
  { cat "$work/deploy.log" >&2; exit 1; }
bash scripts/slim-production.sh "$work/server"
mkdir -p "$work/web" && cp -r apps/web/dist "$work/web/dist"
# The embedded transcription's runtime survived the slimming and reads its model; the model
# under a non-commercial licence did not.
(cd "$work/server" && node -e "
  const ort = require('onnxruntime-node');
  const dir = 'node_modules/@usefulsensors/moonshine-js/dist/model/tiny/quantized/';
  Promise.all(['encoder_model', 'decoder_model_merged'].map((name) =>
    ort.InferenceSession.create(dir + name + '.onnx'))).then(
    () => console.log('the embedded transcription model loads'),
    (error) => { console.error(error); process.exit(1); });
")
[ ! -e "$work/server/node_modules/@usefulsensors/moonshine-js/dist/model/base-es-non-commercial" ] ||
  { echo "the install holds Moonshine's non-commercial model" >&2; exit 1; }
# Nothing of the workspace may be needed: the install must stand alone.
[ ! -e "$work/server/src" ] || { echo "the install holds src/: check the server's \"files\"" >&2; exit 1; }

(cd "$work/server" && exec env -i PATH="$PATH" HOME="$work" NODE_ENV=production \
  DATA_DIR="$work/data" PORT=0 LLM_MODEL="$model" LLM_THREADS=1 \
  node dist/main.js) >"$work/server.log" 2>&1 &
server_pid=$!

url=""
for _ in $(seq 1 120); do
  url="$(sed -n 's/.*listening on \(http:\/\/[^ ]*\).*/\1/p' "$work/server.log")"
  [ -n "$url" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
  sleep 1
done
[ -n "$url" ] || { echo "the server did not start:" >&2; cat "$work/server.log" >&2; exit 1; }

ready=""
for _ in $(seq 1 60); do
  ready="$(node -e "fetch('$url/api/ready').then(async (r) => console.log(r.status, await r.text()), (e) => console.log(e.message))")"
  case "$ready" in "200 "*) grep -q 'language model ready' "$work/server.log" && break ;; esac
  sleep 1
done
case "$ready" in "200 "*) ;; *) echo "not ready: $ready" >&2; cat "$work/server.log" >&2; exit 1 ;; esac
# llama.cpp's binary for this platform survived the slimming and loads the model.
grep -q 'language model ready' "$work/server.log" || { cat "$work/server.log" >&2; exit 1; }
page="$(node -e "fetch('$url/').then(async (r) => console.log(r.status, r.headers.get('content-type')))")"
case "$page" in "200 text/html"*) ;; *) echo "the page: $page" >&2; exit 1 ;; esac
echo "production install: $(du -sh "$work/server" | cut -f1), ready at $url: $ready"
