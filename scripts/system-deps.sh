# Sourced by scripts/jarvis and .ci/run: installs the Debian packages the
# build needs when they are missing. Extra package names can be appended to
# the `need` array before sourcing.
need=(${need[@]+"${need[@]}"})
command -v cc >/dev/null || need+=(build-essential)
command -v pkg-config >/dev/null || need+=(pkg-config)
# Voice: whisper.cpp builds with cmake, its bindings with libclang; cpal and
# rodio link ALSA; espeak-ng is the system voice and Piper's phonemizer.
command -v cmake >/dev/null || need+=(cmake)
command -v clang >/dev/null || need+=(clang)
dpkg -s libclang-dev >/dev/null 2>&1 || need+=(libclang-dev)
pkg-config --exists alsa 2>/dev/null || need+=(libasound2-dev)
command -v espeak-ng >/dev/null || need+=(espeak-ng)
# The desktop app: WebKitGTK and GTK for the window and native dialogs,
# appindicator for the tray, D-Bus for single instance and notifications;
# Node and npm build the HUD.
pkg-config --exists webkit2gtk-4.1 2>/dev/null || need+=(libwebkit2gtk-4.1-dev libjavascriptcoregtk-4.1-dev libsoup-3.0-dev)
pkg-config --exists gtk+-3.0 2>/dev/null || need+=(libgtk-3-dev)
pkg-config --exists ayatana-appindicator3-0.1 2>/dev/null || need+=(libayatana-appindicator3-dev)
pkg-config --exists dbus-1 2>/dev/null || need+=(libdbus-1-dev)
command -v npm >/dev/null || need+=(nodejs npm)
if [ ${#need[@]} -gt 0 ]; then
  printf '\n== apt-get install %s\n' "${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${need[@]}"
fi
