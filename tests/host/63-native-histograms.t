#!/bin/bash
# Native histograms (docs/metrics.md, "Native histograms"): content negotiation on Accept (the
# protobuf stream for what Prometheus sends with native histograms on, the text format for
# anything else, garbage included); the text format with metrics-le-factor 4 stays clean for
# promtool, and a reload to 16 changes its bounds; a real Prometheus 2.42 with --enable-feature=native-histograms takes a page with a
# run of 0 ns, two of 1000 ns and one beyond 4 s into exactly the zero bucket, the schema-3
# bucket of 1000 ns and the count; it scrapes irqlatd every second under fio load and stores
# native histograms (no classic _bucket series); over its last
# 30 s window, histogram_quantile(0.99, rate(...[30s])) for the disk IRQ lies in the same
# schema-3 bucket as the p99 of irqlatd's own bucket deltas between the two ticks the window's
# first and last samples hold (so within 9.05%), and the native count's increase between those
# samples agrees with /proc/interrupts read around those very ticks within 1%. Loopback only.
. "$(dirname "$0")/../lib.sh"
plan 15

PROM_PID= REC= PAGE_PID=
trap 'kill "$PROM_PID" $REC $PAGE_PID 2>/dev/null; wait "$PROM_PID" $REC $PAGE_PID 2>/dev/null; cleanup' EXIT
NW=$TOP/tests/host/helpers/native_window.py
PB_ACCEPT='application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited,application/openmetrics-text;version=1.0.0;q=0.8,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'

IRQ=$(disk_irq)
MP=$(free_port)
echo 'metrics-le-factor = 4' >"$TMP/irqlatd.conf"
start_daemon --interval-ms 200 --no-tracepoints --metrics "127.0.0.1:$MP" -c "$TMP/irqlatd.conf"
URL=http://127.0.0.1:$MP/metrics
# get ACCEPT NAME: the page into $TMP/NAME, its headers into $TMP/NAME.h
get() { curl -s -H "Accept: $1" -D "$TMP/$2.h" -o "$TMP/$2" "$URL"; }
ctype() { sed -n 's/^Content-Type: \(.*\)\r$/\1/Ip' "$TMP/$1.h"; }

get "$PB_ACCEPT" pb
# the first message: its length as a varint, then field 1 (tag 0x0a), the family's name
first_family() {
	python3 - "$TMP/pb" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
n = shift = at = 0
while True:
    n |= (b[at] & 0x7f) << shift; shift += 7; at += 1
    if not b[at - 1] & 0x80: break
assert at + n <= len(b) and b[at] == 0x0a, "not a length-delimited MetricFamily"
print(b[at + 2:at + 2 + b[at + 1]].decode())
PY
}
protobuf_served() {
	is_eq "$(ctype pb)" "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited" "Content-Type" &&
		is_eq "$(first_family 2>&1)" irqlat_build_info "the first MetricFamily"
}
check "Prometheus' Accept (native histograms on) gets the protobuf stream: its Content-Type, a MetricFamily first" protobuf_served
text_types() {
	local a
	for a in 'garbage' ';;;q=x' 'application/vnd.google.protobuf' 'text/plain;version=0.0.4' \
		 'application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.2,text/plain;q=0.5'; do
		get "$a" t
		is_eq "$(ctype t)" "text/plain; version=0.0.4; charset=utf-8" "Content-Type for Accept: $a" || return 1
	done
	curl -s -D "$TMP/none.h" -o "$TMP/none" "$URL" && is_eq "$(ctype none)" "text/plain; version=0.0.4; charset=utf-8" "Content-Type without Accept"
}
check "no Accept, a garbage one, protobuf without its parameters or preferred less: the text format" text_types
# the histogram families with series on a text page (every kind's that ran: handlers, softirqs,
# raise latency, vectors, timers, wake-ups, threaded IRQs where the host has them)
hist_families() {
	awk '$1 == "#" && $2 == "TYPE" && $4 == "histogram" { h[$3] = 1 }
	     $1 ~ /_count\{/ { n = $1; sub(/_count\{.*/, "", n); if (n in h) s[n] = 1 }
	     END { for (n in s) print n }' "$1" | sort
}
# the names of the MetricFamily messages of a protobuf page
pb_families() {
	python3 - "$1" <<'PY' | sort
import sys
b = open(sys.argv[1], "rb").read()
def varint(at):
    n = shift = 0
    while True:
        n |= (b[at] & 0x7f) << shift; shift += 7; at += 1
        if not b[at - 1] & 0x80: return n, at
at = 0
while at < len(b):
    n, at = varint(at)
    assert b[at] == 0x0a, "a MetricFamily without its name first"
    ln, nat = varint(at + 1)
    print(b[nat:nat + ln].decode())
    at += n
PY
}
# the text page first: a family with series there has them in the page after it. Fetched until
# the hard IRQs, softirqs and timers have series (a disk IRQ made by fio): on an idle machine the
# first fetch found no handler series yet and failed a clean-clone run
families_ready() {
	local f
	get 'text/plain;version=0.0.4' t2 && get "$PB_ACCEPT" pb2 || return 1
	hist_families "$TMP/t2" >"$TMP/t2.fams"
	pb_families "$TMP/pb2" >"$TMP/pb2.fams"
	for f in irqlat_handler_duration_seconds irqlat_softirq_duration_seconds irqlat_timer_lateness_seconds; do
		grep -qx "$f" "$TMP/t2.fams" || return 1
	done
}
fio_load 2 >/dev/null 2>&1 &
FIO_FAMS=$!
retry_for 15 families_ready
wait "$FIO_FAMS" 2>/dev/null
diag "histogram families with series: $(tr '\n' ' ' <"$TMP/t2.fams")"
pb_has_all() {
	local f
	for f in irqlat_handler_duration_seconds irqlat_softirq_duration_seconds irqlat_timer_lateness_seconds; do
		grep -qx "$f" "$TMP/t2.fams" || { diag "no series of $f on the text page"; return 1; }
	done
	[ -z "$(comm -23 "$TMP/t2.fams" "$TMP/pb2.fams")" ] || { diag "not in the protobuf page: $(comm -23 "$TMP/t2.fams" "$TMP/pb2.fams" | tr '\n' ' ')"; return 1; }
}
check "the protobuf page holds every histogram family the text page has series of (timers, wake-ups, threaded IRQs too)" pb_has_all

# the text format with every 4th bound: le at 2^(i/8) s for i = -184, -180, .. 16
fio_load 1 &
FIO=$!
retry_for 5 sh -c "curl -s '$URL' | grep -q '^irqlat_handler_runs_total{irq=\"$IRQ\"'"
curl -s -H 'Accept: garbage' -o "$TMP/text" "$URL"
wait "$FIO"
lint=$(promtool check metrics <"$TMP/text" 2>&1); rc=$?
promtool_clean() { is_eqn "$rc" 0 "promtool's exit status" || { why "its output" "$lint"; return 1; }; is_empty "$lint" "promtool's output"; }
check "promtool check metrics on the text format (metrics-le-factor 4): no error, no lint problem" promtool_clean
les() {
	python3 - "$TMP/text" "$IRQ" <<'PY'
import re, sys
want = ["%.17g" % 2 ** (i / 8) for i in range(-184, 17, 4)] + ["+Inf"]
got = [m.group(1) for m in re.finditer(r'^irqlat_handler_duration_seconds_bucket\{irq="%s",[^}]*le="([^"]+)"\} ' % sys.argv[2],
                                       open(sys.argv[1]).read(), re.M)]
if got[:len(want)] != want or len(got) % len(want):
    sys.exit("le bounds %s" % got[:8])
PY
}
check "text format: the le bounds are every 4th schema-3 bound, 2^(-184/8) s to 4 s, then +Inf" les
# a reload applies a new factor from the next scrape: every 16th, 2^(-176/8) s .. 4 s, 13 bounds
echo 'metrics-le-factor = 16' >"$TMP/irqlatd.conf"
kill -HUP "$DAEMON_PID"
nle() { curl -s "$URL" | grep -c "^irqlat_handler_duration_seconds_bucket{irq=\"$IRQ\","; }
sixteenth() {
	local n; n=$(nle)
	is_gt "$n" 0 "bucket lines of IRQ $IRQ" && is_eqn $((n % 14)) 0 "bucket lines modulo 14 (13 bounds and +Inf)" &&
		has_line "$(curl -s "$URL")" "^irqlat_handler_duration_seconds_bucket{irq=\"$IRQ\",.*le=\"2.384185791015625e-07\"} "
}
check "after a reload with metrics-le-factor = 16: 13 bounds and +Inf, from 2^-22 s" retry_for 10 sixteenth

# A page with what no handler here does (helpers/metrics-page.c): a run of 0 ns (the zero
# bucket), two of 1000 ns, one of 5 s (irqlatd's overflow, above 4 s: in the count, in no
# native bucket), served as the protobuf stream to the same Prometheus
mapfile -t objs < <(find "$BUILD/obj/daemon" "$BUILD/obj/common" -name '*.o' ! -name main.o)
cc ${SAN_FLAGS:-} -O2 -Wall -Wextra -D_GNU_SOURCE -I"$TOP/src" -I"$TOP/bpf" -I"$BUILD" "$TOP/tests/host/helpers/metrics-page.c" \
	"${objs[@]}" -o "$TMP/metrics-page" $(pkg-config --libs $(make -s --no-print-directory -C "$TOP" deb-pkg-config-modules)) -lm
"$TMP/metrics-page" --protobuf --ns 0,1000,1000,5000000000 edge >"$TMP/edge.pb"
PGP=$(free_port)
python3 - "$PGP" "$TMP/edge.pb" <<'PY' &
import http.server, sys
page = open(sys.argv[2], "rb").read()
class Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)
    def log_message(self, *a):
        pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Page).serve_forever()
PY
PAGE_PID=$!

# A real Prometheus with native histograms, scraping every second
PP=$(free_port)
cat >"$TMP/prometheus.yml" <<EOC
global: { scrape_interval: 1s, evaluation_interval: 1s }
scrape_configs:
  - job_name: irqlatd
    static_configs: [ { targets: ['127.0.0.1:$MP'] } ]
  - job_name: page
    static_configs: [ { targets: ['127.0.0.1:$PGP'] } ]
EOC
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" --enable-feature=native-histograms \
	--web.listen-address="127.0.0.1:$PP" >"$TMP/prometheus.log" 2>&1 &
PROM_PID=$!
API=http://127.0.0.1:$PP/api/v1
query() { curl -s "$API/query" --data-urlencode "query=$1" ${2:+--data-urlencode "time=$2"}; }	# query PROMQL [TIME]: the JSON
value() { query "$@" | jq -r '.data.result[0].value[1] // empty' 2>/dev/null; }	# nothing while Prometheus starts
up() { is_eq "$(value 'up{job="irqlatd"}')" 1 'up{job="irqlatd"}'; }
retry_for 30 up
check "Prometheus (native histograms on) scrapes irqlatd (up = 1)" up

E='irqlat_handler_duration_seconds{job="page",handler="edge"}'
edge_stored() { [ -n "$(value "histogram_count($E)")" ]; }
retry_for 15 edge_stored
c=$(value "histogram_count($E)") sum=$(value "histogram_sum($E)") med=$(value "histogram_quantile(0.5, $E)")
diag "the edge page in Prometheus: count ${c:-none}, sum ${sum:-none} s, median ${med:-none} s"
check_eq "Prometheus takes the run beyond 4 s in the count and the sum, in no bucket (count 4, sum 5.000002 s)" \
	"$c $sum" "4 5.000002" "histogram_count, histogram_sum"
# rank 2 of 4: the zero bucket holds 1, the 1000 ns runs are native bucket ceil(8 log2 1e-6) = -159
check_awk "... and the median in the bucket of 1000 ns, (2^(-160/8), 2^(-159/8)] s = (953.7 ns, 1040.0 ns]" \
	'm > 2 ^ (-160 / 8) && m <= 2 ^ (-159 / 8)' m="${med:-0}"
# its buckets as the API lists them: [boundary rule, lower, upper, count]
buckets=$(query "$E" | jq -c '[.data.result[0].histogram[1].buckets[] | [.[0], (.[1] | tonumber), (.[2] | tonumber), .[3]]]')
diag "its buckets: $buckets"
edge_buckets() {
	jq_true "$buckets" 'length == 2 and .[0][3] == "1" and .[0][1] < 0 and .[0][1] == -.[0][2] and .[0][2] < 1e-30
		and .[1][3] == "2" and (.[1][1] - 9.5367431640625e-07 | fabs) < 1e-18 and (.[1][2] - 1.0399892164852693e-06 | fabs) < 1e-18'
}
check "... and exactly two buckets: the zero bucket with the run of 0 ns, (953.7 ns, 1040.0 ns] with the two of 1000 ns" edge_buckets
kill "$PAGE_PID"; wait "$PAGE_PID" 2>/dev/null; PAGE_PID=

# irqlatd's ticks, each with its histogram and bracketed by /proc/interrupts, all along the
# load; the window ends while both still run
python3 "$NW" record "$SOCK" "$IRQ" 38 >"$TMP/ticks" &
REC=$!
retry_for 10 test -s "$TMP/ticks"	# recording: the window's first sample has its tick
fio_load 36 &
FIO=$!
t_start=$(date +%s)
# the histogram families with series now, so scraped well before the window's end
curl -s "$URL" >"$TMP/t3"
hist_families "$TMP/t3" >"$TMP/t3.fams"
# the end of the window: a scrape stored after 33 s of load (so 30 s of samples under load)
end=$((t_start + 33))
stored() { [ -n "$(value "timestamp(irqlat_handler_runs_total{irq=\"$IRQ\"}) >= $end")" ]; }
retry_for 45 stored
q="irqlat_handler_duration_seconds{irq=\"$IRQ\"}"
query "$q[30s]" "$end" >"$TMP/samples.json"
query "histogram_quantile(0.99, sum(rate($q[30s])))" "$end" >"$TMP/quantile.json"
classic=$(query "count(irqlat_handler_duration_seconds_bucket)" "$end" | jq '.data.result | length')
wait "$FIO" "$REC"; REC=
check_eq "Prometheus stored native histograms: no classic _bucket series" "$classic" 0 "_bucket series"
families_native() {	# each kind's histogram family with series has native samples there
	local f
	for f in irqlat_handler_duration_seconds irqlat_softirq_duration_seconds irqlat_softirq_raise_latency_seconds \
		 $(cat "$TMP/t3.fams"); do
		[ "$(query "count(histogram_count($f))" "$end" | jq -r '.data.result[0].value[1] // 0')" -gt 0 ] ||
			{ diag "no native $f"; return 1; }
	done
}
check "... and every kind's histogram family is native there (handlers, softirqs, raise latency, vectors, timers, wake-ups, threaded IRQs where they ran)" families_native
cmp=$(python3 "$NW" compare "$TMP/ticks" "$TMP/samples.json" "$TMP/quantile.json" 2>&1)
diag "IRQ $IRQ over the 30 s window: $cmp"
same_bucket() {
	is_set "$(field prom_bucket "$cmp")" "Prometheus' bucket" || { why "the comparison" "$cmp"; return 1; }
	is_eq "$(field prom_bucket "$cmp")" "$(field irqlat_bucket "$cmp")" "Prometheus' bucket" "irqlatd's" &&
		awk_holds 'r > 1 / 2 ^ (1 / 8) && r < 2 ^ (1 / 8)' r="$(field ratio "$cmp")"
}
check "histogram_quantile(0.99, rate(...[30s])) lies in the bucket of irqlatd's own p99 over the same ticks (within 9.05%)" same_bucket
count_ok() {
	local d0 lo0 hi0 d1 lo1 hi1
	d0=$(field count0 "$cmp") lo0=$(field lo0 "$cmp") hi0=$(field hi0 "$cmp")
	d1=$(field count1 "$cmp") lo1=$(field lo1 "$cmp") hi1=$(field hi1 "$cmp")
	[ -n "$d0" ] && [ -n "$d1" ] || { why "no native count in the comparison" "$cmp"; return 1; }
	# the kernel's delta lies in [lo1 - hi0, hi1 - lo0]; the native count's within 1% of it
	awk -v d=$((d1 - d0)) -v lo=$((lo1 - hi0)) -v hi=$((hi1 - lo0)) \
		'BEGIN { printf "# native count +%d, /proc/interrupts between +%d and +%d\n", d, lo, hi; exit !(lo > 1000 && d >= 0.99 * lo && d <= 1.01 * hi) }'
}
check "the native count's increase over the window = the /proc/interrupts delta at the same ticks (within 1%)" count_ok
# the window's end count in Prometheus is the last sample's, and its increase() extrapolates
inc=$(value "histogram_count(increase($q[30s]))" "$end")
diag "histogram_count(increase(...[30s])) = ${inc:-none} (extrapolated to the window's edges)"
check_awk "histogram_count(increase()) over the window is positive" 'i > 1000' i="${inc:-0}"
done_testing
