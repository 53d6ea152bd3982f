# Host-side helpers shared by the VM runners (sourced, POSIX sh).
# shellcheck shell=sh
# Inputs, all optional: BUILD (build), VM_DIR ($BUILD/vm), KVER (the kernel
# that linux-image-amd64 depends on), SILLYMOD_KO, MODULE_BTF.

VM_SENTINEL="vmtest: finished"
VM_TESTS=$(cd "$(dirname "$0")" && pwd)
VM_TOP=$(cd "$VM_TESTS/../.." && pwd)

vm_die() { echo "vm: $*" >&2; exit 1; }

# The guest kernel: the one Debian's linux-image-amd64 points at.  Never
# uname -r: that names the host's kernel.
vm_guest_kver() {
	dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null |
		sed -E 's/^linux-image-([^ ,]+).*/\1/'
}

vm_init() {
	BUILD=${BUILD:-build}
	case $BUILD in /*) ;; *) BUILD=$VM_TOP/$BUILD ;; esac
	VM_DIR=${VM_DIR:-$BUILD/vm}
	mkdir -p "$VM_DIR"
	KVER=${KVER:-$(vm_guest_kver)}
	[ -n "$KVER" ] || vm_die "cannot tell the guest kernel: is linux-image-amd64 installed? (scripts/install-deps vm)"
	[ -r "/boot/vmlinuz-$KVER" ] || vm_die "/boot/vmlinuz-$KVER is missing"
	SILLYMOD_KO=${SILLYMOD_KO:-$BUILD/module/sillymod/sillymod.ko}
	[ -r "$SILLYMOD_KO" ] || vm_die "$SILLYMOD_KO is missing: run make module"
	# By hand, without MODULE_BTF, expect BTF when the .ko has some.
	if [ -z "${MODULE_BTF:-}" ]; then
		if readelf -S "$SILLYMOD_KO" | grep -q ' \.BTF '; then MODULE_BTF=1; else MODULE_BTF=0; fi
	fi
}

# vm_copy_exe HOST_PATH ROOT [GUEST_PATH]: copy an executable into a guest
# root with the shared libraries and the ELF interpreter that ldd lists, at
# the same paths as on the host.
vm_copy_exe() {
	_dest=$2${3:-$1}
	mkdir -p "${_dest%/*}"
	cp -L "$1" "$_dest"
	ldd "$1" 2>/dev/null | grep -o '/[^ ]*' | while read -r _lib; do
		[ -e "$2$_lib" ] && continue
		mkdir -p "$2${_lib%/*}"
		cp -L "$_lib" "$2$_lib"
	done
}

# vm_write_env FILE GUEST: the variables every guest check can rely on.
vm_write_env() {
	cat >"$1" <<-EOT
	VM_GUEST=$2
	VMTEST_DIR=/vmtest
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
	KVER=$KVER
	SILLYMOD_KO=/vmtest/sillymod.ko
	IRQLATD=/usr/sbin/irqlatd
	IRQLAT=/usr/bin/irqlat
	VM_MODULE_BTF=$MODULE_BTF
	VM_CHECK_TIMEOUT=${VM_CHECK_TIMEOUT:-150}
	EOT
}

# vm_qemu LOG SECONDS QEMU_ARGS...: boot a guest, its serial console into LOG.
# Sets VM_QEMU_RC (124 when the time limit killed it).
# thread=single: one host thread runs both vCPUs. With multi-threaded TCG (QEMU's default),
# a vCPU could go on executing a translation that still held the int3 of a finished
# text_poke (memory held the new instruction again): the kernel's int3 handler saw no int3
# in memory, backed up to re-run the instruction, and the vCPU trapped again, forever, with
# interrupts off. A daemon's stop (tracepoints detached: static keys, text_poke) hung about
# one guest stop in a hundred that way (docs/vm.md, "Guest hangs at the daemon's stop").
vm_qemu() {
	_log=$1 _limit=$2
	shift 2
	VM_QEMU_RC=0
	timeout -k 10 "$_limit" qemu-system-x86_64 -accel tcg,thread=single -cpu max -m 1G -smp 2 \
		-nographic -no-reboot -nic none "$@" </dev/null >"$_log" 2>&1 || VM_QEMU_RC=$?
}

# vm_report GUEST LOG SECONDS: count the guest's TAP results, show the failures
# with their comments and the end of the log, and write
# "PASSED FAILED" to $VM_DIR/GUEST.result for check-vm.
vm_report() {
	_guest=$1 _log=$2 _secs=$3
	tr -d '\r' <"$_log" >"$_log.txt"
	_pass=$(grep -c '^ok\( \|$\)' "$_log.txt" || true)
	_fail=$(grep '^not ok\( \|$\)' "$_log.txt" | grep -vc '# TODO ' || true)
	_todo=$(grep '^not ok\( \|$\)' "$_log.txt" | grep -c '# TODO ' || true)
	_skip=$(grep -c '^ok .*# SKIP' "$_log.txt" || true)
	_extra=""
	if ! grep -qx "$VM_SENTINEL" "$_log.txt"; then
		_fail=$((_fail + 1))
		case $VM_QEMU_RC in
		124|137) _extra="not ok - $_guest guest finished (killed after ${_secs} s: time limit)" ;;
		*) _extra="not ok - $_guest guest finished (QEMU exit status $VM_QEMU_RC, no '$VM_SENTINEL' line)" ;;
		esac
	elif [ $((_pass + _fail)) -eq 0 ]; then
		_fail=1
		_extra="not ok - $_guest guest reported results"
	fi
	if [ "$_fail" -gt 0 ]; then
		echo "vm-$_guest: failures (log: $_log):"
		# Each failure with the comment lines that follow it.
		awk '/^not ok( |$)/ { show = 1; print "  " $0; next }
		     /^ok( |$)/ || /^# --- / || !/^#/ { show = 0 }
		     show { print "  " $0 }' "$_log.txt"
		[ -z "$_extra" ] || echo "  $_extra"
		echo "vm-$_guest: last 30 lines of the guest log:"
		tail -n 30 "$_log.txt" | sed 's/^/  | /'
	fi
	echo "$_pass $_fail" >"$VM_DIR/$_guest.result"
	if [ "$_todo" -gt 0 ]; then	# known defects (TODO checks) that failed: shown, not counted
		echo "vm-$_guest: $_todo TODO check(s) failed (known defects, not counted):"
		grep '^not ok.*# TODO ' "$_log.txt" | sed 's/^/  /'
	fi
	echo "vm-$_guest: $_pass passed ($_skip skipped), $_fail failed, ${_secs} s"
}
