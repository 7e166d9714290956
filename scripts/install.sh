#!/bin/sh
# Installs the checkin binary from a release: downloads checkin-<version>-linux-<arch>.tar.gz and
# SHA256SUMS from the release's base URL, refuses the archive unless its SHA-256 is the one listed,
# and puts `checkin` in ~/.local/bin (or the folder given).
#
#   curl -fsSL <base>/install.sh | CHECKIN_RELEASE_URL=<base> sh
#   sh install.sh --url <base> [--version 0.1.0] [--dir ~/bin]
#
# Needs: curl or wget, tar, and sha256sum (or shasum). POSIX sh, no bashisms.

# Everything runs from main, called on the last line: a download cut short runs nothing (sh stops at
# the unfinished function, non-zero), and inside it any failed step stops the install (set -eu).
main() {
set -eu
url="${CHECKIN_RELEASE_URL:-}"
version="${CHECKIN_VERSION:-}"
if [ -n "${CHECKIN_INSTALL_DIR:-}" ]; then dir=$CHECKIN_INSTALL_DIR
elif [ -n "${HOME:-}" ]; then dir=$HOME/.local/bin
else dir=""
fi

die() {
  echo "checkin install: $*" >&2
  exit 1
}

while [ $# -gt 0 ]; do
  case "$1" in
    --url) [ $# -ge 2 ] || die "--url needs a value"; url=$2; shift 2 ;;
    --version) [ $# -ge 2 ] || die "--version needs a value"; version=$2; shift 2 ;;
    --dir) [ $# -ge 2 ] || die "--dir needs a value"; dir=$2; shift 2 ;;
    -h | --help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done
[ -n "$url" ] || die "no release URL: pass --url <base> or set CHECKIN_RELEASE_URL"
[ -n "$dir" ] || die "no folder to install into: HOME is not set; pass --dir"
url=${url%/}
# The checksum comes from the same place as the archive: only https (or this machine) keeps both honest.
case "$url" in
  https://*) proto=https ;;
  http://127.0.0.1[:/]* | http://localhost[:/]* | http://\[::1\][:/]* | http://127.0.0.1 | http://localhost) proto=http ;;
  *) die "the release URL must be https:// (or this machine's http://127.0.0.1): $url" ;;
esac

case "$(uname -s)" in
  Linux) ;;
  Darwin) die "no macOS binary: install with Homebrew (brew install checkin, the formula in the release) or npm: npm install -g checkin-cli" ;;
  MINGW* | MSYS* | CYGWIN*) die "on Windows install with winget (winget install CheckinCli.Checkin), Scoop (checkin.json in the release) or install.ps1 (PowerShell)" ;;
  *) die "no binary for $(uname -s); install with npm: npm install -g checkin-cli" ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) die "no binary for $(uname -m); install with npm: npm install -g checkin-cli" ;;
esac

# A whole bound on each download and on running what was installed, where timeout(1) is there.
bound=""
command -v timeout >/dev/null 2>&1 && bound="timeout 300"
if command -v curl >/dev/null 2>&1; then
  # https may be redirected, to https only (a release host's downloads are); this machine's plain
  # http is never redirected anywhere (curl stops: "Maximum (0) redirects followed").
  if [ "$proto" = https ]; then redirs=10; else redirs=0; fi
  fetch() { curl -fsSL --proto "=$proto" --proto-redir "=https" --max-redirs "$redirs" --max-time 300 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  # wget holds no redirect to https (its --https-only is for recursive fetches): none is followed.
  fetch() { $bound wget -q --max-redirect=0 -T 60 -O "$2" "$1"; }
else
  die "needs curl or wget"
fi
if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
else
  die "needs sha256sum or shasum to check what it downloads"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/checkin-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

fetch "$url/SHA256SUMS" "$tmp/SHA256SUMS" || die "could not download $url/SHA256SUMS"
if [ -z "$version" ]; then
  # The one linux-<arch> archive the checksum file lists.
  name=$(sed -n "s/^[0-9a-f]\{64\}  \(checkin-[^ ]*-linux-$arch\.tar\.gz\)$/\1/p" "$tmp/SHA256SUMS" | head -n 1)
  [ -n "$name" ] || die "$url/SHA256SUMS lists no checkin archive for linux-$arch"
else
  name="checkin-$version-linux-$arch.tar.gz"
fi
# A file name, nothing that could be a path or an option.
case "$name" in
  *[!A-Za-z0-9._+-]* | -* | .*) die "$url/SHA256SUMS names an archive that is not a plain file name: $name" ;;
esac
want=$(awk -v n="$name" '$2 == n { print $1; exit }' "$tmp/SHA256SUMS")
[ -n "$want" ] || die "$url/SHA256SUMS has no line for $name"

fetch "$url/$name" "$tmp/$name" || die "could not download $url/$name"
got=$(sha256 "$tmp/$name")
if [ "$got" != "$want" ]; then
  die "$name is not the file the release lists: its SHA-256 is $got, SHA256SUMS says $want. Nothing was installed."
fi

mkdir -p "$tmp/x" && tar xzf "$tmp/$name" -C "$tmp/x" checkin || die "$name could not be unpacked"
[ -f "$tmp/x/checkin" ] && [ ! -L "$tmp/x/checkin" ] || die "$name holds no checkin program (a link or something else is there)"
mkdir -p -- "$dir" || die "cannot make $dir"
# Copied beside the old one, then renamed over it: a checkin running now keeps its file.
cp "$tmp/x/checkin" "$dir/.checkin.new.$$" && chmod 755 "$dir/.checkin.new.$$" && mv -f "$dir/.checkin.new.$$" "$dir/checkin" \
  || { rm -f "$dir/.checkin.new.$$"; die "cannot write $dir/checkin"; }
echo "checkin $(${bound:+timeout 30} "$dir/checkin" --version) installed in $dir/checkin"
case ":${PATH:-}:" in
  *":$dir:"*) ;;
  *) echo "$dir is not on your PATH: add it to PATH in your shell's profile" ;;
esac
}

main "$@"
