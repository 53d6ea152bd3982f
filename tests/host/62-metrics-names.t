#!/bin/bash
# Handler names on /metrics as Prometheus's own reader (promtool) takes them: a handler name is
# whatever bytes a driver gave request_irq() (a renamed network interface can hold any byte
# but '/' and blanks), cut to 31 bytes by the BPF program, maybe inside a character.
# Prometheus refuses a whole page over one label value that is not UTF-8, so irqlatd writes
# such bytes as \xNN. The page comes from metrics_render() itself (helpers/metrics-page.c):
# no driver on this machine has such a name.
. "$(dirname "$0")/../lib.sh"
plan 4

mapfile -t objs < <(find "$BUILD/obj/daemon" "$BUILD/obj/common" -name '*.o' ! -name main.o)
cc ${SAN_FLAGS:-} -O2 -Wall -Wextra -D_GNU_SOURCE -I"$TOP/src" -I"$TOP/bpf" -I"$BUILD" "$TOP/tests/host/helpers/metrics-page.c" \
	"${objs[@]}" -o "$TMP/metrics-page" $(pkg-config --libs $(make -s --no-print-directory -C "$TOP" deb-pkg-config-modules)) -lm
built() { [ -x "$TMP/metrics-page" ] && return 0; why "not an executable" "$TMP/metrics-page"; return 1; }
check "the page helper builds" built

# 29 bytes and the first two of the 3 of U+20AC (the euro sign): cut as a 32-byte name cuts it
cut=$(printf 'abcdefghijklmnopqrstuvwxyz012\xe2\x82\xac')
"$TMP/metrics-page" virtio1-req.0 "$(printf 'eth\xff-rx')" "$cut" "$(printf 'caf\xc3\xa9')" >"$TMP/page"
lint=$(promtool check metrics <"$TMP/page" 2>&1); rc=$?
promtool_clean() { is_eqn "$rc" 0 "promtool's exit status" || { why "its output" "$lint"; return 1; }; is_empty "$lint" "promtool's output"; }
check "promtool check metrics takes the page with those names: no error, no lint problem" promtool_clean
escaped() {
	file_has -F 'irqlat_handler_runs_total{irq="30",handler="eth\\xff-rx"} 1' "$TMP/page" &&
		file_has -F 'irqlat_handler_runs_total{irq="30",handler="abcdefghijklmnopqrstuvwxyz012\\xe2\\x82"} 1' "$TMP/page" &&
		file_has -F "irqlat_handler_runs_total{irq=\"30\",handler=\"caf$(printf '\xc3\xa9')\"} 1" "$TMP/page"
}
check "a byte that is not UTF-8 reads \\xff, a cut character \\xe2\\x82, UTF-8 stays as it is" escaped
# the reference can fail: the same names written raw are refused by promtool
sed "s/eth\\\\\\\\xff-rx/$(printf 'eth\xff-rx')/" "$TMP/page" >"$TMP/raw"
raw_refused() {
	promtool check metrics <"$TMP/raw" >/dev/null 2>&1 || return 0
	why "promtool check metrics took the raw byte in" "$(grep -a 'handler="eth' "$TMP/raw")"; return 1
}
check "... and promtool refuses the raw byte (the check can fail)" raw_refused
done_testing
