#!/bin/bash
# The Debian package that `make deb` built (make check-host builds it first): lintian finds no
# error or warning in it nor in the source package; it holds exactly what `make install`
# installs with debian/rules' variables, plus the conffile and Debian's copyright and
# changelog; its version, the changelog's, the man pages' and the binaries' -V are the one of
# scripts/version, and debian/rules refuses to build when the changelog disagrees; the
# Build-Depends name the -dev package of every pkg-config module the Makefile links and the
# tools it runs; the build left nothing in the source tree or its parent. Installing it under
# real systemd is tests/vm/systemd/10-package-install.sh and 90-package-purge.sh.
. "$(dirname "$0")/../lib.sh"
plan 12

VERSION=$("$TOP/scripts/version")
ARCH=$(dpkg --print-architecture)
DEB=$BUILD/deb/irqlatd_${VERSION}_$ARCH.deb
CHANGES=$BUILD/deb/irqlatd_${VERSION}_$ARCH.changes
if [ ! -f "$DEB" ]; then
	echo "Bail out! no $DEB: run make deb (make check-host does)"
	exit 1
fi
field() { dpkg-deb -f "$DEB" "$1"; }
check_eq "make deb built $(basename "$DEB"): package irqlatd, version $VERSION, architecture $ARCH" \
	"$(field Package) $(field Version) $(field Architecture)" "irqlatd $VERSION $ARCH" "Package, Version, Architecture"

lint() {	# lint FILE: no error or warning, the tags it does print shown
	local out rc
	lintian --fail-on error,warning -I --pedantic "$1" >"$TMP/lintian.out" 2>&1; rc=$?
	out=$(grep -v '^running with root privileges' "$TMP/lintian.out")
	[ -z "$out" ] || sed 's/^/#   /' <<<"$out"
	[ "$rc" -eq 0 ] && ! grep -q '^[EW]: ' <<<"$out"
}
check "lintian on the .changes (the .deb, its dbgsym, the .buildinfo): no error, no warning" lint "$CHANGES"
# the source package: dpkg-source on a copy of what make deb packaged
mkdir -p "$TMP/src/irqlatd-$VERSION"
(cd "$TOP" && git ls-files -c -o --exclude-standard | while read -r f; do [ -f "$f" ] && echo "$f"; done) |
	tar -c -C "$TOP" -T - | tar -x -C "$TMP/src/irqlatd-$VERSION"
(cd "$TMP/src/irqlatd-$VERSION" && dpkg-source -b . >"$TMP/dpkg-source.log" 2>&1)
check "lintian on the source package (dpkg-source -b): no error, no warning" lint "$TMP/src/irqlatd_$VERSION.dsc"

# The contents against make install's own list, with the variables debian/rules passes.
dpkg-deb -x "$DEB" "$TMP/deb"
vars=$(make -s -C "$TOP" -f debian/rules --eval 'print-install-vars: ; @echo $(INSTALL_VARS)' print-install-vars)
# in the copy: make install would regenerate systemd/irqlatd.service in the tree for /usr
# shellcheck disable=SC2086 # vars is a list of VAR=value words
make -s -C "$TMP/src/irqlatd-$VERSION" install DESTDIR="$TMP/mi" $vars >"$TMP/install.log" 2>&1
files() { (cd "$1" && find . ! -type d | sed 's|^\.||; s|\.gz$||' | sort); }
files "$TMP/mi" >"$TMP/mi.list"
files "$TMP/deb" >"$TMP/deb.list"
printf '%s\n' /etc/irqlatd/irqlatd.conf /usr/share/doc/irqlatd/copyright /usr/share/doc/irqlatd/changelog \
	/usr/share/lintian/overrides/irqlatd |
	sort - "$TMP/mi.list" >"$TMP/want.list"
same_files() { diff -u "$TMP/want.list" "$TMP/deb.list" >"$TMP/files.diff" || { sed 's/^/#   /' "$TMP/files.diff"; return 1; }; }
check "the package holds make install's $(wc -l <"$TMP/mi.list") files ($vars), the conffile, copyright, changelog and lintian overrides" same_files
diag "$(tr '\n' ' ' <"$TMP/deb.list")"
conffile() {
	is_eq "$(dpkg-deb --ctrl-tarfile "$DEB" | tar -xO ./conffiles)" /etc/irqlatd/irqlatd.conf "conffiles" &&
		same_file "$TMP/deb/etc/irqlatd/irqlatd.conf" "$TOP/docs/irqlatd.conf.example"
}
check "/etc/irqlatd/irqlatd.conf is the only conffile, and it is docs/irqlatd.conf.example" conffile
check_grep "the packaged irqlatd.service runs /usr/sbin/irqlatd" -x 'ExecStart=/usr/sbin/irqlatd' "$TMP/deb/lib/systemd/system/irqlatd.service"

# One version
check_eq "debian/changelog's version is scripts/version's ($VERSION)" \
	"$(dpkg-parsechangelog -l "$TOP/debian/changelog" -S Version | sed 's/-[^-]*$//')" "$VERSION" "debian/changelog" "scripts/version"
man_versions() {
	file_has "^\.TH IRQLATD 8 .*\"irqlatd $VERSION\"" "$TOP/docs/irqlatd.8" && file_has "^\.TH IRQLAT 1 .*\"irqlatd $VERSION\"" "$TOP/docs/irqlat.1"
}
check "the man pages say irqlatd $VERSION" man_versions
check_eq "the packaged binaries print $VERSION (-V)" \
	"$("$TMP/deb/usr/sbin/irqlatd" -V) $("$TMP/deb/usr/bin/irqlat" -V)" "irqlatd $VERSION irqlat $VERSION" "irqlatd -V, irqlat -V"
# debian/rules' guard, on a copy whose changelog is a version behind
mkdir -p "$TMP/guard"
cp -r "$TOP/debian" "$TOP/scripts" "$TOP/src" "$TMP/guard/"
sed -i "1s/($VERSION)/($VERSION~old)/" "$TMP/guard/debian/changelog"
guard() {
	local out
	out=$(cd "$TMP/guard" && debian/rules override_dh_auto_configure 2>&1) && return 1
	grep -q "debian/changelog says $VERSION~old, IRQLAT_VERSION says $VERSION" <<<"$out" || { diag "$out"; return 1; }
}
check "debian/rules refuses to build when debian/changelog and IRQLAT_VERSION differ" guard

# Build-Depends: what the Makefile uses
# the field and its continuation lines, one package name a line
build_depends=$(awk '/^Build-Depends:/ { on = 1; sub(/^Build-Depends:/, ""); print; next }
	on && /^[ \t]/ { print; next } { on = 0 }' "$TOP/debian/control" |
	tr ',' '\n' | sed -E 's/\(.*\)//; s/[[:space:]]//g' | grep .)
listed() { grep -qx -- "$1" <<<"$build_depends"; }
declared() {
	local m pc pkg t missing=
	for m in $(make -s -C "$TOP" deb-pkg-config-modules); do
		pc=$(pkg-config --variable=pcfiledir "$m")/$m.pc
		pkg=$(dpkg -S "$pc" | cut -d: -f1)
		listed "$pkg" || missing+=" $pkg (for pkg-config $m)"
	done
	for t in clang llvm-strip bpftool protoc-c; do
		pkg=$(dpkg -S "$(command -v "$t")" | cut -d: -f1)
		listed "$pkg" || missing+=" $pkg (for $t)"
	done
	listed pkg-config || listed pkgconf || missing+=" pkg-config"
	[ -z "$missing" ] || { diag "not in Build-Depends:$missing"; return 1; }
}
check "Build-Depends list the -dev package of each pkg-config module the Makefile links, clang, llvm-strip, bpftool, protoc-c, pkg-config" declared

# make deb built in $(BUILD)/deb/src: nothing in debian/ or the tree's parent
leftovers() {
	local f left=
	for f in "$TOP"/debian/irqlatd "$TOP"/debian/.debhelper "$TOP"/debian/files "$TOP"/debian/*.substvars \
		 "$TOP"/debian/*.debhelper.log "$TOP"/debian/*.debhelper "$TOP"/debian/debhelper-build-stamp \
		 "$TOP"/../irqlatd_* "$TOP"/../irqlatd-dbgsym_*; do
		[ ! -e "$f" ] || left+=" $f"
	done
	[ -z "$left" ] || { diag "left by the build:$left"; return 1; }
}
check "no build product in debian/ or in the parent of the source tree" leftovers
done_testing
