#!/bin/bash
# The Prometheus rules (contrib/prometheus/irqlatd.rules.yml) and the Grafana dashboard
# (contrib/grafana/irqlatd.json), docs/fleet.md: promtool checks the rules and runs their unit
# tests, and those tests fail when the rules are broken on purpose; the dashboard's structure
# holds and every expression in it parses; then a real Prometheus 2.42 (native histograms on)
# loads the rules and scrapes a real irqlatd under fio load: it stores irqlatd's histograms as
# native ones, every rule evaluates without error, the p99 rules give the disk handler a value
# (from the native histogram), every expression of the dashboard returns data, and when irqlatd
# stops, IrqlatdDown becomes pending and the dashboard's alert panel shows it. Loopback only.
. "$(dirname "$0")/../lib.sh"
plan 13

RULES=$TOP/contrib/prometheus/irqlatd.rules.yml
RULE_TESTS=$TOP/contrib/prometheus/irqlatd.rules.test.yml
DASH=$TOP/contrib/grafana/irqlatd.json
EXPRS=$TOP/tests/host/helpers/grafana-exprs
PROM_PID=
trap 'kill "$PROM_PID" 2>/dev/null; wait "$PROM_PID" 2>/dev/null; cleanup' EXIT

promtool_ok() {	# promtool_ok ARGS...: exit 0, SUCCESS, no other complaint
	promtool "$@" >"$TMP/promtool.out" 2>&1 || { sed 's/^/#   /' "$TMP/promtool.out"; return 1; }
	grep -q SUCCESS "$TMP/promtool.out" && ! grep -qiE 'lint|warn|FAILED' "$TMP/promtool.out"
}
check "promtool check rules: the rules file is valid" promtool_ok check rules "$RULES"
nrules=$(sed -n 's/.*SUCCESS: \([0-9]*\) rules found.*/\1/p' "$TMP/promtool.out")
diag "$nrules rules"
check "promtool test rules: every unit test passes" promtool_ok test rules "$RULE_TESTS"

# The unit tests can fail: each change below breaks the rules the way a slip would, and
# promtool test must then fail.
mutant_fails() {	# mutant_fails SED_SCRIPT
	mkdir -p "$TMP/mutant"
	sed -e "$1" "$RULES" >"$TMP/mutant/irqlatd.rules.yml"
	cp "$RULE_TESTS" "$TMP/mutant/"
	cmp -s "$RULES" "$TMP/mutant/irqlatd.rules.yml" && { diag "'$1' changed nothing"; return 1; }
	! promtool test rules "$TMP/mutant/irqlatd.rules.test.yml" >/dev/null 2>&1 || { diag "'$1' passed the tests"; return 1; }
}
mutants() {
	local m
	for m in 's/sum by (job, instance, handler, le)/sum by (job, instance, irq, handler, le)/' \
		 's/sum by (job, handler, le)/sum by (job, instance, handler, le)/' \
		 's/p99_rate5m > 0.0001/p99_rate5m > 0.000001/' \
		 '/alert: IrqlatHandlerP99High/,/for:/s/for: 5m/for: 3m/' \
		 's/increase(irqlat_ringbuf_drops_total{kind!="no_cell"}\[5m\])) > 0/increase(irqlat_ringbuf_drops_total[5m])) > 0/' \
		 's/increase(irqlat_unmeasured_runs_total\[5m\])) > 0/increase(irqlat_unmeasured_runs_total[5m])) >= 0/' \
		 's/up{job="irqlatd"} == 0/up == 0/' \
		 's/histogram_quantile(0.99,/histogram_quantile(0.9,/'; do
		mutant_fails "$m" || return 1
	done
}
check "the unit tests fail on 8 broken variants of the rules (aggregation, threshold, for, drops, unmeasured runs, job, quantile)" mutants

# The dashboard
check "dashboard: JSON with uid, title, unique panel ids, a grid without overlaps, \${datasource} everywhere, defined variables" \
	"$EXPRS" check "$DASH"
"$EXPRS" rules "$DASH" >"$TMP/dashboard.rules.json"
check "dashboard: every expression parses (promtool check rules on them as recording rules)" \
	promtool_ok check rules "$TMP/dashboard.rules.json"
nexprs=$(sed -n 's/.*SUCCESS: \([0-9]*\) rules found.*/\1/p' "$TMP/promtool.out")

# A real Prometheus with the rules, scraping a real irqlatd. Native histograms on: irqlatd
# serves them (the protobuf format), so the rules' native part is what this exercises, and the
# dashboard heatmap's.
mount_fs
MP=$(free_port)
start_daemon --interval-ms 200 --metrics "127.0.0.1:$MP" --tracepoint sched:sched_process_exec
PP=$(free_port)
cat >"$TMP/prometheus.yml" <<EOC
global: { scrape_interval: 1s, evaluation_interval: 1s }
rule_files: [ '$RULES' ]
scrape_configs:
  - job_name: irqlatd
    static_configs: [ { targets: ['127.0.0.1:$MP'] } ]
EOC
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
	--web.listen-address="127.0.0.1:$PP" --enable-feature=native-histograms >"$TMP/prometheus.log" 2>&1 &
PROM_PID=$!
API=http://127.0.0.1:$PP/api/v1
query() { curl -s "$API/query" --data-urlencode "query=$1"; }	# the JSON answer
nresults() { query "$1" | jq -r 'if .status == "success" then .data.result | length else -1 end'; }
value() { query "$1" | jq -r '.data.result[0].value[1] // empty'; }
# retry SECONDS CMD...: every 0.25 s until it succeeds (what a predicate says is of the last try)
retry() { local n=$(($1 * 4)); shift; until : >"$WHY"; "$@"; do n=$((n - 1)); [ "$n" -gt 0 ] || return 1; sleep 0.25; done; }
scraped() { is_eq "$(value 'up{job="irqlatd"}')" 1 'up{job="irqlatd"}'; }
check "Prometheus loads the rules and scrapes irqlatd (up = 1)" retry 60 scraped

fio_load 4 &
FIO=$!
IRQ=$(disk_irq)
disk_handler() {	# its name as irqlatd serves it, once a map read has seen it
	HANDLER=$(curl -s "http://127.0.0.1:$MP/metrics" |
		sed -n "s/^irqlat_handler_runs_total{irq=\"$IRQ\",handler=\"\([^\"]*\)\"}.*/\1/p" | head -n 1)
	[ -n "$HANDLER" ]
}
retry 10 disk_handler
diag "disk IRQ $IRQ, handler ${HANDLER:-none}"
p99_rule='instance_handler:irqlat_handler_duration_seconds:p99_rate5m{handler="'$HANDLER'"}'
has_p99() { [ -n "$(value "$p99_rule")" ]; }
retry 30 has_p99
wait "$FIO"
native() {	# the histogram is a native one there: histograms in the answer, no _bucket series
	is_gt "$(query "irqlat_handler_duration_seconds{handler=\"$HANDLER\"}" | jq '[.data.result[] | select(.histogram)] | length')" 0 \
		"native histograms of $HANDLER" &&
		is_eq "$(nresults 'irqlat_handler_duration_seconds_bucket')" 0 "_bucket series"
}
check "Prometheus stores irqlatd's histograms as native ones (no _bucket series): the rules' and the heatmap's native half run" native
rules_ok() {	# every rule evaluated at least once, none with an error
	local rules; rules=$(curl -s "$API/rules")
	jq -e --argjson n "$nrules" \
		'[.data.groups[].rules[]] | length == $n and all(.health == "ok" and .lastEvaluation != "0001-01-01T00:00:00Z")' <<<"$rules" >/dev/null && return 0
	why "the rules (of $nrules)" "$(jq -r '.data.groups[].rules[] | "\(.name): \(.health), evaluated \(.lastEvaluation)"' <<<"$rules" 2>&1)"
	return 1
}
check "Prometheus evaluates all $nrules rules on irqlatd's series without an error" retry 10 rules_ok
curl -s "$API/rules" | jq -r '.data.groups[].rules[] | select(.health != "ok") | "#   \(.name): \(.lastError)"'
in_range() {	# in_range PROMQL: one value, above 0 and below irqlatd's top bound (4.29 s)
	local v; v=$(value "$1")
	diag "$1 = ${v:-none}"
	awk_holds 'v > 0 && v < 4.3' v="${v:-0}"
}
check "per machine and handler: p99 of $HANDLER is a duration in (0, 4.29 s)" in_range "$p99_rule"
check "fleet: p99 of $HANDLER is a duration in (0, 4.29 s)" \
	in_range 'handler:irqlat_handler_duration_seconds:p99_rate5m{handler="'$HANDLER'"}'

# Each of the dashboard's expressions against this Prometheus, as Grafana would send them (the
# alert table's waits for an alert, below).
"$EXPRS" exprs "$DASH" 30s 1m >"$TMP/exprs.tsv"
dashboard_data() {
	local where refid expr n bad=0
	while IFS=$'\t' read -r where refid expr; do
		case $expr in ALERTS*) continue ;; esac
		n=$(nresults "$expr")
		[ "$n" -gt 0 ] || { diag "no data: $where ($refid): $expr"; bad=1; }
	done <"$TMP/exprs.tsv"
	return $bad
}
check "every dashboard expression returns data ($nexprs in all, the alert panel's below)" dashboard_data

# irqlatd stops: up = 0, and IrqlatdDown is pending (it fires after 5 minutes)
stop_daemon
down() { is_eq "$(value 'up{job="irqlatd"}')" 0 'up{job="irqlatd"}'; }
pending() { is_eq "$(value 'ALERTS{alertname="IrqlatdDown",alertstate="pending"}')" 1 'ALERTS{alertname="IrqlatdDown",alertstate="pending"}'; }
down_pending() { down && pending; }
check "irqlatd stopped: up = 0 and IrqlatdDown pending" retry 20 down_pending
alerts_expr=$(awk -F'\t' '$3 ~ /^ALERTS/ { print $3 }' "$TMP/exprs.tsv")
alert_panel() { is_gt "$(nresults "$alerts_expr")" 0 "results of $alerts_expr"; }
check "the dashboard's alert panel shows it ($alerts_expr)" alert_panel
done_testing
