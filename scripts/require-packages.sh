#!/usr/bin/env bash
# Installs the Debian packages named as arguments when any of them is missing, saying what it
# installs and why. Uses sudo when not root. The Makefile calls it before every build, so
# `make test` and `make demo` work on a fresh Debian machine that has only the Swift toolchain.
set -euo pipefail

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "note: not a Debian system; make sure these are installed: $*" >&2
  exit 0
fi

missing=()
for package in "$@"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "error: resonance needs ${missing[*]}; run as root: apt-get install ${missing[*]}" >&2
  exit 1
fi

echo "installing the Debian packages resonance builds against: ${missing[*]}"
echo "+ ${sudo[*]:+${sudo[*]} }apt-get install -y ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
  "${missing[@]}"
