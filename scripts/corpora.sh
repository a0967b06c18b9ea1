#!/usr/bin/env bash
# Prints the path of a public corpus for the benchmarks, fetching and unpacking it once into
# ~/.cache/ragsynth/bench/corpora (outside the checkout). Every corpus folder holds a SOURCE.txt
# (origin, version, sha256, licence) that a `.ragsynthignore` keeps out of the documents.
#
#   bash scripts/corpora.sh NAME [--set]
#
# NAME:
#   docs      the sample corpus in this repository (corpora/docs), written by us
#   black     Black 24.10.0's documentation, docs/*.md of its sdist (MIT)
#   rustbook  five chapters of The Rust Programming Language, HTML pages as the Rust 1.95.0
#             toolchain's rust-docs ship them (MIT OR Apache-2.0)
#   flask     Flask 3.1.3's documentation, docs/**/*.rst of its sdist (BSD-3-Clause) — held out
#             from tuning until the seventh stop, which wrote checks against its cases
#   attrs     attrs 26.1.0's documentation, docs/*.{md,rst} of its sdist (MIT) — held out from
#             tuning until the seventh stop, which wrote checks against its cases
#   click     Click 8.1.8's documentation, docs/*.rst of its sdist (BSD-3-Clause) — held out
#             until the eleventh stop, which wrote checks against its cases
#   jinja     Jinja 3.1.6's documentation, docs/*.rst of its sdist (BSD-3-Clause) — once held
#             out, now in the tuning half (benches/correctness/README.md)
#   pgauth    PostgreSQL 15's manual, chapter 21 "Client Authentication": its 13 HTML pages as
#             Debian's postgresql-doc-15 15.20-0+deb12u1 ships them (PostgreSQL licence) — held
#             out: no check may be written from it (benches/correctness/heldout/)
#   pino      pino 10.4.0's documentation (a Node.js logger): ten pages of docs/*.md of its npm
#             package, the reference and guides without the link, support and benchmark lists
#             (MIT) — held out: no check may be written from it (benches/correctness/heldout/)
#   dl20      TREC DL 2020 passages (../shared/data/msmarco-dl20): every passage of the 54 queries'
#             BM25 top 100, one file each, plus a set of the 54 queries as real, accepted cases
#             labelled with their passages of grade >= 2 (MS MARCO terms: research use)
#   hotpot    HotpotQA dev distractor, first 50 (../shared/data/hotpotqa): one file per paragraph
#             title, plus a set of the 50 questions as multi_hop / comparison cases (CC BY-SA 4.0)
# --set prints the test set that comes with dl20 or hotpot instead of the corpus.
#
# Sdists come from the package registry through pip, pinned by version and checked by size and
# sha256; so do pgauth's Debian package (apt-get download) and pino's npm package (npm pack);
# the rustbook pages are checked by sha256. Debian keeps only a release's newest version of a
# package: when a point release replaces postgresql-doc-15 15.20-0+deb12u1, `corpora.sh pgauth`
# fails on the download, not on other pages. Env: RAGSYNTH_CACHE (~/.cache/ragsynth),
# RAGSYNTH_BIN (the ragsynth binary the dl20/hotpot converters check their sets with; `ragsynth`
# on PATH by default), SHARED_DATA (../shared/data).
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE="${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}"
STORE="$CACHE/bench/corpora"
# ../shared/data beside the checkout (a worktree one level deeper finds it one level up).
if [ -z "${SHARED_DATA:-}" ]; then
  SHARED_DATA="$(pwd)/../shared/data"
  [ -d "$SHARED_DATA" ] || SHARED_DATA="$(pwd)/../../shared/data"
fi
NAME="${1:?usage: corpora.sh NAME [--set]}"
WANT_SET="${2:-}"

die() { echo "corpora: $*" >&2; exit 1; }

check() { # file size sha256
  [ "$(stat -c %s "$1")" = "$2" ] || die "$1: size $(stat -c %s "$1"), expected $2"
  [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$3" ] || die "$1: sha256 mismatch, expected $3"
}

# The SOURCE.txt of a corpus folder, and the ignore file that keeps it out of the documents.
source_txt() { # dir, then lines
  local dir="$1"; shift
  printf '%s\n' "$@" >"$dir/SOURCE.txt"
  printf 'SOURCE.txt\n' >"$dir/.ragsynthignore"
}

# docs/ of a pinned sdist: package version size sha256 licence tar-wildcards...
sdist_docs() {
  local pkg="$1" ver="$2" size="$3" sha="$4" licence="$5"; shift 5
  local dir="$STORE/$pkg-$ver-docs"
  [ -d "$dir" ] && { echo "$dir"; return; }
  local dl sdist="$pkg-$ver.tar.gz"
  dl="$(mktemp -d)"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: \
    -d "$dl" "$pkg==$ver" >&2
  check "$dl/$sdist" "$size" "$sha"
  mkdir -p "$dir.tmp"
  tar -xzf "$dl/$sdist" -C "$dir.tmp" --strip-components=2 --wildcards "$@"
  source_txt "$dir.tmp" "$pkg $ver documentation: the docs/ folder of the sdist $sdist" \
    "from the package registry (PyPI package $pkg==$ver), size $size, sha256 $sha" \
    "members: $*" "licence: $licence"
  mv "$dir.tmp" "$dir"
  rm -rf "$dl"
  echo "$dir"
}

# Pages of a pinned Debian package: package version size sha256 licence folder pages...
deb_docs() {
  local pkg="$1" ver="$2" size="$3" sha="$4" licence="$5" folder="$6"; shift 6
  local dir="$STORE/$NAME-$pkg-$ver"
  [ -d "$dir" ] && { echo "$dir"; return; }
  local dl deb="${pkg}_${ver}_all.deb"
  dl="$(mktemp -d)"
  (cd "$dl" && apt-get download --quiet=2 -o APT::Sandbox::User=root "$pkg=$ver" >&2) \
    || die "$NAME: apt-get download $pkg=$ver failed (run apt-get update; a point release may have replaced it)"
  check "$dl/$deb" "$size" "$sha"
  dpkg-deb -x "$dl/$deb" "$dl/root"
  rm -rf "$dir.tmp"
  mkdir -p "$dir.tmp"
  local page
  for page in "$@"; do cp "$dl/root/$folder/$page" "$dir.tmp/$page"; done
  source_txt "$dir.tmp" "$pkg $ver: pages of $folder in the Debian package $deb" \
    "from Debian's package archive (apt-get download $pkg=$ver), size $size, sha256 $sha" \
    "pages: $*" "licence: $licence"
  mv "$dir.tmp" "$dir"
  rm -rf "$dl"
  echo "$dir"
}

# docs/ pages of a pinned npm package: package version size sha256 licence pages...
npm_docs() {
  local pkg="$1" ver="$2" size="$3" sha="$4" licence="$5"; shift 5
  local dir="$STORE/$pkg-$ver-docs"
  [ -d "$dir" ] && { echo "$dir"; return; }
  local dl tgz="$pkg-$ver.tgz" members=() page
  dl="$(mktemp -d)"
  npm pack --silent --pack-destination "$dl" "$pkg@$ver" >/dev/null
  check "$dl/$tgz" "$size" "$sha"
  for page in "$@"; do members+=("package/docs/$page"); done
  rm -rf "$dir.tmp"
  mkdir -p "$dir.tmp"
  tar -xzf "$dl/$tgz" -C "$dir.tmp" --strip-components=2 "${members[@]}"
  source_txt "$dir.tmp" "$pkg $ver documentation: pages of the docs/ folder of the npm package $tgz" \
    "from the npm package registry (npm pack $pkg@$ver), size $size, sha256 $sha" \
    "members: ${members[*]}" "licence: $licence"
  mv "$dir.tmp" "$dir"
  rm -rf "$dl"
  echo "$dir"
}

rustbook() {
  local dir="$STORE/rustbook-1.95.0"
  [ -d "$dir" ] && { echo "$dir"; return; }
  local book
  book="$(ls -d "${RUSTUP_HOME:-$HOME/.rustup}"/toolchains/1.95.0-*/share/doc/rust/html/book \
    2>/dev/null | head -1)"
  [ -n "$book" ] || die "rustbook: no Rust 1.95.0 toolchain with rust-docs" \
    "(rustup component add rust-docs --toolchain 1.95.0)"
  mkdir -p "$dir.tmp"
  local lines=() page sha
  while read -r page sha; do
    cp "$book/$page" "$dir.tmp/$page"
    [ "$(sha256sum "$dir.tmp/$page" | cut -d' ' -f1)" = "$sha" ] \
      || die "rustbook: $book/$page: sha256 mismatch, expected $sha"
    lines+=("  $page sha256 $sha")
  done <<'EOF'
ch04-01-what-is-ownership.html b59cf31efeb99c2f4e37b3d34cb57d53cc561a061425cfbe0badccb839629cac
ch05-01-defining-structs.html 11fd11b5c6f351130ad3957b967462889d45cce8425a6d609b272bdf94d90113
ch08-02-strings.html 5c1104dbe3aaa4276b2536c749a07ff7f6bb1e71f20295a4a94d12767639e19f
ch09-02-recoverable-errors-with-result.html 166dc29b252b5f9576b4e1c5e85dd1c78c424a9aa853ef2283c9612df6713d37
ch10-01-syntax.html 50747a7a46f8ec1097ecb3c60a96c3fe341b994cbccb22f3d53969810f8c6a4a
EOF
  source_txt "$dir.tmp" "The Rust Programming Language (the book), five chapters as HTML pages" \
    "from the Rust 1.95.0 toolchain's rust-docs component: share/doc/rust/html/book/" \
    "${lines[@]}" "licence: MIT OR Apache-2.0 (the book's repository, rust-lang/book)"
  mv "$dir.tmp" "$dir"
  echo "$dir"
}

# A corpus converted from ../shared/data by a script: name, script, inputs...
converted() {
  local name="$1" script="$2"; shift 2
  local dir="$STORE/$name"
  if [ ! -f "$dir/set.yaml" ]; then
    for f in "$@"; do [ -f "$SHARED_DATA/$f" ] || die "$name: $SHARED_DATA/$f is missing"; done
    local py
    py="$(bash scripts/bench-venv.sh)"
    rm -rf "$dir.tmp"
    "$py" "scripts/$script" "$SHARED_DATA" "$dir.tmp" >&2
    mv "$dir.tmp" "$dir"
  fi
  if [ "$WANT_SET" = --set ]; then echo "$dir/set.yaml"; else echo "$dir/docs"; fi
}

[ -z "$WANT_SET" ] || [ "$WANT_SET" = --set ] || die "unknown option $WANT_SET"
case "$NAME" in
  dl20 | hotpot) ;;
  *) [ -z "$WANT_SET" ] || die "$NAME has no set: --set is for dl20 and hotpot" ;;
esac
mkdir -p "$STORE"
case "$NAME" in
  docs) echo "$(pwd)/corpora/docs" ;;
  black) sdist_docs black 24.10.0 645813 \
    846ea64c97afe3bc677b761787993be4991810ecc7a4a937816dd6bddedc4875 MIT \
    'black-24.10.0/docs/*.md' ;;
  flask) sdist_docs flask 3.1.3 759004 \
    0ef0e52b8a9cd932855379197dd8f94047b359ca0a78695144304cb45f87c9eb BSD-3-Clause \
    'flask-3.1.3/docs/*.rst' ;;
  attrs) sdist_docs attrs 26.1.0 952055 \
    d03ceb89cb322a8fd706d4fb91940737b6642aa36998fe130a9bc96c985eff32 MIT \
    'attrs-26.1.0/docs/*.md' 'attrs-26.1.0/docs/*.rst' ;;
  click) sdist_docs click 8.1.8 226593 \
    ed53c9d8990d83c2a27deae68e4ee337473f6330c040a31d4225c9574d16096a BSD-3-Clause \
    'click-8.1.8/docs/*.rst' ;;
  jinja) sdist_docs jinja2 3.1.6 245115 \
    0137fb05990d35f1275a587e9aee6d56da821fc83491a0fb838183be43f66d6d BSD-3-Clause \
    'jinja2-3.1.6/docs/*.rst' ;;
  rustbook) rustbook ;;
  # held out: no check may be written from it
  pgauth) deb_docs postgresql-doc-15 15.20-0+deb12u1 2124920 \
    4c44bf2c599f208b3f46454a6cf7a72e25ec46ff74d37b59dd31ad76b00eebb7 \
    'PostgreSQL Licence (BSD-like; /usr/share/doc/postgresql-doc-15/copyright)' \
    usr/share/doc/postgresql-doc-15/html client-authentication.html auth-pg-hba-conf.html \
    auth-username-maps.html auth-methods.html auth-trust.html auth-password.html \
    auth-ident.html auth-peer.html auth-ldap.html auth-radius.html auth-cert.html auth-pam.html \
    client-authentication-problems.html ;;
  # held out: no check may be written from it
  pino) npm_docs pino 10.4.0 157624 \
    f745d3dee0bddd39f11226335ee6dbbe3d49cc037168f2b31a8cdbe78f0e6216 MIT \
    api.md asynchronous.md browser.md bundling.md child-loggers.md help.md pretty.md \
    redaction.md transports.md web.md ;;
  dl20) converted dl20 make-dl20.py msmarco-dl20/bm25_top100_dl20.json \
    msmarco-dl20/qrels.dl20-passage.txt ;;
  hotpot) converted hotpot make-hotpot.py hotpotqa/hotpot-dev-distractor-first50.json ;;
  *) die "unknown corpus $NAME (docs, black, rustbook, flask, attrs, click, jinja, pgauth, pino," \
    "dl20, hotpot)" ;;
esac
