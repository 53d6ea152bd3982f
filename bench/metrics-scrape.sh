#!/bin/bash
# scrape cost: 2000 scrapes back to back (new connection each), then 20 s of one scrape a second.
# ACCEPT=protobuf: the scrapes ask for the protobuf format (native histograms) as Prometheus
# does with --enable-feature=native-histograms; any other value is sent as the Accept header.
B=${BUILD:-$(cd "$(dirname "$0")/.." && pwd)/build}; T=$(mktemp -d)
[ "${ACCEPT:-}" = protobuf ] && ACCEPT='application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited'
export ACCEPT=${ACCEPT:-}
$B/irqlatd --socket $T/s --log-target stderr --metrics 127.0.0.1:19671 >$T/log 2>&1 &
D=$!; sleep 2
fio --name=l --filename=$T/f --size=16M --rw=randread --bs=4k --direct=1 --ioengine=psync --runtime=40 --time_based >/dev/null 2>&1 &
F=$!; sleep 1
python3 - <<'PY'
import http.client, os, time
n = 2000; size = 0
headers = {"Accept": os.environ["ACCEPT"]} if os.environ["ACCEPT"] else {}
t = time.perf_counter()
for _ in range(n):
    c = http.client.HTTPConnection("127.0.0.1", 19671); c.request("GET", "/metrics", headers=headers); r = c.getresponse(); size = len(r.read()); c.close()
dt = time.perf_counter() - t
print(f"{n} scrapes: {dt/n*1e6:.0f} us per scrape (client included), page {size} bytes")
PY
grep -c '^irqlat_handler_runs_total{' <(curl -s http://127.0.0.1:19671/metrics) | sed 's/^/handlers: /'
tk=$(getconf CLK_TCK)
cpu() { awk '{ print $14 + $15 }' /proc/$D/stat; }
c0=$(cpu); ( for i in $(seq 20); do curl -s -o /dev/null ${ACCEPT:+-H "Accept: $ACCEPT"} http://127.0.0.1:19671/metrics; sleep 1; done ); c1=$(cpu)
echo "daemon CPU over 20 s with a 1 s scrape, under fio: $(( (c1 - c0) * 1000 / tk )) ms ($(awk -v c=$((c1-c0)) -v t=$tk 'BEGIN{printf "%.2f", c/t/20*100}')%)"
c0=$(cpu); sleep 10; c1=$(cpu)
echo "daemon CPU over 10 s without scrapes, under fio: $(( (c1 - c0) * 1000 / tk )) ms"
kill $F; wait $F; kill $D; wait $D; rm -rf $T
