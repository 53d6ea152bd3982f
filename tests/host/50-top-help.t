#!/bin/bash
# irqlat's lists against each other: every option of irqlat --help is in irqlat(1) and the
# bash completion completes it; the columns, sort keys, windows and commands --help lists
# (from irqlat's column and sort tables, src/client/table.c) are those the completion offers
# and irqlat(1) describes. No daemon.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
plan 4

# --help, irqlat(1) and the bash completion name the same options
opts=$("$IRQLAT" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u)
missing_man=$(for o in $opts; do grep -qF -- "\\-\\-${o#--}" "$TOP/docs/irqlat.1" || echo "$o"; done)
check_empty "every option of irqlat --help is in irqlat(1)${missing_man:+ (missing: $missing_man)}" "$missing_man" "options irqlat(1) lacks"
missing_comp=$(for o in $opts; do bash -c 'source "$1"; COMP_WORDS=(irqlat "$2"); COMP_CWORD=1; _irqlat; printf "%s\n" "${COMPREPLY[@]}"' _ "$TOP/completion/irqlat.bash" "$o" | grep -qx -- "$o" || echo "$o"; done)
check_empty "bash completion completes every option of irqlat --help${missing_comp:+ (missing: $missing_comp)}" "$missing_comp" "options it does not complete"
# ... and the values the help lists (from irqlat's column and sort tables, src/client/table.c):
# the completion and the man page keep their own lists, so a column or key added to a table
# and not to them fails here
help=$("$IRQLAT" --help)
words() { tr ', ' '\n\n' | sed '/^or$/d; /^$/d' | sort | tr '\n' ' '; }
help_cols=$(sed -nE 's/.*columns, comma-separated, from: ([a-z0-9,]+)$/\1/p' <<<"$help" | words)
help_sorts=$(sed -nE 's/^ +-s, --sort KEY +(.*) \(default [a-z0-9]+.*$/\1/p' <<<"$help" | words)
help_windows=$(sed -nE 's/^ +-w, --window W +(.*): the window of .*/\1/p' <<<"$help" | words)
help_cmds=$("$IRQLAT" frobnicate 2>&1 | sed -nE 's/.*: use (.*)$/\1/p' | words)
diag "--help: columns [$help_cols], sort keys [$help_sorts], windows [$help_windows]; commands [$help_cmds]"
completes() {	# completes WORD...: what the completion offers for the last word
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _irqlat; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$TOP/completion/irqlat.bash" irqlat "$@" | words
}
stale=
for spec in "-o:$help_cols" "--sort:$help_sorts" "--window:$help_windows" ":$help_cmds"; do
	opt=${spec%%:*} want=${spec#*:}
	# shellcheck disable=SC2086 # no option: complete the command word
	got=$(completes $opt "")
	[ -n "$want" ] && [ "$got" = "$want" ] || stale+=" ${opt:-command}: offers [$got], --help [$want];"
done
check_empty "bash completion offers exactly the columns, sort keys, windows and commands of irqlat --help${stale:+ (${stale% ;})}" "$stale" \
	"lists that differ"
man_section() {	# the paragraph of irqlat(1) that describes --$1
	awk -v long="$1" 'index($0, ".BR \\-") == 1 && index($0, "\\-\\-" long " ") { on = 1; next }
		on && /^\.(TP|SH)/ { exit } on' "$TOP/docs/irqlat.1"
}
missing_man=
for c in $help_cols; do man_section output | grep -qE "^\.BR? $c( |$)" || missing_man+=" column $c"; done
for k in $help_sorts; do man_section sort | grep -qE "^\.BR? $k( |$)" || missing_man+=" sort key $k"; done
check_empty "irqlat(1) describes every column and sort key of --help${missing_man:+ (missing:$missing_man)}" "$missing_man" "what irqlat(1) lacks"

done_testing
