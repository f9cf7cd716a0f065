# Runtime matrix of .ci/run, sourced by it: the tarball under Bun and Deno (pinned devDependencies,
# binaries inside their npm packages) and under workerd through Miniflare (a pinned devDependency).
# Needs WORK, TARBALL and ROOT; the msw2 consumer must be installed (install_consumers).

BUN="$ROOT/node_modules/bun/bin/bun.exe"
DENO="$ROOT/node_modules/deno/deno"
# Deno's permissions for the smoke: read (the package's files) and net (the sandbox, the catalogue server).
DENO_SMOKE=(run --allow-read --allow-net)

# The runtimes consumer: the tarball, and esbuild + miniflare at the repository's versions.
install_runtime_consumer() {
  local dir="$WORK/runtimes"
  cp -R "$ROOT/.ci/consumers/runtimes" "$dir"
  (cd "$dir" && npm install --no-audit --no-fund --prefer-offline "$TARBALL" \
    "esbuild@$(node -p "require('esbuild/package.json').version")" \
    "miniflare@$(node -p "require('miniflare/package.json').version")")
  cp "$ROOT/.ci/consumers/runtimes/kit-exit.mjs" "$WORK/msw2/"
  "$BUN" --version
  "$DENO" --version
}

# The consumer smoke and the fail-closed catalogue under one runtime: node, bun or deno.
runtime_smoke() {
  cd "$WORK/runtimes"
  case $1 in
    node) node smoke.mjs ;;
    bun) "$BUN" smoke.mjs ;;
    deno) "$DENO" "${DENO_SMOKE[@]}" smoke.mjs ;;
  esac
}

# The msw kit (msw 2 consumer) under bun or deno; msw reads the environment, so Deno gets --allow-env.
runtime_kit() {
  cd "$WORK/msw2"
  case $1 in
    bun) "$BUN" kit-exit.mjs ;;
    deno) "$DENO" run --allow-read --allow-net --allow-env --allow-sys kit-exit.mjs ;;
  esac
}

# A Worker bundled as wrangler bundles it, run in workerd (Miniflare), with and without nodejs_compat.
runtime_worker() {
  cd "$WORK/runtimes"
  node worker-run.mjs "$@"
}
