# bash completion for irqlat(1)                                       -*- shell-script -*-
# shellcheck disable=SC2207 # COMPREPLY=($(compgen ...)): words never hold spaces here
_irqlat()
{
	local cur prev words cword
	_init_completion -s 2>/dev/null || {
		cur=${COMP_WORDS[COMP_CWORD]}
		prev=${COMP_WORDS[COMP_CWORD - 1]}
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
	}

	# irqlat's lists (src/client/table.c, cli.c, common/window.c): tests/host/50-top-help.t fails
	# when one here differs from what irqlat --help lists
	local columns="irq name cpus count rate avg p50 p90 p99 p999 max time spurious flags raise99 raisemax cause"
	case $prev in
	-w | --window)
		COMPREPLY=($(compgen -W "1s 10s 60s total" -- "$cur"))
		return
		;;
	-s | --sort)
		COMPREPLY=($(compgen -W "p99 max rate count time irq name" -- "$cur"))
		return
		;;
	-o | --output)
		# comma-separated: complete the part after the last comma
		local done_part="" last=$cur
		if [[ $cur == *,* ]]; then
			done_part=${cur%,*},
			last=${cur##*,}
		fi
		COMPREPLY=($(compgen -P "$done_part" -W "$columns" -- "$last"))
		compopt -o nospace 2>/dev/null
		return
		;;
	-S | --socket)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	--time)
		COMPREPLY=($(compgen -W "mono boot wall" -- "$cur"))
		return
		;;
	-C | --cpus)
		# the CPUs that are online, one at a time (a list is typed by hand)
		local online
		online=$(awk -F- '{ for (i = $1; i <= ($2 == "" ? $1 : $2); i++) print i }' RS=, /sys/devices/system/cpu/online 2>/dev/null)
		COMPREPLY=($(compgen -W "$online" -- "$cur"))
		return
		;;
	--cgroup)
		# the machine's cgroup v2 paths, from the unified hierarchy's mount
		local root
		root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts 2>/dev/null)
		[ -n "$root" ] && COMPREPLY=($(cd "$root" && compgen -d -- "${cur#/}" | sed 's|^|/|'))
		return
		;;
	-n | --iterations | -d | --delay | --since | --max-answer-mb)
		return
		;;
	esac

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "--top --batch --iterations --delay --json --window --sort --reverse
			--output --cpus --rt-only --cgroup --timeline --detail --follow --since --time --socket --max-answer-mb --help --version -b -n -d -J -w -s -R -o -C -f -S -h -V" -- "$cur"))
		return
	fi

	# the subcommand, then for hist an IRQ number or handler name from /proc/interrupts
	local i sub=
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		top | hist | status | events | detach | attach | why | captures)
			sub=${words[i]}
			break
			;;
		-w | --window | -s | --sort | -o | --output | -C | --cpus | -S | --socket | -n | --iterations | -d | --delay | --since | --time | --max-answer-mb | --cgroup)
			((i++))
			;;
		esac
	done
	case $sub in
	"")
		COMPREPLY=($(compgen -W "top hist status events detach attach why captures" -- "$cur"))
		;;
	detach | attach)
		# the tracepoints the daemon consumes, as it lists them
		local tps
		tps=$(irqlat --top --batch --iterations 1 --json 2>/dev/null | grep -o '"tracepoint":"[^"]*"' | cut -d'"' -f4)
		COMPREPLY=($(compgen -W "all $tps" -- "$cur"))
		;;
	why)
		# a task by pid or comm, or a CPU (cpuN)
		local cpus
		cpus=$(awk '/^cpu[0-9]+ / { print $1 }' /proc/stat 2>/dev/null)
		COMPREPLY=($(compgen -W "$cpus" -- "$cur"))
		;;
	hist)
		local targets
		targets=$(awk 'NR > 1 && $1 ~ /^[0-9]+:$/ { sub(":", "", $1); print $1; print $NF }' /proc/interrupts 2>/dev/null)
		# and the timer classes, the common timer functions, a task by pid (pid:N)
		COMPREPLY=($(compgen -W "$targets tick sleep other hrtimer_wakeup tick_nohz_handler pid:" -- "$cur"))
		;;
	esac
} && complete -F _irqlat irqlat
