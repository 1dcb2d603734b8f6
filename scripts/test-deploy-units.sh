#!/usr/bin/env bash
# docs/deploy.md's "Running it as a service" block, run as written, as root,
# in a mount namespace of its own where /etc, /usr/local, /var/lib and
# /var/log are throwaway overlays: the machine running the test keeps its
# users, files and units. Only two things stand in: the debug binary for
# target/release/agon, and a made-up $AGON_DATABASE. The last line's
# `systemctl enable --now` enables both units; starting them needs systemd
# as PID 1, which a test machine does not have, so its "not been booted
# with systemd" is the one failure allowed, and the units themselves are
# checked with `systemd-analyze verify` as installed.
#
# Then it checks what the block was to do: the binary, the `agon` system
# user, the file each unit's Documentation= names, /etc/agon/agon.env with
# the database in it readable by `agon` and no other user, both units
# copied and enabled. Needs root and unshare(1);
# crates/cli/tests/deploy_units.rs runs it (AGON_BIN: the binary).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -ne 0 ]; then
  echo "test-deploy-units.sh runs the documented commands as root: run it as root" >&2
  exit 1
fi
agon="$(realpath "${AGON_BIN:-target/debug/agon}")"
repo="$(pwd)"

if [ "${1:-}" != "--inside" ]; then
  work="$(mktemp -d /tmp/agon-units.XXXXXX)"
  trap 'rm -rf "$work"' EXIT
  # The block: the ```sh block that installs the binary.
  awk '/^```sh$/ {inb=1; b=""; next}
       inb && /^```$/ {inb=0; if (b ~ /install -m 755 target\/release\/agon/) {printf "%s", b; exit}; next}
       inb {b = b $0 "\n"}' docs/deploy.md > "$work/block.sh"
  [ -s "$work/block.sh" ] || { echo "no install block in docs/deploy.md" >&2; exit 1; }
  # A tree like the repository's, where the block runs.
  mkdir -p "$work/tree/target/release"
  cp "$agon" "$work/tree/target/release/agon"
  cp -r docs "$work/tree/docs"
  AGON_BIN="$agon" unshare --mount --propagation private "$0" --inside "$work"
  exit
fi

work="$2"
for d in /etc /usr/local /var/lib /var/log; do
  name="$(echo "$d" | tr / _)"
  mkdir -p "$work/upper$name" "$work/work$name"
  mount -t overlay overlay -o "lowerdir=$d,upperdir=$work/upper$name,workdir=$work/work$name" "$d"
done
if id agon >/dev/null 2>&1; then
  echo "this machine has a user agon already: the block's useradd would fail here" >&2
  exit 1
fi

export AGON_DATABASE='postgres://agon:choose-a-password@127.0.0.1:5432/agon'
# No systemd runs here: systemctl works on the unit files, as in a chroot
# or an image build (daemon-reload is skipped, enable links the units),
# and only the start of `--now` fails.
export SYSTEMD_OFFLINE=1
cd "$work/tree"
set +e
bash -euo pipefail "$work/block.sh" >"$work/out" 2>&1
rc=$?
set -e
if [ "$rc" -ne 0 ] && ! grep -q "not been booted with systemd" "$work/out"; then
  cat "$work/out" >&2
  echo "the documented install block failed before systemctl" >&2
  exit 1
fi

fail() { cat "$work/out" >&2; echo "after the documented install block: $*" >&2; exit 1; }
[ -x /usr/local/bin/agon ] || fail "no /usr/local/bin/agon"
/usr/local/bin/agon --version | grep -q '^agon ' || fail "/usr/local/bin/agon does not run"
getent passwd agon | grep -q ':/var/lib/agon:/usr/sbin/nologin$' || fail "no system user agon: $(getent passwd agon)"
[ "$(id -u agon)" -lt 1000 ] || fail "agon is not a system user"
for unit in agon.service agon-worker.service; do
  cmp -s "$repo/docs/deploy/$unit" "/etc/systemd/system/$unit" || fail "$unit not copied"
  doc="$(sed -n 's#^Documentation=file://##p' "/etc/systemd/system/$unit")"
  [ -z "$doc" ] || [ -s "$doc" ] || fail "$unit's Documentation= ($doc) is not installed"
  want="$(sed -n 's/^WantedBy=//p' "/etc/systemd/system/$unit")"
  [ -L "/etc/systemd/system/$want.wants/$unit" ] || fail "$unit is not enabled ($want)"
  env_file="$(sed -n 's/^EnvironmentFile=-\{0,1\}//p' "/etc/systemd/system/$unit")"
  [ -z "$env_file" ] || [ -f "$env_file" ] || fail "$unit's EnvironmentFile= ($env_file) is not written"
done
env_file=/etc/agon/agon.env
[ "$(stat -c '%a %G' /etc/agon)" = "750 agon" ] || fail "/etc/agon is $(stat -c '%a %G' /etc/agon)"
[ "$(stat -c '%a %U %G' "$env_file")" = "640 root agon" ] || fail "$env_file is $(stat -c '%a %U %G' "$env_file")"
grep -qx "AGON_DATABASE=$AGON_DATABASE" "$env_file" || fail "$env_file has not the database: $(cat "$env_file")"
grep -qx 'AGON_PORT=8080' "$env_file" || fail "$env_file has no port"
runuser -u agon -- cat "$env_file" >/dev/null || fail "agon cannot read $env_file"
if runuser -u nobody -- cat "$env_file" >/dev/null 2>&1; then
  fail "another user reads $env_file (the database's password)"
fi
runuser -u agon -- /usr/local/bin/agon --version >/dev/null || fail "agon cannot run the binary"
# The units as installed, with the binary and the documentation in place.
for unit in agon.service agon-worker.service; do
  said="$(systemd-analyze verify --man=no "/etc/systemd/system/$unit" 2>&1)" || fail "$unit: $said"
  [ -z "$said" ] || fail "$unit: $said"
done
echo "the documented install block installs the binary, the user, the documentation, the settings with the database (640, group agon) and both units, enabled"
