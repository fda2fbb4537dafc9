# Sourced by the benchmark scripts (after they set $here and $build): builds the release poiar
# unless --no-build was given, and stops naming the binary when it is missing, so every script
# measures the same build the same way.
poiar="$here/.build/release/poiar"
if [ "${build:-1}" = 1 ]; then
  (cd "$here" && swift build -c release --product poiar >/dev/null)
fi
[ -x "$poiar" ] || { echo "no $poiar: run swift build -c release --product poiar" >&2; exit 1; }
